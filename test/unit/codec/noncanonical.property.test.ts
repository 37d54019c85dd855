/**
 * Property tests: the decoder rejects non-canonical encodings made by mutating valid ones, and
 * truncated input only ever raises DecodeError (docs/protocol/codec.md).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codec } from '../../../src/codec/index.js';
import type { Schema } from '../../../src/codec/index.js';
import { DecodeError } from '../../../src/errors.js';
import { schemaAndValue } from './support/arbitraries.js';
import { referenceEncode } from './support/reference-encoder.js';
import type { Counts, Faults } from './support/reference-encoder.js';

const RUNS = 300;

function expectDecodeError(schema: Schema, bytes: Uint8Array): void {
  let thrown: unknown;
  try {
    codec.decode(schema, bytes);
  } catch (error) {
    thrown = error;
  }
  expect(thrown, `decoding ${Buffer.from(bytes).toString('hex')} must fail`).toBeInstanceOf(DecodeError);
}

/** Property: injecting the fault chosen by `pick` (from the clean run's counts) makes decoding fail. */
function rejectsFault(available: (counts: Counts) => number, fault: (index: number, extra: number) => Faults): void {
  fc.assert(
    fc.property(schemaAndValue, fc.nat(), fc.nat(), ({ schema, value }, pick, extra) => {
      const clean = referenceEncode(schema, value);
      const count = available(clean.counts);
      fc.pre(count > 0);
      const mutated = referenceEncode(schema, value, fault(pick % count, extra)).bytes;
      expect(mutated.equals(clean.bytes)).toBe(false);
      expectDecodeError(schema, mutated);
    }),
    { numRuns: RUNS },
  );
}

describe('decoder rejects mutated encodings', () => {
  it('a varint (key, length or value) not in shortest form', () => {
    rejectsFault(
      (c) => c.varints,
      (index) => ({ nonShortestVarint: index }),
    );
  });

  it('two fields out of fieldNumber order', () => {
    rejectsFault(
      (c) => c.swappableObjects,
      (index) => ({ swapFields: index }),
    );
  });

  it('a scalar or object field written twice', () => {
    rejectsFault(
      (c) => c.duplicableFields,
      (index) => ({ duplicateField: index }),
    );
  });

  it('a boolean byte other than 00 / 01', () => {
    rejectsFault(
      (c) => c.booleans,
      (index, extra) => ({ badBoolean: { index, byte: 2 + (extra % 254) } }),
    );
  });

  it('an extra byte inside a nested object (length adjusted)', () => {
    rejectsFault(
      (c) => c.nestedObjects,
      (index) => ({ extraByteInObject: index }),
    );
  });

  it('trailing bytes after the last field', () => {
    fc.assert(
      fc.property(schemaAndValue, fc.uint8Array({ maxLength: 8 }), ({ schema, value }, tail) => {
        // A leading 0x00 is the key of field 0, which no schema has, so no absent trailing
        // array can claim the extra bytes.
        const bytes = Buffer.concat([codec.encode(schema, value), Buffer.from([0]), tail]);
        expectDecodeError(schema, bytes);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('truncated input', () => {
  it('every proper prefix either decodes (when it is itself valid) or raises DecodeError', () => {
    fc.assert(
      fc.property(schemaAndValue, ({ schema, value }) => {
        const bytes = codec.encode(schema, value);
        for (let length = 0; length < bytes.length; length += 1) {
          const prefix = bytes.subarray(0, length);
          let decoded: unknown;
          try {
            decoded = codec.decode(schema, prefix);
          } catch (error) {
            expect(error).toBeInstanceOf(DecodeError);
            continue;
          }
          // A valid prefix (e.g. cut between array elements) is a canonical encoding itself.
          expect(codec.encode(schema, decoded as object).equals(prefix)).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('random bytes never raise anything but DecodeError', () => {
    fc.assert(
      fc.property(schemaAndValue, fc.uint8Array({ maxLength: 64 }), ({ schema }, bytes) => {
        try {
          codec.decode(schema, bytes);
        } catch (error) {
          expect(error).toBeInstanceOf(DecodeError);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
