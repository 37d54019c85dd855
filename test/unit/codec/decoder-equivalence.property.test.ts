/**
 * Property test: the decoder's two modes, bytes fields as copies and as views into the input,
 * accept and reject the same inputs, with equal values and the same DecodeError messages, on
 * random schemas and on the repository's own schemas, for valid, mutated, cut, extended and
 * random input; copies never share memory with the input.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileDecoder } from '../../../src/codec/decoder.js';
import type { Schema } from '../../../src/codec/index.js';
import { schemaArbitrary, valueArbitrary } from './support/arbitraries.js';
import { damage, damagedInput } from './support/damaged-input.js';
import { perSchema, repositorySchemas } from './support/repository-schemas.js';

const RUNS = 400;

type Outcome = { value: unknown } | { error: string };

function outcome(decode: (bytes: Uint8Array) => unknown, bytes: Uint8Array): Outcome {
  try {
    return { value: decode(bytes) };
  } catch (error) {
    return { error: `${(error as Error).constructor.name}: ${(error as Error).message}` };
  }
}

interface Decoders {
  copy: (bytes: Uint8Array) => unknown;
  view: (bytes: Uint8Array) => unknown;
}

const decoders = perSchema((layout): Decoders => ({ copy: compileDecoder(layout), view: compileDecoder(layout, 'view') }));

/** Every Buffer in a decoded value, in traversal order. */
function buffersOf(value: unknown, into: Buffer[] = []): Buffer[] {
  if (Buffer.isBuffer(value)) into.push(value);
  else if (Array.isArray(value)) for (const item of value) buffersOf(item, into);
  else if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) buffersOf(item, into);
  return into;
}

function expectSameOutcome(schema: Schema, bytes: Uint8Array): void {
  const { copy, view } = decoders(schema);
  const input = Buffer.from(bytes);
  const copied = outcome(copy, input);
  expect(outcome(view, input), `view decoder on ${input.toString('hex')}`).toStrictEqual(copied);
  if ('value' in copied) {
    for (const field of buffersOf(copied.value)) {
      const overlaps =
        field.buffer === input.buffer &&
        field.byteOffset < input.byteOffset + input.length &&
        input.byteOffset < field.byteOffset + field.length;
      expect(overlaps, 'a copied field shares memory with the input').toBe(false);
    }
  }
}

describe('decoder: views = copies', () => {
  it('random schemas, valid and damaged encodings', () => {
    fc.assert(
      fc.property(
        schemaArbitrary.chain((schema) => fc.tuple(fc.constant(schema), valueArbitrary(schema), damage)),
        ([schema, value, how]) => expectSameOutcome(schema, damagedInput(schema, value, how)),
      ),
      { numRuns: RUNS },
    );
  });

  it('random schemas, random bytes', () => {
    fc.assert(
      fc.property(schemaArbitrary, fc.uint8Array({ maxLength: 48 }), (schema, bytes) => expectSameOutcome(schema, bytes)),
      { numRuns: RUNS },
    );
  });

  it('finds the repository schemas', () => {
    expect(repositorySchemas.length).toBeGreaterThan(40);
  });

  it.each(repositorySchemas)('%s: valid, damaged and random input', (_name, schema) => {
    fc.assert(
      fc.property(valueArbitrary(schema), damage, (value, how) => expectSameOutcome(schema, damagedInput(schema, value, how))),
      { numRuns: 60 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 32 }), (bytes) => expectSameOutcome(schema, bytes)),
      { numRuns: 30 },
    );
  });
});
