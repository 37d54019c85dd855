/**
 * Genesis asset files are hand-written JSON, and lisk-commander's `genesis-block:create` accepts
 * small uint64/sint64 values written as JSON numbers (e.g. `"ownChainNonce": 0`), because
 * lisk-codec's fromJSON passes them to BigInt(). Basalt's codec fromJSON is strict, so the
 * builder first rewrites such numbers as decimal strings, guided by the asset's schema.
 */
import type { ObjectItems, Schema, SchemaProperty, ScalarItems } from '../codec/index.js';
import { FormatError } from '../errors.js';

type ObjectSchema = Schema | ObjectItems | Extract<SchemaProperty, { type: 'object' }>;

/**
 * A copy of `json` in which every uint64/sint64 value given as a JSON number is a decimal
 * string. Only safe integers are converted: a larger number has already lost precision in
 * JSON.parse, so it is refused rather than silently changed. Everything else is left for
 * codec.fromJSON to check.
 */
export function uint64NumbersToStrings(schema: Schema, json: unknown, path = ''): unknown {
  return convertObject(schema, json, path);
}

function convertObject(schema: ObjectSchema, value: unknown, path: string): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, fieldValue] of Object.entries(value as Record<string, unknown>)) {
    const property = schema.properties[key];
    out[key] = property === undefined ? fieldValue : convertProperty(property, fieldValue, `${path}.${key}`);
  }
  return out;
}

function convertProperty(property: SchemaProperty | ScalarItems | ObjectItems, value: unknown, path: string): unknown {
  if (property.type === 'object') return convertObject(property, value, path);
  if (property.type === 'array') {
    if (!Array.isArray(value)) return value;
    const items = property.items;
    return value.map((item, index) => convertProperty(items, item, `${path}[${index}]`));
  }
  if ((property.dataType === 'uint64' || property.dataType === 'sint64') && typeof value === 'number') {
    if (!Number.isSafeInteger(value)) {
      throw new FormatError(
        `Invalid JSON value at ${path}: ${value} is not a safe integer; write ${property.dataType} values as decimal strings.`,
      );
    }
    return String(value);
  }
  return value;
}
