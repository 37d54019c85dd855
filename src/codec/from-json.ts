/**
 * Compiles `fromJSON` for a schema layout, the inverse of toJSON. Unlike the
 * SDK (which trusts `Buffer.from(hex)` and `BigInt()`), it is strict: malformed hex, base64 or
 * lisk32, non-decimal integer strings, non-integer or out-of-range numbers and values of the
 * wrong JSON type all throw a FormatError naming the property path. Properties unknown to the
 * schema are dropped; absent properties stay absent.
 */
import type { DataType } from './types.js';
import { FormatError } from '../errors.js';
import { base64ToBytesOrUndefined } from './base64.js';
import { describeInvalidHex } from './hex.js';
import { parseIntegerString } from './integer-string.js';
import type { ObjectLayout } from './layout.js';
import { compileJsonWalker, type JsonConverter } from './json-walker.js';
import { MAX_SINT32, MAX_SINT64, MAX_UINT32, MAX_UINT64, MIN_SINT32, MIN_SINT64 } from './limits.js';
import { decodeLisk32Address, describeInvalidLisk32 } from './lisk32.js';
import { resolvePath } from './path-template.js';

function fail(template: string, indices: number[], reason: string): never {
  const path = resolvePath(template, indices);
  throw new FormatError(`Invalid JSON value at ${path === '' ? 'the root object' : path}: ${reason}`);
}

function numberConverter(dataType: string, min: number, max: number, path: string): JsonConverter {
  return (value, indices) => {
    if (typeof value !== 'number') return fail(path, indices, `must be a JSON number (${dataType})`);
    if (!Number.isInteger(value)) return fail(path, indices, `must be an integer (${dataType}), got ${value}`);
    if (value < min || value > max) return fail(path, indices, `value ${value} is out of range of ${dataType}`);
    return value;
  };
}

function bigintConverter(dataType: string, min: bigint, max: bigint, path: string): JsonConverter {
  return (value, indices) => {
    const parsed = parseIntegerString(value);
    if (parsed === undefined) return fail(path, indices, `must be a decimal integer string (${dataType})`);
    if (parsed < min || parsed > max) return fail(path, indices, `value ${String(value)} is out of range of ${dataType}`);
    return parsed;
  };
}

function bytesConverter(format: string | undefined, path: string): JsonConverter {
  if (format === 'lisk32') {
    return (value, indices) => {
      const problem = describeInvalidLisk32(value);
      return problem === undefined ? decodeLisk32Address(value as string) : fail(path, indices, problem);
    };
  }
  if (format === 'base64') {
    return (value, indices) => base64ToBytesOrUndefined(value) ?? fail(path, indices, 'must be a canonical base64 string');
  }
  return (value, indices) => {
    const problem = describeInvalidHex(value);
    return problem === undefined ? Buffer.from(value as string, 'hex') : fail(path, indices, problem);
  };
}

function scalarConverter(dataType: DataType, format: string | undefined, path: string): JsonConverter {
  switch (dataType) {
    case 'uint32':
      return numberConverter('uint32', 0, MAX_UINT32, path);
    case 'sint32':
      return numberConverter('sint32', MIN_SINT32, MAX_SINT32, path);
    case 'uint64':
      return bigintConverter('uint64', 0n, MAX_UINT64, path);
    case 'sint64':
      return bigintConverter('sint64', MIN_SINT64, MAX_SINT64, path);
    case 'bytes':
      return bytesConverter(format, path);
    case 'string':
      return (value, indices) => (typeof value === 'string' ? value : fail(path, indices, 'must be a string'));
    case 'boolean':
      return (value, indices) => (typeof value === 'boolean' ? value : fail(path, indices, 'must be a boolean'));
  }
}

/** Returns `fromJSON(json)` for a schema layout. */
export function compileFromJson(layout: ObjectLayout): (json: object) => Record<string, unknown> {
  return compileJsonWalker(layout, scalarConverter, fail);
}
