/**
 * Property test: the fast decoder (src/codec/fast-decoder.ts) takes exactly the canonical
 * encodings whose strings are ASCII, and for those returns the general decoder's value; it gives
 * up on every other input, which codec.decode then hands to the general decoder, so that
 * codec.decode and codec.decodeViews have the general decoder's outcome on every input, errors
 * included. Checked in both bytes modes on random schemas (with and without the SDK quirks the
 * other property tests keep out) and on the repository's own schemas, for valid, damaged, cut,
 * extended and random input. Copies never share memory with the input. codec.decodeCanonicalViews
 * is the fast view decoder alone.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type BytesMode, compileDecoder } from '../../../src/codec/decoder.js';
import { type FastDecoder, compileFastDecoder } from '../../../src/codec/fast-decoder.js';
import { type Schema, codec } from '../../../src/codec/index.js';
import { quirkySchemaArbitrary } from './support/arbitraries.js';
import { decoderInputTests, leaves, onEncodings, outcome, sharesMemory } from './support/decoder-inputs.js';
import { perSchema } from './support/repository-schemas.js';

const RUNS = 400;
const MODES: readonly BytesMode[] = ['copy', 'view'];

interface Decoders {
  fast: Record<BytesMode, FastDecoder>;
  general: Record<BytesMode, (bytes: Uint8Array) => unknown>;
}

const decoders = perSchema(
  (layout): Decoders => ({
    fast: { copy: compileFastDecoder(layout, 'copy'), view: compileFastDecoder(layout, 'view') },
    general: { copy: compileDecoder(layout, 'copy'), view: compileDecoder(layout, 'view') },
  }),
);

const isAscii = (text: string): boolean => [...text].every((char) => char.charCodeAt(0) < 0x80);

/** How often the fast decoder answered, so that the report shows what the inputs exercised. */
const answered = { fast: 0, total: 0 };

function expectAgreement(schema: Schema, bytes: Uint8Array): void {
  const { fast, general } = decoders(schema);
  const input = Buffer.from(bytes);
  const hex = input.toString('hex');
  for (const mode of MODES) {
    const expected = outcome(general[mode], input);
    const got = fast[mode](input);
    answered.total += 1;
    if (got === undefined) {
      // Declining is only allowed for input that is not canonical or has a non-ASCII string.
      if ('value' in expected && codec.encode(schema, expected.value as object).equals(input)) {
        expect(leaves(expected.value).strings.every(isAscii), `fast ${mode} declined canonical ${hex}`).toBe(false);
      }
    } else {
      answered.fast += 1;
      expect(expected, `fast ${mode} took ${hex}, which the general decoder rejects`).toHaveProperty('value');
      expect(got, `fast ${mode} on ${hex}`).toStrictEqual((expected as { value: unknown }).value);
      expect(codec.encode(schema, got).toString('hex'), `fast ${mode} took a non-canonical encoding`).toBe(hex);
      if (mode === 'copy') {
        for (const field of leaves(got).buffers)
          expect(sharesMemory(field, input), 'a copied field shares memory with the input').toBe(false);
      }
    }
    if (mode === 'view') expect(codec.decodeCanonicalViews(schema, input), `decodeCanonicalViews on ${hex}`).toStrictEqual(got);
    const decode = mode === 'copy' ? codec.decode : codec.decodeViews;
    expect(
      outcome((b) => decode(schema, b), input),
      `codec ${mode} on ${hex}`,
    ).toStrictEqual(expected);
  }
}

describe('fast decoder = general decoder', () => {
  decoderInputTests(expectAgreement, RUNS);

  it('random schemas with the SDK quirks (shared first key bytes, empty elements), valid and damaged encodings', () => {
    fc.assert(onEncodings(quirkySchemaArbitrary, expectAgreement), { numRuns: RUNS });
  });

  it('the inputs above exercised both paths', () => {
    expect(answered.fast).toBeGreaterThan(answered.total / 10);
    expect(answered.fast).toBeLessThan(answered.total);
  });
});

describe('fast decoder: the forms it leaves to the general decoder', () => {
  const hex = (text: string): Buffer => Buffer.from(text.replace(/ /g, ''), 'hex');
  const packed: Schema = {
    type: 'object',
    required: ['list', 'flag'],
    properties: { list: { type: 'array', fieldNumber: 1, items: { dataType: 'uint32' } }, flag: { dataType: 'boolean', fieldNumber: 2 } },
  };
  const fastOf = (schema: Schema) => decoders(schema).fast.copy;

  it.each([
    ['a packed array of zero length', '0a00 1001'],
    ['a packed element running past the run length', '0a01 8001 1001'],
    ['a varint not in shortest form', '0a02 8000 1001'],
    ['a boolean byte above 1', '0a01 05 1002'],
    ['trailing bytes', '0a01 05 1001 00'],
    ['a missing field', '0a01 05'],
  ])('%s', (_what, input) => {
    expect(fastOf(packed)(hex(input))).toBeUndefined();
  });

  it('takes the canonical encoding of the same schema', () => {
    expect(fastOf(packed)(hex('0a03 058001 1001'))).toEqual({ list: [5, 128], flag: true });
  });

  it('a repeated key that only starts like the array key (the general decoder reads it as more elements)', () => {
    const schema: Schema = {
      type: 'object',
      required: ['a', 'b'],
      properties: {
        a: { type: 'array', fieldNumber: 16, items: { dataType: 'bytes' } },
        b: { type: 'array', fieldNumber: 32, items: { dataType: 'bytes' } },
      },
    };
    expect(fastOf(schema)(hex('820101aa 820201bb'))).toBeUndefined();
    expect(fastOf(schema)(hex('820101aa 820101bb'))).toEqual({ a: [hex('aa'), hex('bb')], b: [] });
  });

  it('but takes an empty array followed by a field whose key starts with the same byte', () => {
    const schema: Schema = {
      type: 'object',
      required: ['a', 'b'],
      properties: { a: { type: 'array', fieldNumber: 16, items: { dataType: 'bytes' } }, b: { dataType: 'bytes', fieldNumber: 2064 } },
    };
    expect(fastOf(schema)(hex('828101 01 aa'))).toEqual({ a: [], b: hex('aa') });
  });

  it('codec.decodeCanonicalViews answers undefined for what is not a Uint8Array', () => {
    expect(codec.decodeCanonicalViews(packed, 'not bytes' as unknown as Uint8Array)).toBeUndefined();
    expect(codec.decodeCanonicalViews(packed, new Uint8Array(hex('0a01 05 1000')))).toEqual({ list: [5], flag: false });
  });

  it('views into a plain Uint8Array that starts inside its ArrayBuffer', () => {
    const schema: Schema = { type: 'object', required: ['data'], properties: { data: { dataType: 'bytes', fieldNumber: 1 } } };
    const memory = new Uint8Array([9, 9, 9, 0x0a, 2, 0xab, 0xcd, 9]);
    const input = memory.subarray(3, 7);
    for (const decoded of [
      codec.decodeViews<{ data: Buffer }>(schema, input),
      codec.decodeCanonicalViews<{ data: Buffer }>(schema, input),
    ]) {
      expect(decoded?.data).toEqual(hex('abcd'));
      expect(decoded?.data.buffer).toBe(memory.buffer);
      expect(decoded?.data.byteOffset).toBe(5);
    }
    expect(codec.decode<{ data: Buffer }>(schema, input).data.buffer).not.toBe(memory.buffer);
  });

  it('a non-ASCII string, which the general decoder checks for UTF-8 and NFC', () => {
    const schema: Schema = { type: 'object', required: ['text'], properties: { text: { dataType: 'string', fieldNumber: 1 } } };
    expect(fastOf(schema)(Buffer.concat([hex('0a02'), Buffer.from('é', 'utf8')]))).toBeUndefined();
    expect(fastOf(schema)(hex('0a02 6162'))).toEqual({ text: 'ab' });
  });
});
