/** validateSchema: lisk-codec schema well-formedness (LIP 0027 Appendix A). */
import { describe, expect, it } from 'vitest';
import { validateSchema } from '../../../src/codec/index.js';
import { ValidationError } from '../../../src/errors.js';

function problems(schema: unknown): readonly string[] {
  try {
    validateSchema(schema as object);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).errors;
  }
  return [];
}

describe('validateSchema', () => {
  it('accepts nested objects and arrays that reuse field numbers at other levels', () => {
    const schema = {
      $id: '/ok',
      type: 'object',
      required: ['a', 'b', 'c'],
      properties: {
        a: { dataType: 'bytes', fieldNumber: 1, format: 'lisk32', minLength: 20, maxLength: 20 },
        b: { type: 'object', fieldNumber: 2, required: ['a'], properties: { a: { dataType: 'uint32', fieldNumber: 1 } } },
        c: {
          type: 'array',
          fieldNumber: 18999,
          items: { type: 'object', properties: { a: { type: 'array', fieldNumber: 1, items: { dataType: 'string' } } } },
        },
      },
    };
    expect(problems(schema)).toEqual([]);
  });

  it('rejects the invalid schemas of LIP 0027 Appendix A', () => {
    expect(problems({ dataType: 'string' })).toEqual([
      '.type: root schema must have type "object"',
      ': root schema must not have "dataType"',
      '.properties: must be an object',
    ]);
    expect(problems({ type: 'object' })).toEqual(['.properties: must be an object']);
    expect(problems({ type: 'object', properties: { a: { maxLength: 5, fieldNumber: 1 } } })).toEqual([
      '.properties.a: must have exactly one of "dataType" or "type"',
    ]);
    expect(problems({ type: 'object', properties: { a: { dataType: 'uint32', type: 'object', fieldNumber: 1 } } })).toEqual([
      '.properties.a: must have exactly one of "dataType" or "type"',
    ]);
    expect(problems({ type: 'object', properties: { a: { dataType: 'uint32' } } })).toEqual([
      '.properties.a.fieldNumber: must be an integer from 1 to 18999',
    ]);
    expect(problems({ type: 'object', properties: { a: { type: 'object', fieldNumber: 1 } } })).toEqual([
      '.properties.a.properties: must be an object',
    ]);
    expect(problems({ type: 'object', properties: { a: { type: 'array', fieldNumber: 1 } } })).toEqual([
      '.properties.a.items: must be an object',
    ]);
    expect(problems({ type: 'object', properties: { a: { type: 'array', fieldNumber: 1, items: ['string', 'integer'] } } })).toEqual([
      '.properties.a.items: must be an object',
    ]);
  });

  it('rejects duplicate and out-of-range field numbers', () => {
    expect(
      problems({
        type: 'object',
        properties: {
          a: { dataType: 'uint32', fieldNumber: 3 },
          b: { dataType: 'uint32', fieldNumber: 3 },
          c: { dataType: 'uint32', fieldNumber: 0 },
          d: { dataType: 'uint32', fieldNumber: 19000 },
          e: { dataType: 'uint32', fieldNumber: 1.5 },
        },
      }),
    ).toEqual([
      ".properties.b.fieldNumber: 3 is already used by 'a'",
      '.properties.c.fieldNumber: must be an integer from 1 to 18999',
      '.properties.d.fieldNumber: must be an integer from 1 to 18999',
      '.properties.e.fieldNumber: must be an integer from 1 to 18999',
    ]);
  });

  it('rejects arrays of arrays, unknown data types and types, bad bytes formats and bad required lists', () => {
    expect(
      problems({
        type: 'object',
        required: ['a', 'a'],
        properties: {
          a: { type: 'array', fieldNumber: 1, items: { type: 'array', items: { dataType: 'uint32' } } },
          b: { dataType: 'int32', fieldNumber: 2 },
          c: { type: 'string', fieldNumber: 3 },
          d: { dataType: 'bytes', fieldNumber: 4, format: 'hex32' },
          e: { type: 'object', fieldNumber: 5, required: 'x', properties: {} },
          f: { dataType: 'bytes', fieldNumber: 6, maxLength: -1 },
        },
      }),
    ).toEqual([
      '.required: must not list a property twice',
      '.properties.a.items: arrays of arrays are not allowed',
      '.properties.b.dataType: must be one of uint32, sint32, uint64, sint64, bytes, string, boolean',
      '.properties.c.type: must be "object" or "array" (scalars use "dataType")',
      '.properties.d.format: bytes format must be one of hex, base64, lisk32',
      '.properties.e.required: must be an array of strings',
      '.properties.f.maxLength: must be a non-negative integer',
    ]);
  });

  it('requires camelCase property names at the root, as the SDK meta-schema does', () => {
    expect(problems({ type: 'object', properties: { Bad_name: { dataType: 'uint32', fieldNumber: 1 } } })).toEqual([
      '.properties.Bad_name: property name must be camelCase',
    ]);
  });

  it('does not require every property to be listed in required (the SDK transaction schema omits signatures)', () => {
    expect(
      problems({
        type: 'object',
        required: ['a'],
        properties: { a: { dataType: 'uint32', fieldNumber: 1 }, b: { dataType: 'uint32', fieldNumber: 2 } },
      }),
    ).toEqual([]);
  });
});
