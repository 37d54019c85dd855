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
 */
import type { DataType } from '../../../../src/codec/types.js';
import { DecodeError } from '../../../../src/errors.js';
import { bufferView } from '../../../../src/codec/buffer-view.js';
import { ByteReader } from '../../../../src/codec/byte-reader.js';
import type { ArrayFieldLayout, FieldLayout, ObjectLayout } from '../../../../src/codec/layout.js';
import { WIRE_LENGTH_DELIMITED, WIRE_VARINT, isVarintType } from '../../../../src/codec/layout.js';

type Out = Record<string, unknown>;
type FieldDecoder = (reader: ByteReader, end: number, out: Out) => void;
type ObjectDecoder = (reader: ByteReader, end: number) => Out;
type ValueReader = (reader: ByteReader, end: number, path: string) => unknown;

const VALUE_READERS: Readonly<Record<DataType, ValueReader>> = {
  uint32: (r, end, path) => r.readUint32(end, path),
  sint32: (r, end, path) => r.readSint32(end, path),
  uint64: (r, end, path) => r.readUint64(end, path),
  sint64: (r, end, path) => r.readSint64(end, path),
  bytes: (r, end, path) => r.readBytes(end, path),
  string: (r, end, path) => r.readString(end, path),
  boolean: (r, end, path) => r.readBoolean(end, path),
};

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

/** Consumes the expected key bytes (the shortest varint, the only accepted form). */
function expectKey(reader: ByteReader, end: number, key: Buffer, path: string, fieldNumber: number, wireType: number): void {
  const { buf } = reader;
  const pos = reader.pos;
  const length = key.length;
  if (pos + length <= end && buf[pos] === key[0]) {
    let same = true;
    for (let i = 1; i < length; i += 1) {
      if (buf[pos + i] !== key[i]) {
        same = false;
        break;
      }
    }
    if (same) {
      reader.pos = pos + length;
      return;
    }
  }
  rejectKey(reader, end, path, fieldNumber, wireType);
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

function compileArrayField(field: ArrayFieldLayout): FieldDecoder {
  const { name, fieldNumber, depth, path } = field;
  const itemPath = `${path}[]`;
  const items = field.items;

  let readElements: (reader: ByteReader, end: number, startByte: number) => unknown[];
  if (items.kind === 'object') {
    const decodeItem = compileObject(items.object);
    readElements = (reader, end, startByte) => {
      const out: unknown[] = [];
      const { buf, indices } = reader;
      while (reader.pos < end && buf[reader.pos] === startByte) {
        indices[depth] = out.length;
        reader.readUint32(end, itemPath); // element key: only its first byte was compared (SDK)
        const length = reader.readLength(end, itemPath);
        if (length === 0) continue; // SDK quirk: empty elements are dropped
        out.push(decodeItem(reader, reader.pos + length));
      }
      return out;
    };
  } else if (field.packed) {
    const readValue = VALUE_READERS[items.dataType];
    readElements = (reader, end) => {
      const out: unknown[] = [];
      const { indices } = reader;
      reader.readUint32(end, path); // the key, already checked by the caller
      const length = reader.readLength(end, path);
      const stop = reader.pos + length;
      while (reader.pos < stop) {
        indices[depth] = out.length;
        out.push(readValue(reader, end, itemPath));
      }
      return out;
    };
  } else {
    const readValue = VALUE_READERS[items.dataType];
    readElements = (reader, end, startByte) => {
      const out: unknown[] = [];
      const { buf, indices } = reader;
      while (reader.pos < end && buf[reader.pos] === startByte) {
        indices[depth] = out.length;
        reader.readUint32(end, itemPath);
        out.push(readValue(reader, end, itemPath));
      }
      return out;
    };
  }

  return (reader, end, out) => {
    const start = reader.pos;
    if (start >= end) {
      out[name] = [];
      return;
    }
    const [found] = reader.readKey(end, path);
    reader.pos = start;
    out[name] = found === fieldNumber ? readElements(reader, end, reader.buf[start] as number) : [];
  };
}

function compileField(field: FieldLayout): FieldDecoder {
  const { name, key, path, fieldNumber } = field;
  if (field.kind === 'scalar') {
    const readValue = VALUE_READERS[field.dataType];
    const wireType = isVarintType(field.dataType) ? WIRE_VARINT : WIRE_LENGTH_DELIMITED;
    return (reader, end, out) => {
      expectKey(reader, end, key, path, fieldNumber, wireType);
      out[name] = readValue(reader, end, path);
    };
  }
  if (field.kind === 'object') {
    const decodeNested = compileObject(field.object);
    return (reader, end, out) => {
      expectKey(reader, end, key, path, fieldNumber, WIRE_LENGTH_DELIMITED);
      const length = reader.readLength(end, path);
      out[name] = decodeNested(reader, reader.pos + length);
    };
  }
  return compileArrayField(field);
}

function compileObject(layout: ObjectLayout): ObjectDecoder {
  const decoders = layout.fields.map(compileField);
  const count = decoders.length;
  const { path } = layout;
  return (reader, end) => {
    const out: Out = {};
    for (let i = 0; i < count; i += 1) (decoders[i] as FieldDecoder)(reader, end, out);
    if (reader.pos !== end) rejectTrailing(reader, end, path);
    return out;
  };
}

/** Returns `decode(bytes) -> value` for a schema layout. */
export function compileDecoder(layout: ObjectLayout): (bytes: Uint8Array) => Out {
  const root = compileObject(layout);
  return (bytes) => {
    if (!(bytes instanceof Uint8Array)) throw new DecodeError('Cannot decode: input must be a Uint8Array');
    const reader = new ByteReader(bufferView(bytes));
    return root(reader, reader.buf.length);
  };
}
