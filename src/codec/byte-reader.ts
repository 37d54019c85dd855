/**
 * A cursor over the input of one `decode` call with the strict primitive readers of lisk-codec
 * (docs/protocol/codec.md). Every read is bounded by `end`, the end of the enclosing object: the
 * SDK rejects any read that crosses an object boundary (its final "terminate index" check), so
 * bounding each read gives the same accept/reject result with a clearer message, and never a
 * RangeError or a wrong value on truncated input.
 */
import { DecodeError } from '../errors.js';
import { resolvePath } from './path-template.js';
import { VARINT_NOT_SHORTEST, VARINT_TRUNCATED, readVarint32, readVarint64, varintCursor } from './varint-read.js';

// The SDK decodes with `new TextDecoder('utf8', { fatal: true })`: invalid UTF-8 is rejected and
// a leading byte-order mark is silently dropped (so such input is accepted but non-canonical).
const utf8 = new TextDecoder('utf-8', { fatal: true });

// Copies of at most 64 bytes (keys, hashes, addresses) are fastest as TypedArray#slice, which
// V8 keeps on its heap; larger ones as a pooled allocUnsafe + copy, because a fresh off-heap
// backing store costs about a microsecond each (measured on the development machine).
const ON_HEAP_LIMIT = 64;
const sliceCopy = Uint8Array.prototype.slice as (this: Buffer, start: number, end: number) => Buffer;

/** A copy of `length` bytes of `buf` from `start` (callers may reuse the input buffer). */
export function copyBytes(buf: Buffer, start: number, length: number): Buffer {
  if (length <= ON_HEAP_LIMIT) return sliceCopy.call(buf, start, start + length);
  const out = Buffer.allocUnsafe(length);
  buf.copy(out, 0, start, start + length);
  return out;
}

type ViewConstructor = new (buffer: ArrayBufferLike, byteOffset: number, length: number) => Buffer;

// Node's Buffer[Symbol.species] is the constructor behind every Buffer: calling it directly
// makes a view in about half the time of Buffer.from(arrayBuffer, offset, length), whose argument
// checks the decoder does not need (offset and length are already bounded by the input). If a
// Node version ever answers something else, Buffer.from is used.
const species = (Buffer as unknown as { [Symbol.species]?: unknown })[Symbol.species];
const probe = typeof species === 'function' ? new (species as ViewConstructor)(new ArrayBuffer(2), 1, 1) : undefined;
const BufferConstructor: ViewConstructor | undefined =
  probe !== undefined && Object.getPrototypeOf(probe) === Buffer.prototype && probe.byteOffset === 1 && probe.length === 1
    ? (species as ViewConstructor)
    : undefined;

/** A Buffer over `length` bytes of `arrayBuffer` from `byteOffset` (no copy, no bounds checks). */
export const bytesView: (arrayBuffer: ArrayBufferLike, byteOffset: number, length: number) => Buffer =
  BufferConstructor === undefined
    ? (arrayBuffer, byteOffset, length) => Buffer.from(arrayBuffer, byteOffset, length)
    : (arrayBuffer, byteOffset, length) => new BufferConstructor(arrayBuffer, byteOffset, length);

// Short ASCII strings (module, command and event names, token symbols) recur in nearly every
// transaction and event: a small table, indexed by the length and the first and last bytes,
// keeps the string decoded last with that index and returns it when the bytes are the same.
// Only ASCII strings are kept, so equal bytes always decode to the kept string.
const SHORT_STRING_LENGTH = 24;
const shortStrings: string[] = new Array<string>(256).fill('');

function shortStringSlot(buf: Buffer, start: number, length: number): number {
  return (length * 61 + (buf[start] as number) * 31 + (buf[start + length - 1] as number)) & 0xff;
}

/** True when `text` is exactly the `length` bytes at `start` read as latin1. */
function sameAscii(text: string, buf: Buffer, start: number, length: number): boolean {
  if (text.length !== length) return false;
  for (let i = 0; i < length; i += 1) {
    if (text.charCodeAt(i) !== buf[start + i]) return false;
  }
  return true;
}

/**
 * The `length` bytes at `start` as a string when they are all ASCII (then UTF-8, latin1 and
 * their NFC form agree), or undefined when one is not.
 */
export function asciiText(buf: Buffer, start: number, length: number): string | undefined {
  const slot = length > 0 && length <= SHORT_STRING_LENGTH ? shortStringSlot(buf, start, length) : -1;
  if (slot !== -1) {
    const kept = shortStrings[slot] as string;
    if (sameAscii(kept, buf, start, length)) return kept;
  }
  const stop = start + length;
  for (let i = start; i < stop; i += 1) {
    if ((buf[i] as number) >= 0x80) return undefined;
  }
  const text = buf.toString('latin1', start, stop);
  if (slot !== -1) shortStrings[slot] = text;
  return text;
}

export class ByteReader {
  pos = 0;
  /** Index of the current element of each enclosing array, for error paths. */
  readonly indices: number[] = [];
  /** The input's ArrayBuffer, once a view into it was made. */
  private arrayBuffer: ArrayBufferLike | undefined = undefined;
  private byteOffset = 0;

  constructor(readonly buf: Buffer) {}

  /** Throws a DecodeError naming the property and the byte offset. */
  fail(template: string, reason: string, at: number = this.pos): never {
    const path = resolvePath(template, this.indices);
    throw new DecodeError(`Cannot decode ${path === '' ? 'the root object' : path} at byte ${at}: ${reason}`);
  }

  truncated(template: string, at: number = this.pos): never {
    return this.fail(template, 'unexpected end of input', at);
  }

  /** Unsigned varint of at most 5 bytes whose value fits in 32 bits, in shortest form. */
  readUint32(end: number, path: string): number {
    const start = this.pos;
    const value = readVarint32(this.buf, start, end);
    if (value < 0) return this.rejectVarint(value, 'uint32', path, start);
    this.pos = varintCursor.next;
    return value;
  }

  /** Unsigned varint of at most 10 bytes whose value fits in 64 bits, in shortest form. */
  readUint64(end: number, path: string): bigint {
    const start = this.pos;
    const value = readVarint64(this.buf, start, end);
    if (typeof value === 'number') return this.rejectVarint(value, 'uint64', path, start);
    this.pos = varintCursor.next;
    return value;
  }

  private rejectVarint(code: number, type: string, path: string, start: number): never {
    if (code === VARINT_TRUNCATED) return this.truncated(path, varintCursor.next);
    if (code === VARINT_NOT_SHORTEST) return this.fail(path, 'varint is not in shortest form', start);
    return this.fail(path, `varint is out of range of ${type}`, start);
  }

  readSint32(end: number, path: string): number {
    const zigzag = this.readUint32(end, path);
    return zigzag % 2 === 0 ? zigzag / 2 : -(zigzag + 1) / 2;
  }

  readSint64(end: number, path: string): bigint {
    const zigzag = this.readUint64(end, path);
    return (zigzag & 1n) === 0n ? zigzag >> 1n : -((zigzag + 1n) >> 1n);
  }

  readBoolean(end: number, path: string): boolean {
    if (this.pos >= end) return this.truncated(path);
    const byte = this.buf[this.pos] as number;
    if (byte > 1) return this.fail(path, `invalid boolean byte 0x${byte.toString(16).padStart(2, '0')}`);
    this.pos += 1;
    return byte === 1;
  }

  /** A uint32 length prefix that must fit in what is left of the enclosing object. */
  readLength(end: number, path: string): number {
    const length = this.readUint32(end, path);
    if (length > end - this.pos) {
      return this.fail(path, `length ${length} exceeds the ${end - this.pos} bytes left`, this.pos);
    }
    return length;
  }

  /** Length-prefixed bytes, returned as a copy (callers may reuse the input buffer). */
  readBytes(end: number, path: string): Buffer {
    const length = this.readLength(end, path);
    const start = this.pos;
    this.pos = start + length;
    return copyBytes(this.buf, start, length);
  }

  /**
   * Length-prefixed bytes as a view into the input (no copy): only for input that nobody changes
   * while the value is in use (see codec.decodeViews).
   */
  readBytesView(end: number, path: string): Buffer {
    const length = this.readLength(end, path);
    const start = this.pos;
    this.pos = start + length;
    // The `buffer` and `byteOffset` getters are slow enough to matter here: read them once.
    if (this.arrayBuffer === undefined) {
      this.arrayBuffer = this.buf.buffer;
      this.byteOffset = this.buf.byteOffset;
    }
    return bytesView(this.arrayBuffer, this.byteOffset + start, length);
  }

  /** Length-prefixed UTF-8 that must be valid and already NFC-normalised. */
  readString(end: number, path: string): string {
    const length = this.readLength(end, path);
    const start = this.pos;
    const stop = start + length;
    let text = asciiText(this.buf, start, length);
    if (text === undefined) {
      try {
        text = utf8.decode(this.buf.subarray(start, stop));
      } catch {
        return this.fail(path, 'string is not valid UTF-8', start);
      }
      if (text.normalize('NFC') !== text) return this.fail(path, 'string is not NFC-normalised', start);
    }
    this.pos = stop;
    return text;
  }

  /** Reads a field key (validated varint) and returns [fieldNumber, wireType]; pos moves past it. */
  readKey(end: number, path: string): [number, number] {
    const at = this.pos;
    const key = this.readUint32(end, path);
    const wireType = key & 7;
    if (wireType !== 0 && wireType !== 2) return this.fail(path, `unsupported wire type ${wireType}`, at);
    return [key >>> 3, wireType];
  }
}
