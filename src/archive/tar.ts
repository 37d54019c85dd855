/**
 * The part of the tar format Basalt reads and writes (POSIX ustar, IEEE Std 1003.1-1988, with the
 * pax extended header and GNU's long names and base-256 sizes when reading). Used by the
 * migration (a one-file archive shipped next to the genesis block, and the snapshot of a v3
 * database made by GNU or BSD tar) and by `blockchain:export`/`blockchain:import` (a data
 * directory's store). Both directions stream: a multi-gigabyte store never sits in memory.
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, sep } from 'node:path';
import { pipeline as pipeStreams, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { ArchiveError } from './archive-error.js';

const BLOCK = 512;
/** The largest size an 11-digit octal field holds; larger sizes use GNU's base-256 form. */
const MAX_OCTAL_SIZE = 8 ** 11 - 1;
/** Pax and GNU long-name records are a few hundred bytes; anything near this is not one. */
const MAX_EXTENDED_HEADER = 1 << 20;

function writeOctal(header: Buffer, offset: number, length: number, value: number): void {
  // length - 1 digits, then NUL: the form every tar reader accepts.
  header.write(`${value.toString(8).padStart(length - 1, '0')}\0`, offset, length, 'ascii');
}

function writeSize(header: Buffer, size: number): void {
  if (size <= MAX_OCTAL_SIZE) {
    writeOctal(header, 124, 12, size);
    return;
  }
  // GNU base-256: a set high bit in the first byte, then the value big-endian.
  header[124] = 0x80;
  let rest = size;
  for (let index = 135; index > 124; index -= 1) {
    header[index] = rest % 256;
    rest = Math.floor(rest / 256);
  }
}

function entryHeader(name: string, type: '0' | '5', size: number, mode: number, mtime: Date): Buffer {
  if (Buffer.byteLength(name) > 100) throw new Error(`Cannot archive "${name}": names of at most 100 bytes are written.`);
  const header = Buffer.alloc(BLOCK);
  header.write(name, 0, 100, 'utf8');
  writeOctal(header, 100, 8, mode);
  writeOctal(header, 108, 8, 0);
  writeOctal(header, 116, 8, 0);
  writeSize(header, size);
  writeOctal(header, 136, 12, Math.floor(mtime.getTime() / 1000));
  header.write(type, 156, 1, 'ascii');
  header.write('ustar\0', 257, 6, 'ascii');
  header.write('00', 263, 2, 'ascii');
  // The checksum is summed with its own field read as spaces.
  header.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'ascii');
  return header;
}

const paddingOf = (size: number): number => (BLOCK - (size % BLOCK)) % BLOCK;

/** One ustar archive holding `name` (a plain file name) with `content`, padded to whole records. */
export function tarOneFile(name: string, content: Uint8Array, options: { mode?: number; mtime?: Date } = {}): Buffer {
  if (Buffer.byteLength(name) > 100 || name.includes('/'))
    throw new Error(`Cannot archive "${name}": a plain name of at most 100 bytes is expected.`);
  const header = entryHeader(name, '0', content.length, options.mode ?? 0o644, options.mtime ?? new Date());
  // Two zero records end the archive.
  return Buffer.concat([header, content, Buffer.alloc(paddingOf(content.length)), Buffer.alloc(2 * BLOCK)]);
}

/** An entry of an archive being written: a directory, or a file read from `path`. */
export interface TarSource {
  /** The name in the archive: relative, `/`-separated, at most 100 bytes. */
  readonly name: string;
  /** The file whose bytes the entry holds; absent for a directory. */
  readonly path?: string;
  readonly mode?: number;
}

async function* tarRecords(sources: readonly TarSource[], mtime: Date): AsyncGenerator<Buffer> {
  for (const source of sources) {
    if (source.path === undefined) {
      yield entryHeader(source.name.endsWith('/') ? source.name : `${source.name}/`, '5', 0, source.mode ?? 0o755, mtime);
      continue;
    }
    const { size } = await stat(source.path);
    yield entryHeader(source.name, '0', size, source.mode ?? 0o644, mtime);
    let read = 0;
    for await (const chunk of createReadStream(source.path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
      read += chunk.length;
      if (read > size) break;
      yield chunk;
    }
    // The header already holds the size: a file that changed meanwhile cannot be archived.
    if (read !== size) throw new Error(`${source.path} changed size while it was archived.`);
    yield Buffer.alloc(paddingOf(size));
  }
  yield Buffer.alloc(2 * BLOCK);
}

/**
 * Writes `sources` as a gzip-compressed tar to `output` (replacing it), streamed: memory stays
 * at a few chunks whatever the files' sizes. Resolves with the archive's size in bytes.
 */
export async function writeTarGz(
  output: string,
  sources: readonly TarSource[],
  options: { mtime?: Date; level?: number } = {},
): Promise<number> {
  await pipeline(
    Readable.from(tarRecords(sources, options.mtime ?? new Date())),
    createGzip({ level: options.level ?? 6 }),
    createWriteStream(output, { mode: 0o644 }),
  );
  return (await stat(output)).size;
}

function readString(header: Buffer, offset: number, length: number): string {
  const field = header.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? length : end).toString('utf8');
}

function readNumber(header: Buffer, offset: number, length: number): number {
  const field = header.subarray(offset, offset + length);
  if ((field[0] as number) & 0x80) {
    // GNU base-256 for sizes beyond 8 GiB.
    let value = 0;
    for (let index = 1; index < length; index += 1) value = value * 256 + (field[index] as number);
    return value;
  }
  const text = readString(header, offset, length).trim();
  return text === '' ? 0 : Number.parseInt(text, 8);
}

function checksumMatches(header: Buffer): boolean {
  let sum = 0;
  for (let index = 0; index < BLOCK; index += 1) sum += index >= 148 && index < 156 ? 0x20 : (header[index] as number);
  return sum === readNumber(header, 148, 8);
}

/** Pax records (`<length> <key>=<value>\n`), of which `path` and `size` matter here. */
function paxRecords(data: Buffer): { path?: string; size?: number } {
  const found: { path?: string; size?: number } = {};
  let offset = 0;
  while (offset < data.length) {
    const space = data.indexOf(0x20, offset);
    if (space === -1) break;
    const length = Number.parseInt(data.subarray(offset, space).toString('ascii'), 10);
    if (!Number.isInteger(length) || length <= 0) break;
    const record = data.subarray(space + 1, offset + length - 1).toString('utf8');
    const equals = record.indexOf('=');
    const key = record.slice(0, equals);
    if (key === 'path') found.path = record.slice(equals + 1);
    if (key === 'size') found.size = Number.parseInt(record.slice(equals + 1), 10);
    offset += length;
  }
  return found;
}

/** `name` as a relative path inside the extraction directory, or an error for absolute names and `..` escapes. */
function safeRelative(name: string): string {
  const relative = normalize(name);
  if (isAbsolute(relative) || relative === '..' || relative.startsWith(`..${sep}`)) {
    throw new ArchiveError('ERR_ARCHIVE_PATH', `The archive entry "${name}" points outside the extraction directory.`);
  }
  return relative.endsWith(sep) ? relative.slice(0, -1) : relative;
}

/** A file or directory about to be extracted; `name` is relative and normalized (`.` for the top). */
export interface ExtractEntry {
  readonly name: string;
  readonly type: 'file' | 'directory';
  readonly size: number;
}

export interface ExtractOptions {
  /**
   * Links, devices and FIFOs: skipped (the default: a database snapshot made by another tool has
   * none worth keeping) or refused with ERR_ARCHIVE_LINK.
   */
  readonly links?: 'skip' | 'refuse';
  /** Called before anything is written for an entry; throws to refuse it (and the archive). */
  readonly admit?: (entry: ExtractEntry) => void;
}

/** zlib's failures in terms of the archive: a cut file, or bytes that are not (or no longer) gzip. */
function gzipFailure(archive: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'Z_BUF_ERROR')
    return new ArchiveError('ERR_ARCHIVE_TRUNCATED', `${archive} is cut short (the gzip stream ends early).`, { cause: error });
  if (code === 'Z_DATA_ERROR' || code === 'Z_STREAM_ERROR') {
    return new ArchiveError('ERR_ARCHIVE_CORRUPT', `${archive} is not an intact gzip file: ${(error as Error).message}.`, { cause: error });
  }
  return error;
}

/**
 * Extracts a `.tar.gz` into `destination` (which must exist). Regular files and directories are
 * written; see `ExtractOptions` for the rest. Resolves with the number of files written. A
 * failure leaves what was written so far in `destination`, and nothing outside it.
 */
export async function extractTarGz(archive: string, destination: string, options: ExtractOptions = {}): Promise<number> {
  let pending: Buffer = Buffer.alloc(0);
  let header: Buffer | undefined;
  let remaining = 0;
  let padding = 0;
  let out: WriteStream | undefined;
  let collect: Buffer[] | undefined;
  let longName: string | undefined;
  let pax: { path?: string; size?: number } = {};
  let collecting: 'L' | 'x' | undefined;
  let files = 0;
  let ended = false;
  let writeError: Error | undefined;

  const finishEntry = async (): Promise<void> => {
    if (out) {
      const stream = out;
      out = undefined;
      await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
      if (writeError !== undefined) throw writeError;
    }
    if (collect && collecting) {
      const data = Buffer.concat(collect);
      if (collecting === 'L') longName = readString(data, 0, data.length);
      else pax = { ...pax, ...paxRecords(data) };
      collect = undefined;
      collecting = undefined;
    }
  };

  const startEntry = (block: Buffer): void => {
    if (!checksumMatches(block)) throw new ArchiveError('ERR_ARCHIVE_HEADER', `${archive} is not a tar.gz archive (bad header checksum).`);
    const type = String.fromCharCode(block[156] as number);
    const prefix = readString(block, 257, 6).startsWith('ustar') ? readString(block, 345, 155) : '';
    const headerName = prefix === '' ? readString(block, 0, 100) : `${prefix}/${readString(block, 0, 100)}`;
    const size = type === 'x' || type === 'L' || pax.size === undefined ? readNumber(block, 124, 12) : pax.size;
    remaining = size;
    padding = paddingOf(size);
    if (type === 'L' || type === 'x') {
      if (size > MAX_EXTENDED_HEADER) throw new ArchiveError('ERR_ARCHIVE_HEADER', `${archive} has an extended header of ${size} bytes.`);
      collecting = type;
      collect = [];
      return;
    }
    const name = pax.path ?? longName ?? headerName;
    pax = {};
    longName = undefined;
    if (type === 'g' || type === 'K') return;
    const isFile = type === '0' || type === '\0' || type === '7';
    if (type !== '5' && !isFile) {
      if (options.links === 'refuse') {
        throw new ArchiveError(
          'ERR_ARCHIVE_LINK',
          `The archive entry "${name}" is a link or special file (tar type ${JSON.stringify(type)}).`,
        );
      }
      return;
    }
    const relative = safeRelative(name);
    options.admit?.({ name: relative.split(sep).join('/'), type: isFile ? 'file' : 'directory', size });
    const target = join(destination, relative);
    if (!isFile) {
      mkdirSync(target, { recursive: true });
      return;
    }
    mkdirSync(dirname(target), { recursive: true });
    const stream = createWriteStream(target, { mode: readNumber(block, 100, 8) & 0o777 || 0o644 });
    // A write error (a full disk) fails the entry when it ends, or its 'drain' wait; never the process.
    stream.on('error', (error) => {
      writeError ??= error;
    });
    out = stream;
    files += 1;
  };

  // A failure of either stream (a missing file, bad gzip) ends the loop below with that error.
  const gunzip = pipeStreams(createReadStream(archive), createGunzip(), () => undefined);
  try {
    try {
      for await (const chunk of gunzip as AsyncIterable<Buffer>) {
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        while (!ended) {
          if (header === undefined) {
            if (remaining > 0) {
              const take = Math.min(remaining, pending.length);
              if (take === 0) break;
              const data = pending.subarray(0, take);
              if (out) {
                // once() rejects on the stream's error (a full disk), where a bare 'drain' would wait forever.
                if (!out.write(data)) await once(out, 'drain');
              } else if (collect) {
                collect.push(Buffer.from(data));
              }
              pending = pending.subarray(take);
              remaining -= take;
              if (remaining > 0) break;
              await finishEntry();
            }
            if (padding > 0) {
              const skip = Math.min(padding, pending.length);
              pending = pending.subarray(skip);
              padding -= skip;
              if (padding > 0) break;
            }
            if (pending.length < BLOCK) break;
            header = pending.subarray(0, BLOCK);
            pending = pending.subarray(BLOCK);
          }
          const block = header;
          header = undefined;
          if (block.every((byte) => byte === 0)) {
            ended = true;
            break;
          }
          startEntry(block);
          if (remaining === 0) await finishEntry();
        }
      }
    } catch (error) {
      throw gzipFailure(archive, error);
    }
    await finishEntry();
  } finally {
    out?.destroy();
    gunzip.destroy();
  }
  if (!ended && (remaining > 0 || padding > 0))
    throw new ArchiveError('ERR_ARCHIVE_TRUNCATED', `${archive} ends in the middle of an entry.`);
  return files;
}
