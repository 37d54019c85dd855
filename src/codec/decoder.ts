/**
 * Compiles a schema layout into a decoder that accepts exactly what lisk-codec (SDK v6) accepts
 * (docs/protocol/codec.md), quirks included:
 * - fields are read strictly in fieldNumber order: missing, out-of-order, duplicate and unknown
 *   fields, trailing bytes and wrong wire types of scalar/object keys are rejected;
 * - an array whose key is not next decodes to `[]`; for the key that is there, only the field
 *   number is checked, not the wire type;
 * - a packed array with an explicit zero length (`0a 00`) decodes to `[]`; the last element of
 *   a packed run may extend past the declared run length as long as it stays inside the object
 *   (the SDK only stops reading elements once the run length is reached);
 * - repeated (bytes/string/object) elements are read while the next byte equals the first byte
 *   of the first element's key, so for fieldNumber >= 16 a following field whose key starts
 *   with the same byte is swallowed as more elements;
 * - zero-length elements of an object array are dropped.
 * The SDK's behaviour on these points was read from elements/lisk-codec/src/collection.ts.
 *
 * Each object of the layout becomes one straight-line JavaScript function (built once per
 * schema with `new Function`, as protobufjs does): every field's key check and read is its own
 * call site, which V8 can inline, where a loop over per-field closures funnels all fields
 * through one megamorphic call. The generated source holds only numbers, identifiers chosen
 * here and property names written with JSON.stringify; error paths live in a constants array.
 */
import type { DataType } from './types.js';
import { DecodeError } from '../errors.js';
import { bufferView } from './buffer-view.js';
import { ByteReader } from './byte-reader.js';
import type { ArrayFieldLayout, FieldLayout, ObjectLayout } from './layout.js';
import { WIRE_LENGTH_DELIMITED, WIRE_VARINT, isVarintType } from './layout.js';

type Out = Record<string, unknown>;
type ObjectDecoder = (reader: ByteReader, end: number) => Out;

/** How bytes fields are returned: copies (the default) or views into the input. */
export type BytesMode = 'copy' | 'view';

/** The ByteReader method that reads each data type (identifiers of this module, not schema text). */
function readMethod(dataType: DataType, bytesMode: BytesMode): string {
  switch (dataType) {
    case 'uint32':
      return 'readUint32';
    case 'sint32':
      return 'readSint32';
    case 'uint64':
      return 'readUint64';
    case 'sint64':
      return 'readSint64';
    case 'bytes':
      return bytesMode === 'copy' ? 'readBytes' : 'readBytesView';
    case 'string':
      return 'readString';
    case 'boolean':
      return 'readBoolean';
  }
}

/** Explains why the bytes at `reader.pos` are not the expected key (always throws). */
function rejectKey(reader: ByteReader, end: number, path: string, fieldNumber: number, wireType: number): never {
  const at = reader.pos;
  if (at >= end) {
    return reader.fail(path, `field ${fieldNumber} is missing (${end === reader.buf.length ? 'input' : 'object'} ends)`, at);
  }
  const [found, foundWireType] = reader.readKey(end, path);
  if (found !== fieldNumber) {
    return reader.fail(path, `expected field ${fieldNumber} but found field ${found} (missing, out-of-order or unknown field)`, at);
  }
  if (foundWireType !== wireType) {
    return reader.fail(path, `field ${fieldNumber} has wire type ${foundWireType}, expected ${wireType}`, at);
  }
  return reader.fail(path, `malformed key for field ${fieldNumber}`, at);
}

function rejectTrailing(reader: ByteReader, end: number, path: string): never {
  const at = reader.pos;
  if (at > end) return reader.fail(path, `read past the end of the object at byte ${end}`, at);
  let detail = '';
  try {
    const [fieldNumber] = reader.readKey(end, path);
    detail = ` (field ${fieldNumber}: unknown, duplicate or out of order)`;
  } catch {
    // Not even a key: report the bytes as trailing data.
  }
  return reader.fail(path, `unexpected data before the end of the ${path === '' ? 'input' : 'object'}${detail}`, at);
}

/** Generates the source of one function per object of a layout. */
class DecoderSource {
  /** Error paths, referenced from the source as `C[i]`. */
  readonly constants: string[] = [];
  readonly functions: string[] = [];

  constructor(private readonly bytesMode: BytesMode) {}

  private constant(value: string): string {
    let index = this.constants.indexOf(value);
    if (index === -1) index = this.constants.push(value) - 1;
    return `C[${index}]`;
  }

  /** Emits the function decoding `layout` and returns its name. */
  object(layout: ObjectLayout): string {
    const name = `o${this.functions.length}`;
    this.functions.push(''); // reserve the name; nested objects take the next ones
    const body: string[] = ['const buf = r.buf;'];
    const members: string[] = [];
    layout.fields.forEach((field, i) => {
      const value = `v${i}`;
      body.push(this.field(field, value));
      members.push(`${JSON.stringify(field.name)}: ${value}`);
    });
    body.push(`if (r.pos !== end) rejectTrailing(r, end, ${this.constant(layout.path)});`);
    body.push(`return { ${members.join(', ')} };`);
    this.functions[Number(name.slice(1))] = `function ${name}(r, end) {\n${body.join('\n')}\n}`;
    return name;
  }

  /** Consumes the expected key (its shortest varint, the only accepted form) or throws. */
  private expectKey(field: FieldLayout, wireType: number): string {
    const { key } = field;
    const same = [...key].map((byte, i) => `buf[p + ${i}] === ${byte}`).join(' && ');
    return (
      `{ const p = r.pos; if (p + ${key.length} <= end && ${same}) r.pos = p + ${key.length}; ` +
      `else rejectKey(r, end, ${this.constant(field.path)}, ${field.fieldNumber}, ${wireType}); }`
    );
  }

  private field(field: FieldLayout, value: string): string {
    const path = this.constant(field.path);
    if (field.kind === 'scalar') {
      const wireType = isVarintType(field.dataType) ? WIRE_VARINT : WIRE_LENGTH_DELIMITED;
      return `${this.expectKey(field, wireType)}\nconst ${value} = r.${readMethod(field.dataType, this.bytesMode)}(end, ${path});`;
    }
    if (field.kind === 'object') {
      const decodeNested = this.object(field.object);
      return (
        `${this.expectKey(field, WIRE_LENGTH_DELIMITED)}\n` +
        `const ${value}Length = r.readLength(end, ${path});\n` +
        `const ${value} = ${decodeNested}(r, r.pos + ${value}Length);`
      );
    }
    return this.array(field, value);
  }

  /**
   * `startByte` is the first byte of the array's key as found in the input, or -1 when the next
   * field is another one (then the array is empty). A one-byte canonical key is recognised
   * without parsing; any other first byte goes through `readKey`, which rejects malformed keys.
   */
  private array(field: ArrayFieldLayout, value: string): string {
    const { key, fieldNumber, depth } = field;
    const path = this.constant(field.path);
    const itemPath = this.constant(`${field.path}[]`);
    const items = field.items;
    const fastKey = key.length === 1 ? `buf[s] === ${key[0]} ? ${key[0]} : ` : '';
    const lines = [
      `let ${value} = [];`,
      '{',
      'const s = r.pos;',
      `const startByte = s >= end ? -1 : ${fastKey}r.readKey(end, ${path})[0] === ${fieldNumber} ? buf[s] : -1;`,
      'r.pos = s;',
      'if (startByte !== -1) {',
      `const out = ${value}, ix = r.indices;`,
    ];
    if (items.kind === 'object') {
      const decodeItem = this.object(items.object);
      lines.push(
        'while (r.pos < end && buf[r.pos] === startByte) {',
        `ix[${depth}] = out.length;`,
        `r.readUint32(end, ${itemPath});`, // element key: only its first byte was compared (SDK)
        `const length = r.readLength(end, ${itemPath});`,
        'if (length === 0) continue;', // SDK quirk: empty elements are dropped
        `out.push(${decodeItem}(r, r.pos + length));`,
        '}',
      );
    } else if (field.packed) {
      lines.push(
        `r.readUint32(end, ${path});`, // the key, already checked
        `const length = r.readLength(end, ${path});`,
        'const stop = r.pos + length;',
        'while (r.pos < stop) {',
        `ix[${depth}] = out.length;`,
        `out.push(r.${readMethod(items.dataType, this.bytesMode)}(end, ${itemPath}));`,
        '}',
      );
    } else {
      lines.push(
        'while (r.pos < end && buf[r.pos] === startByte) {',
        `ix[${depth}] = out.length;`,
        `r.readUint32(end, ${itemPath});`,
        `out.push(r.${readMethod(items.dataType, this.bytesMode)}(end, ${itemPath}));`,
        '}',
      );
    }
    lines.push('}', '}');
    return lines.join('\n');
  }
}

/** Compiles the object functions of a layout; returns the root object's decoder. */
function compileObjects(layout: ObjectLayout, bytesMode: BytesMode): ObjectDecoder {
  const source = new DecoderSource(bytesMode);
  const root = source.object(layout);
  const factory = new Function('C', 'rejectKey', 'rejectTrailing', `'use strict';\n${source.functions.join('\n')}\nreturn ${root};`);
  return factory(source.constants, rejectKey, rejectTrailing) as ObjectDecoder;
}

/**
 * Returns `decode(bytes) -> value` for a schema layout. With `bytesMode` 'view', bytes fields
 * are views into the input instead of copies.
 */
export function compileDecoder(layout: ObjectLayout, bytesMode: BytesMode = 'copy'): (bytes: Uint8Array) => Out {
  const root = compileObjects(layout, bytesMode);
  return (bytes) => {
    if (!(bytes instanceof Uint8Array)) throw new DecodeError('Cannot decode: input must be a Uint8Array');
    const reader = new ByteReader(bufferView(bytes));
    return root(reader, reader.buf.length);
  };
}
