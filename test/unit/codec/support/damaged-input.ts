/**
 * Input derived from a valid encoding for the decoder property tests: unchanged, a few bytes
 * changed, cut (and something appended), or one fault injected by the reference encoder.
 */
import fc from 'fast-check';
import type { Schema } from '../../../../src/codec/index.js';
import { type Faults, referenceEncode } from './reference-encoder.js';

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
