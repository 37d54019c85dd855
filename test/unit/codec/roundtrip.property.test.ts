/**
 * Property tests: random schemas (every scalar type, nested objects, every kind of array, field
 * numbers >= 16, random declaration order) with random values.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codec } from '../../../src/codec/index.js';
import { schemaAndValue } from './support/arbitraries.js';
import { referenceEncode } from './support/reference-encoder.js';

const RUNS = 300;

describe('codec round trips on random schemas', () => {
  it('decode(encode(v)) equals v, and re-encoding gives the same bytes', () => {
    fc.assert(
      fc.property(schemaAndValue, ({ schema, value }) => {
        const bytes = codec.encode(schema, value);
        const decoded = codec.decode(schema, bytes);
        expect(decoded).toEqual(value);
        expect(codec.encode(schema, decoded).equals(bytes)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('encode agrees byte for byte with the naive reference encoder', () => {
    fc.assert(
      fc.property(schemaAndValue, ({ schema, value }) => {
        expect(codec.encode(schema, value).toString('hex')).toBe(referenceEncode(schema, value).bytes.toString('hex'));
      }),
      { numRuns: RUNS },
    );
  });

  it('fromJSON(JSON.parse(JSON.stringify(toJSON(v)))) equals v', () => {
    fc.assert(
      fc.property(schemaAndValue, ({ schema, value }) => {
        const json = JSON.parse(JSON.stringify(codec.toJSON(schema, value))) as object;
        expect(codec.fromJSON(schema, json)).toEqual(value);
        // The JSON form of the decoded value is the same JSON.
        const decoded = codec.decode(schema, codec.encode(schema, value));
        expect(codec.toJSON(schema, decoded)).toEqual(json);
      }),
      { numRuns: RUNS },
    );
  });

  it('decoded bytes are copies: overwriting the input afterwards changes nothing', () => {
    fc.assert(
      fc.property(schemaAndValue, ({ schema, value }) => {
        const input = codec.encode(schema, value);
        const decoded = codec.decode(schema, input);
        input.fill(0xee);
        expect(decoded).toEqual(value);
      }),
      { numRuns: 100 },
    );
  });
});
