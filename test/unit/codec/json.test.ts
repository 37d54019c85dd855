/** toJSON / fromJSON (docs/protocol/codec.md); fromJSON is strict, unlike the SDK. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codec, encodeLisk32Address } from '../../../src/codec/index.js';
import type { Schema } from '../../../src/codec/index.js';
import { FormatError } from '../../../src/errors.js';

const schema: Schema = {
  $id: '/test/json',
  type: 'object',
  required: ['count', 'delta', 'amount', 'balance', 'data', 'address', 'blob', 'name', 'flag', 'list'],
  properties: {
    count: { dataType: 'uint32', fieldNumber: 1 },
    delta: { dataType: 'sint32', fieldNumber: 2 },
    amount: { dataType: 'uint64', fieldNumber: 3 },
    balance: { dataType: 'sint64', fieldNumber: 4 },
    data: { dataType: 'bytes', fieldNumber: 5 },
    address: { dataType: 'bytes', fieldNumber: 6, format: 'lisk32' },
    blob: { dataType: 'bytes', fieldNumber: 7, format: 'base64' },
    name: { dataType: 'string', fieldNumber: 8 },
    flag: { dataType: 'boolean', fieldNumber: 9 },
    list: {
      type: 'array',
      fieldNumber: 10,
      items: { type: 'object', required: ['amount'], properties: { amount: { dataType: 'uint64', fieldNumber: 1 } } },
    },
  },
};

const address = Buffer.from('ed629c34f72e276ba38be61b6f289f84627f2b81', 'hex');
const value = {
  count: 7,
  delta: -7,
  amount: 18446744073709551615n,
  balance: -9223372036854775808n,
  data: Buffer.from('00ABff', 'hex'),
  address,
  blob: Buffer.from('hello'),
  name: 'lisk',
  flag: false,
  list: [{ amount: 1n }, { amount: 0n }],
};
const json = {
  count: 7,
  delta: -7,
  amount: '18446744073709551615',
  balance: '-9223372036854775808',
  data: '00abff',
  address: 'lskhqy429nwm2tew3j5j29ef6pguyynf6jxcmgrh2',
  blob: 'aGVsbG8=',
  name: 'lisk',
  flag: false,
  list: [{ amount: '1' }, { amount: '0' }],
};

describe('toJSON', () => {
  it('converts every type and format', () => {
    expect(codec.toJSON(schema, value)).toEqual(json);
  });

  it('drops properties unknown to the schema and keeps the key order of the value', () => {
    const out = codec.toJSON(schema, { name: 'x', extra: 1, count: 1, list: [{ amount: 2n, junk: true }] });
    expect(JSON.stringify(out)).toBe('{"name":"x","count":1,"list":[{"amount":"2"}]}');
  });

  it('rejects values of the wrong type with the path', () => {
    expect(() => codec.toJSON(schema, { list: [{ amount: 1n }, { amount: 5 }] })).toThrow(
      'Cannot convert .list[1].amount to JSON: must be a bigint (uint64)',
    );
    expect(() => codec.toJSON(schema, { address: Buffer.alloc(19) })).toThrow('lisk32 address must be 20 bytes, got 19');
  });
});

describe('fromJSON', () => {
  it('is the inverse of toJSON', () => {
    expect(codec.fromJSON(schema, json)).toEqual(value);
  });

  it('accepts uppercase hex and integer strings with a sign or leading zeros (lisk-validator uint64 grammar)', () => {
    expect(codec.fromJSON(schema, { data: 'ABCD', amount: '+007', balance: '-0' })).toEqual({
      data: Buffer.from('abcd', 'hex'),
      amount: 7n,
      balance: 0n,
    });
  });

  const rejects: [string, Record<string, unknown>, string][] = [
    ['odd-length hex', { data: 'abc' }, '.data: hex string has odd length (3)'],
    ['non-hex characters', { data: 'zz' }, '.data: hex string has a non-hex character at position 0'],
    ['0x prefix', { data: '0xab' }, '.data: hex string has a non-hex character at position 1'],
    ['hex given as a number', { data: 12 }, '.data: must be a hex string'],
    [
      'lisk32 with a bad checksum',
      { address: 'lskhqy429nwm2tew3j5j29ef6pguyynf6jxcmgrh3' },
      '.address: lisk32 address has an invalid checksum',
    ],
    [
      'lisk32 with the wrong prefix',
      { address: 'lsxhqy429nwm2tew3j5j29ef6pguyynf6jxcmgrh2' },
      '.address: lisk32 address prefix must be "lsk"',
    ],
    [
      'lisk32 in upper case',
      { address: 'lskHQY429nwm2tew3j5j29ef6pguyynf6jxcmgrh2' },
      '.address: lisk32 address has an invalid character at position 3',
    ],
    ['lisk32 given as hex', { address: address.toString('hex') }, '.address: lisk32 address length must be 41 characters'],
    ['non-canonical base64', { blob: 'aGVsbG8' }, '.blob: must be a canonical base64 string'],
    ['uint64 in exponent notation', { amount: '1e3' }, '.amount: must be a decimal integer string (uint64)'],
    ['uint64 in hex', { amount: '0x10' }, '.amount: must be a decimal integer string (uint64)'],
    ['empty uint64 string', { amount: '' }, '.amount: must be a decimal integer string (uint64)'],
    ['uint64 with blanks', { amount: ' 1' }, '.amount: must be a decimal integer string (uint64)'],
    ['uint64 as a JSON number', { amount: 5 }, '.amount: must be a decimal integer string (uint64)'],
    ['uint64 out of range', { amount: '18446744073709551616' }, '.amount: value 18446744073709551616 is out of range of uint64'],
    ['negative uint64', { amount: '-1' }, '.amount: value -1 is out of range of uint64'],
    ['sint64 out of range', { balance: '9223372036854775808' }, '.balance: value 9223372036854775808 is out of range of sint64'],
    ['uint32 as a string', { count: '5' }, '.count: must be a JSON number (uint32)'],
    ['non-integer uint32', { count: 1.5 }, '.count: must be an integer (uint32), got 1.5'],
    ['uint32 out of range', { count: 4294967296 }, '.count: value 4294967296 is out of range of uint32'],
    ['sint32 out of range', { delta: -2147483649 }, '.delta: value -2147483649 is out of range of sint32'],
    ['boolean as a string', { flag: 'true' }, '.flag: must be a boolean'],
    ['null string', { name: null }, '.name: must be a string'],
    ['array element path', { list: [{ amount: '1' }, { amount: 'x' }] }, '.list[1].amount: must be a decimal integer string (uint64)'],
    ['array that is an object', { list: {} }, '.list: must be an array'],
  ];
  for (const [name, input, detail] of rejects) {
    it(`rejects ${name}`, () => {
      let thrown: unknown;
      try {
        codec.fromJSON(schema, input);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(FormatError);
      expect((thrown as Error).message).toBe(`Invalid JSON value at ${detail}`);
    });
  }

  it('rejects any string that is not hex for hex bytes, and accepts every hex string', () => {
    const bytesOnly: Schema = { type: 'object', properties: { b: { dataType: 'bytes', fieldNumber: 1 } } };
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (text) => {
        const isHex = /^(?:[0-9a-fA-F]{2})*$/.test(text);
        if (isHex) expect(codec.fromJSON(bytesOnly, { b: text })).toEqual({ b: Buffer.from(text, 'hex') });
        else expect(() => codec.fromJSON(bytesOnly, { b: text })).toThrow(FormatError);
      }),
      { numRuns: 500 },
    );
  });

  it('round-trips random lisk32 addresses and rejects any one-character change', () => {
    const addressOnly: Schema = { type: 'object', properties: { a: { dataType: 'bytes', fieldNumber: 1, format: 'lisk32' } } };
    const alphabet = 'zxvcpmbn3465o978uyrtkqew2adsjhfg';
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), fc.nat(37), fc.nat(31), (bytes, position, replacement) => {
        const text = encodeLisk32Address(bytes);
        expect(codec.fromJSON(addressOnly, { a: text })).toEqual({ a: Buffer.from(bytes) });
        const index = 3 + position;
        const changed = alphabet[replacement] as string;
        fc.pre(text[index] !== changed);
        const mutated = text.slice(0, index) + changed + text.slice(index + 1);
        expect(() => codec.fromJSON(addressOnly, { a: mutated })).toThrow(FormatError);
      }),
      { numRuns: 300 },
    );
  });
});
