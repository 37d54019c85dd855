/**
 * Compiles `toJSON` for a schema layout (docs/protocol/codec.md): uint32/sint32 stay numbers,
 * uint64/sint64 become decimal strings, bytes become lowercase hex (or lisk32 / base64 per
 * `format`). Properties unknown to the schema are dropped; the output keeps the key order of
 * the input value, as lisk-codec does (decoded values are in fieldNumber order).
 */
import type { DataType } from './types.js';
import { EncodeError } from '../errors.js';
import { bytesToBase64 } from './base64.js';
import { bytesToHex } from './hex.js';
import type { ArrayItemsLayout, FieldLayout, ObjectLayout } from './layout.js';
import { encodeLisk32Address } from './lisk32.js';
import { isObjectValue } from './object-value.js';
import { resolvePath } from './path-template.js';

type Converter = (value: unknown, indices: number[]) => unknown;

function fail(template: string, indices: number[], reason: string): never {
  const path = resolvePath(template, indices);
  throw new EncodeError(`Cannot convert ${path === '' ? 'the root object' : path} to JSON: ${reason}`);
}

function scalarConverter(dataType: DataType, format: string | undefined, path: string): Converter {
  switch (dataType) {
    case 'uint32':
    case 'sint32':
      return (value, indices) => (typeof value === 'number' ? value : fail(path, indices, `must be a number (${dataType})`));
    case 'uint64':
    case 'sint64':
      return (value, indices) => (typeof value === 'bigint' ? value.toString() : fail(path, indices, `must be a bigint (${dataType})`));
    case 'string':
      return (value, indices) => (typeof value === 'string' ? value : fail(path, indices, 'must be a string'));
    case 'boolean':
      return (value, indices) => (typeof value === 'boolean' ? value : fail(path, indices, 'must be a boolean'));
    case 'bytes': {
      const toText = format === 'lisk32' ? lisk32OrFail(path) : format === 'base64' ? bytesToBase64 : bytesToHex;
      return (value, indices) => (value instanceof Uint8Array ? toText(value, indices) : fail(path, indices, 'must be bytes (Uint8Array)'));
    }
  }
}

function lisk32OrFail(path: string): (value: Uint8Array, indices: number[]) => string {
  return (value, indices) =>
    value.length === 20 ? encodeLisk32Address(value) : fail(path, indices, `lisk32 address must be 20 bytes, got ${value.length}`);
}

function itemsConverter(items: ArrayItemsLayout, itemPath: string): Converter {
  return items.kind === 'object' ? compileObject(items.object) : scalarConverter(items.dataType, items.format, itemPath);
}

function fieldConverter(field: FieldLayout): Converter {
  if (field.kind === 'scalar') return scalarConverter(field.dataType, field.format, field.path);
  if (field.kind === 'object') return compileObject(field.object);
  const { depth, path } = field;
  const convertItem = itemsConverter(field.items, `${path}[]`);
  return (value, indices) => {
    if (!Array.isArray(value)) return fail(path, indices, 'must be an array');
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i += 1) {
      indices[depth] = i;
      out[i] = convertItem(value[i], indices);
    }
    return out;
  };
}

function compileObject(layout: ObjectLayout): Converter {
  const converters = new Map<string, Converter>(layout.fields.map((field) => [field.name, fieldConverter(field)]));
  const { path } = layout;
  return (value, indices) => {
    if (!isObjectValue(value)) return fail(path, indices, 'must be an object');
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const convert = converters.get(key);
      const fieldValue = value[key];
      if (convert !== undefined && fieldValue !== undefined) out[key] = convert(fieldValue, indices);
    }
    return out;
  };
}

/** Returns `toJSON(value)` for a schema layout. */
export function compileToJson(layout: ObjectLayout): (value: object) => Record<string, unknown> {
  const root = compileObject(layout);
  return (value) => root(value, []) as Record<string, unknown>;
}
