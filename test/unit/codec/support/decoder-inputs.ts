/**
 * Inputs for the decoder property tests, which compare two decoders on the same bytes: valid
 * encodings of random values, the same damaged (a few bytes changed, cut and something appended,
 * or one fault injected by the reference encoder), and random bytes, on random schemas and on the
 * repository's own schemas.
 */
import fc from 'fast-check';
import { it } from 'vitest';
import type { Schema } from '../../../../src/codec/index.js';
import { schemaArbitrary, valueArbitrary } from './arbitraries.js';
import { type Faults, referenceEncode } from './reference-encoder.js';
import { repositorySchemas } from './repository-schemas.js';

export const damage = fc.oneof(
  fc.constant({ kind: 'none' as const }),
  fc.record({
    kind: fc.constant('change' as const),
    changes: fc.array(fc.record({ at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }), { minLength: 1, maxLength: 4 }),
  }),
  fc.record({ kind: fc.constant('cut' as const), cut: fc.nat(), tail: fc.uint8Array({ maxLength: 8 }) }),
  fc.record({
    kind: fc.constant('fault' as const),
    fault: fc.oneof(
      fc.nat().map((n): Faults => ({ nonShortestVarint: n % 8 })),
      fc.nat().map((n): Faults => ({ swapFields: n % 4 })),
      fc.nat().map((n): Faults => ({ duplicateField: n % 4 })),
      fc.nat().map((n): Faults => ({ badBoolean: { index: n % 4, byte: 2 + (n % 250) } })),
      fc.nat().map((n): Faults => ({ extraByteInObject: n % 4 })),
    ),
  }),
);

export type Damage = typeof damage extends fc.Arbitrary<infer T> ? T : never;

export function damagedInput(schema: Schema, value: Record<string, unknown>, how: Damage): Buffer {
  if (how.kind === 'fault') return referenceEncode(schema, value, how.fault).bytes;
  const clean = referenceEncode(schema, value).bytes;
  if (how.kind === 'none') return clean;
  if (how.kind === 'cut') return Buffer.concat([clean.subarray(0, how.cut % (clean.length + 1)), how.tail]);
  const bytes = Buffer.from(clean);
  if (bytes.length === 0) return bytes;
  for (const { at, value: byte } of how.changes) bytes[at % bytes.length] = byte;
  return bytes;
}

/** A decoder's value, or the class and message of what it threw. */
export type Outcome = { value: unknown } | { error: string };

export function outcome(decode: (bytes: Uint8Array) => unknown, bytes: Uint8Array): Outcome {
  try {
    return { value: decode(bytes) };
  } catch (error) {
    return { error: `${(error as Error).constructor.name}: ${(error as Error).message}` };
  }
}

/** A property over valid and damaged encodings of random values of random `schemas`. */
export function onEncodings(
  schemas: fc.Arbitrary<Schema>,
  check: (schema: Schema, bytes: Buffer) => void,
): fc.IPropertyWithHooks<unknown[]> {
  return fc.property(
    schemas.chain((schema) => fc.tuple(fc.constant(schema), valueArbitrary(schema), damage)),
    ([schema, value, how]) => check(schema, damagedInput(schema, value, how)),
  );
}

/**
 * Declares the usual tests of `check` (two decoders agree on `bytes`): random schemas with valid
 * and damaged encodings and with random bytes, and each repository schema with both.
 */
export function decoderInputTests(check: (schema: Schema, bytes: Uint8Array) => void, runs: number): void {
  it('random schemas, valid and damaged encodings', () => {
    fc.assert(onEncodings(schemaArbitrary, check), { numRuns: runs });
  });

  it('random schemas, random bytes', () => {
    fc.assert(
      fc.property(schemaArbitrary, fc.uint8Array({ maxLength: 48 }), (schema, bytes) => check(schema, bytes)),
      { numRuns: runs },
    );
  });

  it.each(repositorySchemas)('%s: valid, damaged and random input', (_name, schema) => {
    fc.assert(
      fc.property(valueArbitrary(schema), damage, (value, how) => check(schema, damagedInput(schema, value, how))),
      { numRuns: 60 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 32 }), (bytes) => check(schema, bytes)),
      { numRuns: 30 },
    );
  });
}

/** Every Buffer and every string in a decoded value, in traversal order. */
export function leaves(value: unknown, into: { buffers: Buffer[]; strings: string[] } = { buffers: [], strings: [] }) {
  if (Buffer.isBuffer(value)) into.buffers.push(value);
  else if (typeof value === 'string') into.strings.push(value);
  else if (Array.isArray(value)) for (const item of value) leaves(item, into);
  else if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) leaves(item, into);
  return into;
}

/** True when `field` is a view of some of the bytes of `input` (so not a copy). */
export function sharesMemory(field: Buffer, input: Buffer): boolean {
  return (
    field.buffer === input.buffer &&
    field.byteOffset < input.byteOffset + input.length &&
    input.byteOffset < field.byteOffset + field.length
  );
}
