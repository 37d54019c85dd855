/**
 * A straight-line encoder per schema for the common case, beside the general one (encoder.ts).
 *
 * The general encoder walks per-field closures and records nested lengths in a scratch list; for
 * the small values block execution encodes thousands of times per block (store values, event
 * data, command results), that bookkeeping costs more than the bytes. This one is generated once
 * per schema with `new Function`, as the decoder is: one size function and one write function
 * per object, each field its own inline type check and write.
 *
 * It only takes values it can encode without any question: every field of the expected type and
 * in range, strings in ASCII (their own NFC form and UTF-8), required members present. For
 * anything else it returns undefined and the caller uses the general encoder, which then gives
 * the same bytes or throws its usual EncodeError. So the two always agree; the property test
 * test/unit/codec/fast-encoder.property.test.ts checks that on random schemas and values.
 *
 * Nested lengths are computed again while writing instead of being recorded: the schemas of the
 * protocol are at most a few levels deep. The generated source holds only numbers, identifiers
 * chosen here and property names written with JSON.stringify.
 */
import { MAX_SINT64, MAX_UINT64, MIN_SINT64 } from './limits.js';
import type { ArrayFieldLayout, FieldLayout, ObjectLayout } from './layout.js';
import { isObjectValue } from './object-value.js';
import type { DataType } from './types.js';
import { bigVarintSize, varintSize, writeBigVarint, writeVarint, zigzag32, zigzag64 } from './varint.js';

/** Returns the encoding of `value`, or undefined to hand it to the general encoder. */
export type FastEncoder = (value: object) => Buffer | undefined;

/** True when every UTF-16 unit of `text` is ASCII (then its UTF-8 length is its length). */
function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) >= 0x80) return false;
  return true;
}

const HELPERS = {
  varintSize,
  bigVarintSize,
  writeVarint,
  writeBigVarint,
  zigzag32,
  zigzag64,
  isObjectValue,
  isAscii,
  MAX_SAFE_BIG: BigInt(Number.MAX_SAFE_INTEGER),
  MAX_UINT64,
  MIN_SINT64,
  MAX_SINT64,
};

/** A condition, true when `x` is not a value of `dataType` the fast path takes. */
function rejects(dataType: DataType, x: string): string {
  switch (dataType) {
    case 'uint32':
      return `typeof ${x} !== 'number' || ${x} >>> 0 !== ${x}`;
    case 'sint32':
      return `typeof ${x} !== 'number' || (${x} | 0) !== ${x}`;
    case 'uint64':
      return `typeof ${x} !== 'bigint' || ${x} < 0n || ${x} > MAX_UINT64`;
    case 'sint64':
      return `typeof ${x} !== 'bigint' || ${x} < MIN_SINT64 || ${x} > MAX_SINT64`;
    case 'bytes':
      return `!(${x} instanceof Uint8Array)`;
    case 'string':
      return `typeof ${x} !== 'string' || !isAscii(${x})`;
    case 'boolean':
      return `typeof ${x} !== 'boolean'`;
  }
}

/** The size of an accepted value without its key. */
function valueSize(dataType: DataType, x: string): string {
  switch (dataType) {
    case 'uint32':
      return `varintSize(${x})`;
    case 'sint32':
      return `varintSize(zigzag32(${x}))`;
    case 'uint64':
      return `(${x} <= MAX_SAFE_BIG ? varintSize(Number(${x})) : bigVarintSize(${x}))`;
    case 'sint64':
      return `bigVarintSize(zigzag64(${x}))`;
    case 'bytes':
    case 'string':
      return `(varintSize(${x}.length) + ${x}.length)`;
    case 'boolean':
      return '1';
  }
}

/** Statements writing an accepted value (without its key) at `p`. */
function writeValue(dataType: DataType, x: string, unique: string): string {
  switch (dataType) {
    case 'uint32':
      return `p = writeVarint(buf, p, ${x});`;
    case 'sint32':
      return `p = writeVarint(buf, p, zigzag32(${x}));`;
    case 'uint64':
      return `p = ${x} <= MAX_SAFE_BIG ? writeVarint(buf, p, Number(${x})) : writeBigVarint(buf, p, ${x});`;
    case 'sint64':
      return `p = writeBigVarint(buf, p, zigzag64(${x}));`;
    case 'bytes':
      return `p = writeVarint(buf, p, ${x}.length); buf.set(${x}, p); p += ${x}.length;`;
    case 'string':
      return `p = writeVarint(buf, p, ${x}.length); for (let c${unique} = 0; c${unique} < ${x}.length; c${unique} += 1) buf[p++] = ${x}.charCodeAt(c${unique});`;
    case 'boolean':
      return `buf[p++] = ${x} ? 1 : 0;`;
  }
}

function writeKey(key: Buffer): string {
  return [...key].map((byte) => `buf[p++] = ${byte};`).join(' ');
}

class FastEncoderSource {
  readonly functions: string[] = [];
  private names = 0;

  private unique(): string {
    this.names += 1;
    return String(this.names);
  }

  /** Emits `sizeN(v)` (-1: not for the fast path) and `writeN(buf, p, v)`; returns N. */
  object(layout: ObjectLayout): number {
    const index = this.functions.length;
    this.functions.push('');
    const size: string[] = ['let s = 0;'];
    const write: string[] = [];
    layout.fields.forEach((field) => {
      const x = `f${this.unique()}`;
      const read = `const ${x} = v[${JSON.stringify(field.name)}];`;
      const mustBePresent = field.required || field.kind === 'object';
      const [sizeCode, writeCode] = this.field(field, x);
      size.push(read, `if (${x} === undefined) { ${mustBePresent ? 'return -1;' : ''} } else { ${sizeCode} }`);
      write.push(read, `if (${x} !== undefined) { ${writeCode} }`);
    });
    size.push('return s;');
    write.push('return p;');
    this.functions[index] =
      `function size${index}(v) {\n${size.join('\n')}\n}\n` + `function write${index}(buf, p, v) {\n${write.join('\n')}\n}`;
    return index;
  }

  /** [size statements adding to `s` or returning -1, write statements] of one present field. */
  private field(field: FieldLayout, x: string): [string, string] {
    const keyLength = field.key.length;
    const key = writeKey(field.key);
    if (field.kind === 'scalar') {
      const { dataType } = field;
      return [
        `if (${rejects(dataType, x)}) return -1; s += ${keyLength} + ${valueSize(dataType, x)};`,
        `${key} ${writeValue(dataType, x, this.unique())}`,
      ];
    }
    if (field.kind === 'object') {
      const nested = this.object(field.object);
      const n = `n${this.unique()}`;
      return [
        `if (!isObjectValue(${x})) return -1; const ${n} = size${nested}(${x}); if (${n} < 0) return -1; s += ${keyLength} + varintSize(${n}) + ${n};`,
        `const ${n} = size${nested}(${x}); ${key} p = writeVarint(buf, p, ${n}); p = write${nested}(buf, p, ${x});`,
      ];
    }
    return this.array(field, x);
  }

  private array(field: ArrayFieldLayout, x: string): [string, string] {
    const keyLength = field.key.length;
    const key = writeKey(field.key);
    const i = `i${this.unique()}`;
    const e = `e${this.unique()}`;
    const loop = `for (let ${i} = 0; ${i} < ${x}.length; ${i} += 1) { const ${e} = ${x}[${i}];`;
    const { items } = field;
    if (items.kind === 'object') {
      const nested = this.object(items.object);
      const n = `n${this.unique()}`;
      return [
        `if (!Array.isArray(${x})) return -1; ${loop} if (!isObjectValue(${e})) return -1; const ${n} = size${nested}(${e}); if (${n} < 0) return -1; s += ${keyLength} + varintSize(${n}) + ${n}; }`,
        `${loop} const ${n} = size${nested}(${e}); ${key} p = writeVarint(buf, p, ${n}); p = write${nested}(buf, p, ${e}); }`,
      ];
    }
    const { dataType } = items;
    if (field.packed) {
      const c = `c${this.unique()}`;
      const content = `let ${c} = 0; ${loop} ${c} += ${valueSize(dataType, e)}; }`;
      return [
        `if (!Array.isArray(${x})) return -1; if (${x}.length > 0) { let ${c} = 0; ${loop} if (${rejects(dataType, e)}) return -1; ${c} += ${valueSize(dataType, e)}; } s += ${keyLength} + varintSize(${c}) + ${c}; }`,
        `if (${x}.length > 0) { ${content} ${key} p = writeVarint(buf, p, ${c}); ${loop} ${writeValue(dataType, e, this.unique())} } }`,
      ];
    }
    return [
      `if (!Array.isArray(${x})) return -1; ${loop} if (${rejects(dataType, e)}) return -1; s += ${keyLength} + ${valueSize(dataType, e)}; }`,
      `${loop} ${key} ${writeValue(dataType, e, this.unique())} }`,
    ];
  }
}

/** Compiles the fast encoder of a schema layout (see the file comment for what it takes). */
export function compileFastEncoder(layout: ObjectLayout): FastEncoder {
  const source = new FastEncoderSource();
  const root = source.object(layout);
  const body = [
    "'use strict';",
    `const { ${Object.keys(HELPERS).join(', ')} } = H;`,
    ...source.functions,
    'return function encode(v) {',
    'if (!isObjectValue(v)) return undefined;',
    `const size = size${root}(v);`,
    'if (size < 0) return undefined;',
    'const buf = Buffer.allocUnsafe(size);',
    `return write${root}(buf, 0, v) === size ? buf : undefined;`,
    '};',
  ].join('\n');
  return new Function('H', body)(HELPERS) as FastEncoder;
}
