/** Encoder behaviour: canonical output, range and type checks with property paths (LIP 0027). */
import { describe, expect, it } from 'vitest';
import { codec } from '../../../src/codec/index.js';
import type { Schema } from '../../../src/codec/index.js';
import { EncodeError, ValidationError } from '../../../src/errors.js';

const header: Schema = {
  $id: '/test/header',
  type: 'object',
  required: ['height', 'fee', 'delta', 'balance', 'items'],
  properties: {
    height: { dataType: 'uint32', fieldNumber: 1 },
    fee: { dataType: 'uint64', fieldNumber: 2 },
    delta: { dataType: 'sint32', fieldNumber: 3 },
    balance: { dataType: 'sint64', fieldNumber: 4 },
    items: {
      type: 'array',
      fieldNumber: 5,
      items: { type: 'object', required: ['amount'], properties: { amount: { dataType: 'uint64', fieldNumber: 1 } } },
    },
  },
};
const valid = { height: 1, fee: 2n, delta: -3, balance: -4n, items: [{ amount: 1n }] };

describe('range checks raise EncodeError naming the property', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['uint32 above 2^32 - 1', { height: 2 ** 32 }, 'Cannot encode .height: value 4294967296 is out of range of uint32'],
    ['negative uint32', { height: -1 }, 'Cannot encode .height: value -1 is out of range of uint32'],
    ['non-integer uint32', { height: 1.5 }, 'Cannot encode .height: must be an integer (uint32), got 1.5'],
    ['NaN uint32', { height: Number.NaN }, 'Cannot encode .height: must be an integer (uint32), got NaN'],
    ['bigint for uint32', { height: 1n }, 'Cannot encode .height: must be a number (uint32), got bigint 1'],
    ['uint64 above 2^64 - 1', { fee: 2n ** 64n }, 'Cannot encode .fee: value 18446744073709551616 is out of range of uint64'],
    ['negative uint64', { fee: -1n }, 'Cannot encode .fee: value -1 is out of range of uint64'],
    ['number for uint64', { fee: 5 }, 'Cannot encode .fee: must be a bigint (uint64), got number 5'],
    ['sint32 above 2^31 - 1', { delta: 2 ** 31 }, 'Cannot encode .delta: value 2147483648 is out of range of sint32'],
    ['sint32 below -2^31', { delta: -(2 ** 31) - 1 }, 'Cannot encode .delta: value -2147483649 is out of range of sint32'],
    ['sint64 above 2^63 - 1', { balance: 2n ** 63n }, 'Cannot encode .balance: value 9223372036854775808 is out of range of sint64'],
    ['sint64 below -2^63', { balance: -(2n ** 63n) - 1n }, 'Cannot encode .balance: value -9223372036854775809 is out of range of sint64'],
    [
      'nested in an array element',
      { items: [{ amount: 1n }, { amount: 1n }, { amount: -5n }] },
      'Cannot encode .items[2].amount: value -5 is out of range of uint64',
    ],
    ['a missing required property', { items: [{}] }, 'Cannot encode .items[0].amount: property is missing'],
    ['an array that is not an array', { items: 'x' }, 'Cannot encode .items: must be an array, got string'],
    ['an element that is not an object', { items: [null] }, 'Cannot encode .items[0]: must be an object'],
  ];
  for (const [name, change, message] of cases) {
    it(name, () => {
      let thrown: unknown;
      try {
        codec.encode(header, { ...valid, ...change });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(EncodeError);
      expect((thrown as Error).message).toBe(message);
    });
  }

  it('accepts the limits themselves', () => {
    const bytes = codec.encode(header, { height: 2 ** 32 - 1, fee: 2n ** 64n - 1n, delta: -(2 ** 31), balance: 2n ** 63n - 1n, items: [] });
    expect(bytes.toString('hex')).toBe('08ffffffff0f10ffffffffffffffffff0118ffffffff0f20feffffffffffffffff01');
  });
});

describe('encoding rules', () => {
  it('writes fields in fieldNumber order whatever the declaration and value key order', () => {
    const schema: Schema = {
      type: 'object',
      properties: {
        c: { dataType: 'uint32', fieldNumber: 300 },
        a: { dataType: 'uint32', fieldNumber: 1 },
        b: { dataType: 'uint32', fieldNumber: 20 },
      },
    };
    expect(codec.encode(schema, { b: 2, c: 3, a: 1 }).toString('hex')).toBe('0801a00102e01203');
  });

  it('skips an absent property the schema does not require (as the SDK does), but not an absent object', () => {
    const schema: Schema = {
      type: 'object',
      properties: { a: { dataType: 'uint32', fieldNumber: 1 }, n: { type: 'object', fieldNumber: 2, properties: {} } },
    };
    expect(codec.encode(schema, { n: {} }).toString('hex')).toBe('1200');
    expect(() => codec.encode(schema, { a: 1 })).toThrow('Cannot encode .n: property is missing');
  });

  it('ignores properties that are not in the schema', () => {
    const schema: Schema = { type: 'object', properties: { a: { dataType: 'uint32', fieldNumber: 1 } } };
    expect(codec.encode(schema, { a: 1, extra: 'x' }).toString('hex')).toBe('0801');
  });

  it('encodes strings in NFC, including non-ASCII ones', () => {
    const schema: Schema = { type: 'object', properties: { s: { dataType: 'string', fieldNumber: 1 } } };
    expect(codec.encode(schema, { s: 'Cafe\u0301 漢' }).toString('hex')).toBe('0a09436166c3a920e6bca2');
    // A lone surrogate becomes U+FFFD, as with the SDK's Buffer.from(string).
    expect(codec.encode(schema, { s: '\ud800' }).toString('hex')).toBe('0a03efbfbd');
  });

  it('encodes a uint8array that is not a Buffer, and values above 2^53', () => {
    const schema: Schema = {
      type: 'object',
      properties: { b: { dataType: 'bytes', fieldNumber: 1 }, n: { dataType: 'uint64', fieldNumber: 2 } },
    };
    const bytes = codec.encode(schema, { b: new Uint8Array([1, 2]), n: 2n ** 53n + 1n });
    expect(bytes.toString('hex')).toBe('0a020102108180808080808010');
  });

  it('rejects a root value that is not an object', () => {
    const schema: Schema = { type: 'object', properties: {} };
    expect(() => codec.encode(schema, [] as unknown as object)).toThrow('Cannot encode the root object: must be an object');
    expect(codec.encode(schema, {})).toHaveLength(0);
  });

  it('throws ValidationError for a malformed schema', () => {
    const bad = { type: 'object', properties: { a: { dataType: 'uint32' } } } as unknown as Schema;
    expect(() => codec.encode(bad, { a: 1 })).toThrow(ValidationError);
  });

  it('compiles per schema object, so equal $ids with different content do not collide', () => {
    const first: Schema = { $id: '/same', type: 'object', properties: { a: { dataType: 'uint32', fieldNumber: 1 } } };
    const second: Schema = { $id: '/same', type: 'object', properties: { a: { dataType: 'uint32', fieldNumber: 2 } } };
    expect(codec.encode(first, { a: 1 }).toString('hex')).toBe('0801');
    expect(codec.encode(second, { a: 1 }).toString('hex')).toBe('1001');
  });
});
