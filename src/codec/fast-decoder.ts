/**
 * A straight-line decoder per schema for canonical input, beside the general one (decoder.ts),
 * as fast-encoder.ts is beside encoder.ts.
 *
 * The general decoder keeps its position in a reader object and reads every field through a
 * reader method that can explain any failure (a path with array indices, a byte offset, one of
 * the SDK's quirks). Block and transaction decoding run it millions of times on input that is
 * almost always the canonical encoding of its value, for which none of that is needed. This one
 * keeps the position in a local variable, reads one-byte varints, keys and lengths inline, and
 * gives up (returns undefined) at the first byte that is not exactly what the canonical encoding
 * has there:
 * - a key that is not the expected field's shortest key, a missing field, trailing bytes;
 * - a varint that is not in shortest form or out of range, a boolean byte other than 0 or 1, a
 *   length past the end of the enclosing object;
 * - a string with a byte outside ASCII (UTF-8 and NFC checks are the general decoder's);
 * - the forms only the SDK's quirks accept: a packed array of zero length or whose last element
 *   runs past its length, an empty object element, a repeated element whose key only starts like
 *   the array's key, an array key with another wire type.
 * The caller then runs the general decoder on the same bytes, which returns the value or throws
 * its DecodeError. So the fast decoder only ever returns what the general one would; the property
 * test test/unit/codec/fast-decoder.property.test.ts holds the two to that.
 *
 * The generated source holds only numbers, identifiers chosen here and property names written
 * with JSON.stringify.
 */
import { asciiText, bytesView, copyBytes } from './byte-reader.js';
import type { BytesMode } from './decoder.js';
import type { ArrayFieldLayout, FieldLayout, ObjectLayout } from './layout.js';
import type { DataType } from './types.js';
import { readVarint32, readVarint64, varintCursor } from './varint-read.js';

/** Returns the decoded value, or undefined to hand the input to the general decoder. */
export type FastDecoder = (bytes: Buffer) => Record<string, unknown> | undefined;

const HELPERS = {
  varintCursor,
  readVarint32,
  readVarint64,
  asciiText,
  bytesView,
  copyBytes,
  EMPTY: Buffer.alloc(0),
  EMPTY_BUFFER: new ArrayBuffer(0),
};

/** Generates one function per object of a layout: `oN(p, end)` decodes the object in [p, end). */
class FastDecoderSource {
  readonly functions: string[] = [];
  private temps = 0;

  constructor(private readonly bytesMode: BytesMode) {}

  private temp(): string {
    this.temps += 1;
    return `t${this.temps}`;
  }

  /** Emits the function decoding `layout` and returns its name. */
  object(layout: ObjectLayout): string {
    const index = this.functions.length;
    this.functions.push(''); // reserve the name; nested objects take the next ones
    const body: string[] = ['const b = buf;'];
    const members: string[] = [];
    layout.fields.forEach((field, i) => {
      const value = `v${i}`;
      body.push(`let ${value};`, this.field(field, value));
      members.push(`${JSON.stringify(field.name)}: ${value}`);
    });
    body.push('if (p !== end) return undefined;', `return { ${members.join(', ')} };`);
    this.functions[index] = `function o${index}(p, end) {\n${body.join('\n')}\n}`;
    return `o${index}`;
  }

  /** True when the field's whole key is at `p` (the first `fromByte` bytes are known to match). */
  private keyAt(key: Buffer, fromByte: number): string {
    const bytes = [...key].map((byte, i) => `b[${i === 0 ? 'p' : `p + ${i}`}] === ${byte}`).slice(fromByte);
    return [`p + ${key.length} <= end`, ...bytes].join(' && ');
  }

  /** Statements consuming the expected key, or giving up. */
  private expectKey(key: Buffer): string {
    return `if (!(${this.keyAt(key, 0)})) return undefined;\np += ${key.length};`;
  }

  /** Statements reading a uint32 varint into `target` (declared by the caller), bounded by `bound`. */
  private uint32(target: string, bound: string): string {
    return (
      `${target} = p < ${bound} ? b[p] : 0x80;\n` +
      `if (${target} < 0x80) p += 1;\n` +
      `else { ${target} = readVarint32(b, p, ${bound}); if (${target} < 0) return undefined; p = varintCursor.next; }`
    );
  }

  /** Statements reading a length prefix that fits before `bound` into a new variable `target`. */
  private length(target: string, bound: string): string {
    return `let ${target};\n${this.uint32(target, bound)}\nif (${target} > ${bound} - p) return undefined;`;
  }

  /** Statements reading a scalar of `dataType` into `target` (declared by the caller). */
  private scalar(dataType: DataType, target: string, bound: string): string {
    switch (dataType) {
      case 'uint32':
        return this.uint32(target, bound);
      case 'sint32': {
        const z = this.temp();
        return `let ${z};\n${this.uint32(z, bound)}\n${target} = ${z} % 2 === 0 ? ${z} / 2 : -(${z} + 1) / 2;`;
      }
      case 'uint64':
      case 'sint64': {
        const z = this.temp();
        const first = this.temp();
        const read =
          `let ${z};\n{ const ${first} = p < ${bound} ? b[p] : 0x80;\n` +
          `if (${first} < 0x80) { ${z} = BigInt(${first}); p += 1; }\n` +
          `else { ${z} = readVarint64(b, p, ${bound}); if (typeof ${z} === 'number') return undefined; p = varintCursor.next; } }`;
        return dataType === 'uint64'
          ? `${read}\n${target} = ${z};`
          : `${read}\n${target} = (${z} & 1n) === 0n ? ${z} >> 1n : -((${z} + 1n) >> 1n);`;
      }
      case 'boolean': {
        const byte = this.temp();
        return `if (p >= ${bound}) return undefined;\n{ const ${byte} = b[p]; if (${byte} > 1) return undefined; ${target} = ${byte} === 1; p += 1; }`;
      }
      case 'bytes': {
        const n = this.temp();
        const read = this.bytesMode === 'view' ? `bytesView(ab, off + p, ${n})` : `copyBytes(b, p, ${n})`;
        return `{ ${this.length(n, bound)}\n${target} = ${read}; p += ${n}; }`;
      }
      case 'string': {
        const n = this.temp();
        return `{ ${this.length(n, bound)}\n${target} = ${n} === 0 ? '' : asciiText(b, p, ${n}); if (${target} === undefined) return undefined; p += ${n}; }`;
      }
    }
  }

  private field(field: FieldLayout, value: string): string {
    if (field.kind === 'scalar') return `${this.expectKey(field.key)}\n${this.scalar(field.dataType, value, 'end')}`;
    if (field.kind === 'object') {
      const decodeNested = this.object(field.object);
      const n = this.temp();
      return (
        `${this.expectKey(field.key)}\n` +
        `{ ${this.length(n, 'end')}\n${value} = ${decodeNested}(p, p + ${n}); if (${value} === undefined) return undefined; p += ${n}; }`
      );
    }
    return this.array(field, value);
  }

  /**
   * The array is there when its whole key is (as in the general decoder, which reads the whole
   * first key); otherwise it is empty, as canonical encodings omit empty arrays. Later elements
   * follow while the next byte is the key's first byte, as in the general decoder; a key that
   * only starts like this one is one of its quirks, left to it.
   */
  private array(field: ArrayFieldLayout, value: string): string {
    const { key, items } = field;
    const lines = [`${value} = [];`, `if (${this.keyAt(key, 0)}) {`];
    const item = this.temp();
    if (field.packed && items.kind === 'scalar') {
      const n = this.temp();
      const stop = this.temp();
      lines.push(
        `p += ${key.length};`,
        this.length(n, 'end'),
        `if (${n} === 0) return undefined;`,
        `const ${stop} = p + ${n};`,
        `while (p < ${stop}) { let ${item};\n${this.scalar(items.dataType, item, stop)}\n${value}.push(${item}); }`,
        '}',
      );
      return lines.join('\n');
    }
    lines.push('for (;;) {', `p += ${key.length};`, `let ${item};`);
    if (items.kind === 'object') {
      const decodeItem = this.object(items.object);
      const n = this.temp();
      lines.push(
        this.length(n, 'end'),
        `if (${n} === 0) return undefined;`,
        `${item} = ${decodeItem}(p, p + ${n}); if (${item} === undefined) return undefined; p += ${n};`,
      );
    } else {
      lines.push(this.scalar(items.dataType, item, 'end'));
    }
    lines.push(`${value}.push(${item});`, `if (p >= end || b[p] !== ${key[0]}) break;`);
    if (key.length > 1) lines.push(`if (!(${this.keyAt(key, 1)})) return undefined;`);
    lines.push('}', '}');
    return lines.join('\n');
  }
}

/**
 * Compiles the fast decoder of a schema layout (see the file comment for what it takes). With
 * `bytesMode` 'view', bytes fields are views into the input instead of copies. The input must
 * be a Buffer (see bufferView).
 */
export function compileFastDecoder(layout: ObjectLayout, bytesMode: BytesMode = 'copy'): FastDecoder {
  const source = new FastDecoderSource(bytesMode);
  const root = source.object(layout);
  const views = bytesMode === 'view';
  const body = [
    "'use strict';",
    `const { ${Object.keys(HELPERS).join(', ')} } = H;`,
    // The input of the call under way; reset afterwards so that it is not kept alive.
    'let buf = EMPTY;',
    ...(views ? ['let ab = EMPTY_BUFFER, off = 0;'] : []),
    ...source.functions,
    'return function decode(input) {',
    'buf = input;',
    ...(views ? ['ab = input.buffer; off = input.byteOffset;'] : []),
    `const value = ${root}(0, input.length);`,
    'buf = EMPTY;',
    ...(views ? ['ab = EMPTY_BUFFER;'] : []),
    'return value;',
    '};',
  ].join('\n');
  return new Function('H', body)(HELPERS) as FastDecoder;
}
