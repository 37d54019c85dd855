/**
 * Decoder behaviour that follows lisk-codec 0.5.0 where it departs from a plain reading of LIP 0027
 * (docs/protocol/codec.md, read from elements/lisk-codec/src/collection.ts). Inputs the SDK accepts
 * must be accepted with the same value (IDs are hashes of the re-encoded bytes).
 */
import { describe, expect, it } from 'vitest';
import { codec } from '../../../src/codec/index.js';
import type { Schema } from '../../../src/codec/index.js';
import { DecodeError } from '../../../src/errors.js';

const hex = (text: string): Buffer => Buffer.from(text.replace(/ /g, ''), 'hex');

function roundTrip(schema: Schema, input: string): { value: Record<string, unknown>; reencoded: string } {
  const value = codec.decode(schema, hex(input));
  return { value, reencoded: codec.encode(schema, value).toString('hex') };
}

const bytesArrays: Schema = {
  type: 'object',
  required: ['a', 'b'],
  properties: {
    a: { type: 'array', fieldNumber: 16, items: { dataType: 'bytes' } },
    b: { type: 'array', fieldNumber: 32, items: { dataType: 'bytes' } },
  },
};

describe('repeated-element loop compares only the first key byte', () => {
  it('for fieldNumber >= 16 a following array with the same first key byte is read as more elements', () => {
    // fn 16 -> key 82 01, fn 32 -> key 82 02: same first byte.
    const bytes = codec.encode(bytesArrays, { a: [hex('aa')], b: [hex('bb')] });
    expect(bytes.toString('hex')).toBe('820101aa820201bb');
    expect(codec.decode(bytesArrays, bytes)).toEqual({ a: [hex('aa'), hex('bb')], b: [] });
  });

  it('does not swallow a following field whose key starts with another byte', () => {
    const schema: Schema = {
      type: 'object',
      properties: {
        a: { type: 'array', fieldNumber: 16, items: { dataType: 'bytes' } },
        b: { type: 'array', fieldNumber: 33, items: { dataType: 'bytes' } },
      },
    };
    const value = { a: [hex('aa')], b: [hex('bb')] };
    expect(codec.decode(schema, codec.encode(schema, value))).toEqual(value);
  });
});

describe('packed arrays', () => {
  const packedThenScalar: Schema = {
    type: 'object',
    required: ['a', 'b'],
    properties: { a: { type: 'array', fieldNumber: 1, items: { dataType: 'uint32' } }, b: { dataType: 'uint32', fieldNumber: 2 } },
  };

  it('accept a last element that runs past the declared run length (inside the object)', () => {
    // Run length 1, but the element 80 01 takes two bytes; the SDK stops only once past the run.
    expect(roundTrip(packedThenScalar, '0a01 8001 1005')).toEqual({ value: { a: [128], b: 5 }, reencoded: '0a028001' + '1005' });
  });

  it('reject an element that runs past the end of the enclosing object', () => {
    const nested: Schema = {
      type: 'object',
      properties: {
        n: { type: 'object', fieldNumber: 1, properties: { a: { type: 'array', fieldNumber: 1, items: { dataType: 'uint32' } } } },
      },
    };
    expect(() => codec.decode(nested, hex('0a03 0a01 80 01'))).toThrow(DecodeError);
  });

  it('accept an explicit zero length (0a 00) as [] and reject a split run', () => {
    expect(roundTrip(packedThenScalar, '0a00 1005')).toEqual({ value: { a: [], b: 5 }, reencoded: '1005' });
    expect(() => codec.decode(packedThenScalar, hex('0a0101 0a0102 1005'))).toThrow(DecodeError);
  });

  it('reject a run whose length exceeds the input', () => {
    expect(() => codec.decode(packedThenScalar, hex('0a05 0102'))).toThrow(DecodeError);
  });

  it('an absent array in the middle decodes to []', () => {
    expect(roundTrip(packedThenScalar, '1005')).toEqual({ value: { a: [], b: 5 }, reencoded: '1005' });
  });
});

describe('arrays: only the field number of the first key is checked', () => {
  const objects: Schema = {
    type: 'object',
    properties: {
      a: { type: 'array', fieldNumber: 1, items: { type: 'object', properties: { v: { dataType: 'uint32', fieldNumber: 1 } } } },
    },
  };

  it('an object array under a wire-type-0 key is accepted', () => {
    expect(roundTrip(objects, '08 02 0801')).toEqual({ value: { a: [{ v: 1 }] }, reencoded: '0a020801' });
  });

  it('zero-length object elements are dropped wherever they are', () => {
    expect(roundTrip(objects, '0a020801 0a00 0a020802')).toEqual({ value: { a: [{ v: 1 }, { v: 2 }] }, reencoded: '0a0208010a020802' });
    expect(roundTrip(objects, '0a00')).toEqual({ value: { a: [] }, reencoded: '' });
  });

  it('a zero-length bytes element is an empty element, not dropped', () => {
    const bytes: Schema = { type: 'object', properties: { a: { type: 'array', fieldNumber: 1, items: { dataType: 'bytes' } } } };
    expect(roundTrip(bytes, '0a00')).toEqual({ value: { a: [Buffer.alloc(0)] }, reencoded: '0a00' });
  });

  it('an unsupported wire type in the peeked key is rejected', () => {
    expect(() => codec.decode(objects, hex('0b00'))).toThrow(DecodeError);
  });

  it('a non-shortest key of the first element is rejected', () => {
    expect(() => codec.decode(objects, hex('8a00 020801'))).toThrow(DecodeError);
  });
});

describe('strings', () => {
  const schema: Schema = { type: 'object', properties: { s: { dataType: 'string', fieldNumber: 1 } } };

  it('a leading UTF-8 byte-order mark is dropped, as by the SDK TextDecoder (accepted, non-canonical)', () => {
    expect(roundTrip(schema, '0a04 efbbbf41')).toEqual({ value: { s: 'A' }, reencoded: '0a0141' });
  });

  it('overlong, surrogate and truncated UTF-8 sequences are rejected', () => {
    for (const bad of ['0a02 c081', '0a03 eda080', '0a01 e2', '0a02 e282']) {
      expect(() => codec.decode(schema, hex(bad)), bad).toThrow(DecodeError);
    }
  });

  it('multi-byte NFC text is accepted', () => {
    expect(roundTrip(schema, '0a06 e6bca2e5ad97')).toEqual({ value: { s: '漢字' }, reencoded: '0a06e6bca2e5ad97' });
  });
});

describe('integers', () => {
  const schema: Schema = {
    type: 'object',
    properties: {
      a: { dataType: 'sint32', fieldNumber: 1 },
      b: { dataType: 'sint64', fieldNumber: 2 },
      c: { dataType: 'uint64', fieldNumber: 3 },
    },
  };

  it('decodes zigzag extremes and large uint64 values exactly', () => {
    const value = { a: -2147483648, b: -(2n ** 63n), c: 2n ** 53n + 1n };
    const bytes = codec.encode(schema, value);
    expect(codec.decode(schema, bytes)).toEqual(value);
  });

  it('rejects a sint32 zigzag value above 2^32 - 1 and a uint64 above 2^64 - 1', () => {
    expect(() => codec.decode(schema, hex('08 8080808010 1000 1800'))).toThrow(DecodeError);
    expect(() => codec.decode(schema, hex('0800 1000 18 80808080808080808002'))).toThrow(DecodeError);
  });

  it('rejects a varint without a terminating byte inside the limit', () => {
    expect(() => codec.decode(schema, hex('0800 1000 18 ffffffffffffffffffff01'))).toThrow(DecodeError);
  });
});

describe('input handling', () => {
  const schema: Schema = { type: 'object', properties: { b: { dataType: 'bytes', fieldNumber: 1 } } };

  it('accepts a plain Uint8Array view with an offset', () => {
    const backing = new Uint8Array([0xff, 0x0a, 0x02, 0xca, 0xfe, 0xff]);
    expect(codec.decode(schema, backing.subarray(1, 5))).toEqual({ b: hex('cafe') });
  });

  it('rejects a non-Uint8Array input with DecodeError', () => {
    expect(() => codec.decode(schema, '0a00' as unknown as Uint8Array)).toThrow(DecodeError);
  });

  it('names the property path and byte offset in errors, with array indices', () => {
    const nested: Schema = {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          fieldNumber: 1,
          items: { type: 'object', properties: { ok: { dataType: 'boolean', fieldNumber: 1 } } },
        },
      },
    };
    expect(() => codec.decode(nested, hex('0a020801 0a020805'))).toThrow('Cannot decode .items[1].ok at byte 7: invalid boolean byte 0x05');
  });
});
