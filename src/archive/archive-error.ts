/**
 * The error class of the archive room: a `.tar.gz` that cannot be read, or one whose entries an
 * extraction refuses. Callers match on `code`; the message names the archive and the entry.
 */
import { BasaltError } from '../errors.js';

export type ArchiveErrorCode =
  /** Not gzip data, or gzip data that does not inflate (a flipped byte fails its checksum). */
  | 'ERR_ARCHIVE_CORRUPT'
  /** The file ends before the gzip stream or the tar entry it is in. */
  | 'ERR_ARCHIVE_TRUNCATED'
  /** A tar header whose checksum does not match, or an extended header too large to be one. */
  | 'ERR_ARCHIVE_HEADER'
  /** An absolute entry name, or one whose `..` leads outside the extraction directory. */
  | 'ERR_ARCHIVE_PATH'
  /** A symbolic or hard link, device or FIFO, where only files and directories are accepted. */
  | 'ERR_ARCHIVE_LINK'
  /** An entry larger than the extraction allows for its name. */
  | 'ERR_ARCHIVE_TOO_LARGE'
  /** An entry the extraction does not expect (another name, twice the same name, a file missing). */
  | 'ERR_ARCHIVE_CONTENT';

export class ArchiveError extends BasaltError {
  constructor(
    override readonly code: ArchiveErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}
