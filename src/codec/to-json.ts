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
import type { ObjectLayout } from './layout.js';
import { compileJsonWalker, type JsonConverter } from './json-walker.js';
import { encodeLisk32Address } from './lisk32.js';
import { resolvePath } from './path-template.js';

function fail(template: string, indices: number[], reason: string): never {
  const path = resolvePath(template, indices);
  throw new EncodeError(`Cannot convert ${path === '' ? 'the root object' : path} to JSON: ${reason}`);
}

function scalarConverter(dataType: DataType, format: string | undefined, path: string): JsonConverter {
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

/** Returns `toJSON(value)` for a schema layout. */
export function compileToJson(layout: ObjectLayout): (value: object) => Record<string, unknown> {
  return compileJsonWalker(layout, scalarConverter, fail);
}
