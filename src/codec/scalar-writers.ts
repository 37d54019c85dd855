/**
 * Per-dataType value encoders (docs/protocol/codec.md): size of the value bytes (without the key)
 * and the writer. `size` returns -1 for a value of the wrong type or out of range, and `reason`
 * then explains why, so the hot path does one check per value.
 */
import type { DataType } from './types.js';
import type { EncodeContext } from './encode-context.js';
import { MAX_SINT64, MAX_UINT64, MIN_SINT64 } from './limits.js';
import { bigVarintSize, varintSize, writeBigVarint, writeVarint, zigzag32, zigzag64 } from './varint.js';

export interface ScalarWriter {
  size(value: unknown, ctx: EncodeContext): number;
  write(value: unknown, ctx: EncodeContext): void;
  reason(value: unknown): string;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Uint8Array) return 'bytes';
  if (typeof value === 'bigint') return `bigint ${value}`;
  if (typeof value === 'number') return `number ${value}`;
  return typeof value;
}

function rangeReason(typeName: string, expected: 'number' | 'bigint', value: unknown): string {
  if (typeof value !== expected) return `must be a ${expected} (${typeName}), got ${describe(value)}`;
  if (typeof value === 'number' && !Number.isInteger(value)) return `must be an integer (${typeName}), got ${value}`;
  return `value ${String(value)} is out of range of ${typeName}`;
}

const uint32: ScalarWriter = {
  size: (value) => (typeof value === 'number' && value >>> 0 === value ? varintSize(value) : -1),
  write(value, ctx) {
    ctx.pos = writeVarint(ctx.buf, ctx.pos, value as number);
  },
  reason: (value) => rangeReason('uint32', 'number', value),
};

const sint32: ScalarWriter = {
  size: (value) => (typeof value === 'number' && (value | 0) === value ? varintSize(zigzag32(value)) : -1),
  write(value, ctx) {
    ctx.pos = writeVarint(ctx.buf, ctx.pos, zigzag32(value as number));
  },
  reason: (value) => rangeReason('sint32', 'number', value),
};

const uint64: ScalarWriter = {
  size: (value) => (typeof value === 'bigint' && value >= 0n && value <= MAX_UINT64 ? bigVarintSize(value) : -1),
  write(value, ctx) {
    ctx.pos = writeBigVarint(ctx.buf, ctx.pos, value as bigint);
  },
  reason: (value) => rangeReason('uint64', 'bigint', value),
};

const sint64: ScalarWriter = {
  size: (value) => (typeof value === 'bigint' && value >= MIN_SINT64 && value <= MAX_SINT64 ? bigVarintSize(zigzag64(value)) : -1),
  write(value, ctx) {
    ctx.pos = writeBigVarint(ctx.buf, ctx.pos, zigzag64(value as bigint));
  },
  reason: (value) => rangeReason('sint64', 'bigint', value),
};

const bytes: ScalarWriter = {
  size: (value) => (value instanceof Uint8Array ? varintSize(value.length) + value.length : -1),
  write(value, ctx) {
    const data = value as Uint8Array;
    ctx.pos = writeVarint(ctx.buf, ctx.pos, data.length);
    ctx.buf.set(data, ctx.pos);
    ctx.pos += data.length;
  },
  reason: (value) => `must be bytes (Uint8Array), got ${describe(value)}`,
};

/** Length of `text` when it is pure ASCII (then it is its own NFC form and UTF-8), else -1. */
function asciiLength(text: string): number {
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) >= 0x80) return -1;
  return text.length;
}

const string: ScalarWriter = {
  size(value, ctx) {
    if (typeof value !== 'string') return -1;
    // The SDK encodes the NFC form; the decoder rejects anything else. Most
    // protocol strings are short ASCII, which skips ICU normalisation and Buffer.byteLength.
    const ascii = asciiLength(value);
    const normalized = ascii >= 0 ? value : value.normalize('NFC');
    const length = ascii >= 0 ? ascii : Buffer.byteLength(normalized, 'utf8');
    ctx.scratch.push(normalized, length);
    return varintSize(length) + length;
  },
  write(_value, ctx) {
    const normalized = ctx.scratch[ctx.next] as string;
    const length = ctx.scratch[ctx.next + 1] as number;
    ctx.next += 2;
    const { buf } = ctx;
    let pos = writeVarint(buf, ctx.pos, length);
    if (length === normalized.length) {
      // Same number of bytes as UTF-16 units means every character is ASCII.
      for (let i = 0; i < length; i += 1) buf[pos++] = normalized.charCodeAt(i);
    } else {
      pos += buf.write(normalized, pos, length, 'utf8');
    }
    ctx.pos = pos;
  },
  reason: (value) => `must be a string, got ${describe(value)}`,
};

const boolean: ScalarWriter = {
  size: (value) => (typeof value === 'boolean' ? 1 : -1),
  write(value, ctx) {
    ctx.buf[ctx.pos++] = value === true ? 1 : 0;
  },
  reason: (value) => `must be a boolean, got ${describe(value)}`,
};

export const SCALAR_WRITERS: Readonly<Record<DataType, ScalarWriter>> = {
  uint32,
  sint32,
  uint64,
  sint64,
  bytes,
  string,
  boolean,
};
