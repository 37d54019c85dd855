/**
 * Property test: the decoder's two modes, bytes fields as copies and as views into the input,
 * accept and reject the same inputs, with equal values and the same DecodeError messages, on
 * random schemas and on the repository's own schemas, for valid, mutated, cut, extended and
 * random input; copies never share memory with the input.
 */
import { describe, expect, it } from 'vitest';
import { compileDecoder } from '../../../src/codec/decoder.js';
import type { Schema } from '../../../src/codec/index.js';
import { decoderInputTests, leaves, outcome, sharesMemory } from './support/decoder-inputs.js';
import { perSchema, repositorySchemas } from './support/repository-schemas.js';

const RUNS = 400;

interface Decoders {
  copy: (bytes: Uint8Array) => unknown;
  view: (bytes: Uint8Array) => unknown;
}

const decoders = perSchema((layout): Decoders => ({ copy: compileDecoder(layout), view: compileDecoder(layout, 'view') }));

function expectSameOutcome(schema: Schema, bytes: Uint8Array): void {
  const { copy, view } = decoders(schema);
  const input = Buffer.from(bytes);
  const copied = outcome(copy, input);
  expect(outcome(view, input), `view decoder on ${input.toString('hex')}`).toStrictEqual(copied);
  if ('value' in copied) {
    for (const field of leaves(copied.value).buffers) {
      expect(sharesMemory(field, input), 'a copied field shares memory with the input').toBe(false);
    }
  }
}

describe('decoder: views = copies', () => {
  decoderInputTests(expectSameOutcome, RUNS);

  it('finds the repository schemas', () => {
    expect(repositorySchemas.length).toBeGreaterThan(40);
  });
});
