/**
 * The small part of the tar format a migration needs (POSIX ustar, IEEE Std 1003.1-1988 and its
 * pax extension): writing a one-file archive (`genesis_block.blob.tar.gz`, as lisk-migrator ships
 * it next to the file) and extracting a snapshot archive of a v3 database made by GNU or BSD tar,
 * streamed, so a multi-gigabyte mainnet snapshot never sits in memory.
 */
import { createReadStream, createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname, isAbsolute, join, normalize, sep } from 'node:path';
import { createGunzip } from 'node:zlib';

const BLOCK = 512;

function writeOctal(header: Buffer, offset: number, length: number, value: number): void {
  // length - 1 digits, then NUL: the form every tar reader accepts.
  header.write(`${value.toString(8).padStart(length - 1, '0')}\0`, offset, length, 'ascii');
}

/** One ustar archive holding `name` (a plain file name) with `content`, padded to whole records. */
export function tarOneFile(name: string, content: Uint8Array, options: { mode?: number; mtime?: Date } = {}): Buffer {
  if (Buffer.byteLength(name) > 100 || name.includes('/'))
    throw new Error(`Cannot archive "${name}": a plain name of at most 100 bytes is expected.`);
  const header = Buffer.alloc(BLOCK);
  header.write(name, 0, 100, 'utf8');
  writeOctal(header, 100, 8, options.mode ?? 0o644);
  writeOctal(header, 108, 8, 0);
  writeOctal(header, 116, 8, 0);
  writeOctal(header, 124, 12, content.length);
  writeOctal(header, 136, 12, Math.floor((options.mtime ?? new Date()).getTime() / 1000));
  header.write('0', 156, 1, 'ascii');
  header.write('ustar\0', 257, 6, 'ascii');
  header.write('00', 263, 2, 'ascii');
  // The checksum is summed with its own field read as spaces.
  header.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'ascii');
  const padding = (BLOCK - (content.length % BLOCK)) % BLOCK;
  // Two zero records end the archive.
  return Buffer.concat([header, content, Buffer.alloc(padding), Buffer.alloc(2 * BLOCK)]);
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

/** Pax records (`<length> <key>=<value>\n`), of which only `path` matters here. */
function paxPath(data: Buffer): string | undefined {
  let path: string | undefined;
  let offset = 0;
  while (offset < data.length) {
    const space = data.indexOf(0x20, offset);
    if (space === -1) break;
    const length = Number.parseInt(data.subarray(offset, space).toString('ascii'), 10);
    if (!Number.isInteger(length) || length <= 0) break;
    const record = data.subarray(space + 1, offset + length - 1).toString('utf8');
    const equals = record.indexOf('=');
    if (record.slice(0, equals) === 'path') path = record.slice(equals + 1);
    offset += length;
  }
  return path;
}

/** `name` inside `destination`, or an error for absolute names and `..` escapes. */
function safeTarget(destination: string, name: string): string {
  const relative = normalize(name);
  if (isAbsolute(relative) || relative === '..' || relative.startsWith(`..${sep}`)) {
    throw new Error(`The archive entry "${name}" points outside the extraction directory.`);
  }
  return join(destination, relative);
}

/**
 * Extracts a `.tar.gz` into `destination` (which must exist). Regular files and directories are
 * written; links and devices are skipped (a database snapshot has none). Resolves with the
 * number of files written.
 */
export async function extractTarGz(archive: string, destination: string): Promise<number> {
  let pending: Buffer = Buffer.alloc(0);
  let header: Buffer | undefined;
  let remaining = 0;
  let padding = 0;
  let out: WriteStream | undefined;
  let collect: Buffer[] | undefined;
  let longName: string | undefined;
  let paxName: string | undefined;
  let collecting: 'L' | 'x' | undefined;
  let files = 0;
  let ended = false;

  const finishEntry = async (): Promise<void> => {
    if (out) {
      const stream = out;
      out = undefined;
      await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
    }
    if (collect && collecting) {
      const data = Buffer.concat(collect);
      if (collecting === 'L') longName = readString(data, 0, data.length);
      else paxName = paxPath(data) ?? paxName;
      collect = undefined;
      collecting = undefined;
    }
  };

  const startEntry = (block: Buffer): void => {
    if (!checksumMatches(block)) throw new Error(`${archive} is not a tar.gz archive (bad header checksum).`);
    const type = String.fromCharCode(block[156] as number);
    const size = readNumber(block, 124, 12);
    const prefix = readString(block, 257, 6).startsWith('ustar') ? readString(block, 345, 155) : '';
    const headerName = prefix === '' ? readString(block, 0, 100) : `${prefix}/${readString(block, 0, 100)}`;
    remaining = size;
    padding = (BLOCK - (size % BLOCK)) % BLOCK;
    if (type === 'L' || type === 'x') {
      collecting = type;
      collect = [];
      return;
    }
    const name = paxName ?? longName ?? headerName;
    paxName = undefined;
    longName = undefined;
    if (type === 'g') return;
    if (type === '5') {
      mkdirSync(safeTarget(destination, name), { recursive: true });
      return;
    }
    if (type === '0' || type === '\0' || type === '7') {
      const target = safeTarget(destination, name);
      mkdirSync(dirname(target), { recursive: true });
      out = createWriteStream(target, { mode: readNumber(block, 100, 8) & 0o777 || 0o644 });
      files += 1;
    }
  };

  const gunzip = createReadStream(archive).pipe(createGunzip());
  for await (const chunk of gunzip as AsyncIterable<Buffer>) {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (!ended) {
      if (header === undefined) {
        if (remaining > 0) {
          const take = Math.min(remaining, pending.length);
          if (take === 0) break;
          const data = pending.subarray(0, take);
          if (out) {
            const stream = out;
            if (!stream.write(data)) await new Promise<void>((resolve) => stream.once('drain', () => resolve()));
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
  await finishEntry();
  if (!ended && (remaining > 0 || padding > 0)) throw new Error(`${archive} ends in the middle of an entry.`);
  return files;
}
