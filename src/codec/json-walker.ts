/**
 * The part of toJSON and fromJSON that does not depend on the direction: walking a schema layout,
 * checking that objects are objects and arrays are arrays, keeping only the properties the schema
 * knows (in the key order of the input) and tracking array indices for error paths. The two
 * directions differ only in how a scalar is converted and which error a failure throws.
 */
import type { DataType } from './types.js';
import type { ArrayItemsLayout, FieldLayout, ObjectLayout } from './layout.js';
import { isObjectValue } from './object-value.js';

/** Converts one value; `indices` holds the element index of every enclosing array (for error paths). */
export type JsonConverter = (value: unknown, indices: number[]) => unknown;

/** Builds the converter of one scalar property at a template path. */
export type ScalarConverterFactory = (dataType: DataType, format: string | undefined, path: string) => JsonConverter;

/** Throws the direction's error for a value at a template path. */
export type JsonFailure = (template: string, indices: number[], reason: string) => never;

/** Returns a converter of whole values for `layout`, using `scalarConverter` for every scalar. */
export function compileJsonWalker(
  layout: ObjectLayout,
  scalarConverter: ScalarConverterFactory,
  fail: JsonFailure,
): (value: object) => Record<string, unknown> {
  function itemsConverter(items: ArrayItemsLayout, itemPath: string): JsonConverter {
    return items.kind === 'object' ? compileObject(items.object) : scalarConverter(items.dataType, items.format, itemPath);
  }

  function fieldConverter(field: FieldLayout): JsonConverter {
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

  function compileObject(objectLayout: ObjectLayout): JsonConverter {
    const converters = new Map<string, JsonConverter>(objectLayout.fields.map((field) => [field.name, fieldConverter(field)]));
    const { path } = objectLayout;
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

  const root = compileObject(layout);
  return (value) => root(value, []) as Record<string, unknown>;
}
