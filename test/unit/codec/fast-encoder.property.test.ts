/**
 * Property test: the fast encoder (src/codec/fast-encoder.ts) either declines a value or gives
 * exactly the general encoder's bytes, and it declines every value the general encoder rejects,
 * on random schemas (all members required, or some left optional) and on the repository's own
 * schemas, for valid values and for values with one member replaced by something else.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileEncoder } from '../../../src/codec/encoder.js';
import { compileFastEncoder, type FastEncoder } from '../../../src/codec/fast-encoder.js';
import { codec, type Schema } from '../../../src/codec/index.js';
import { EncodeError } from '../../../src/errors.js';
import { schemaArbitrary, valueArbitrary } from './support/arbitraries.js';
import { perSchema, repositorySchemas } from './support/repository-schemas.js';

const RUNS = 400;

interface Encoders {
  fast: FastEncoder;
  general: (value: object) => Buffer;
}

const encoders = perSchema((layout): Encoders => ({ fast: compileFastEncoder(layout), general: compileEncoder(layout) }));

/** Counts how often the fast path answered, so that a fast path that always declines fails. */
const answered = { fast: 0, total: 0 };

function expectAgreement(schema: Schema, value: unknown): void {
  const { fast, general } = encoders(schema);
  let expected: Buffer | undefined;
  try {
    expected = general(value as object);
  } catch (error) {
    if (!(error instanceof EncodeError)) throw error;
  }
  const got = fast(value as object);
  answered.total += 1;
  if (got === undefined) return;
  answered.fast += 1;
  expect(expected, 'the fast encoder took a value the general one rejects').toBeDefined();
  expect(got.toString('hex')).toBe(expected?.toString('hex'));
}

/** Something that is not what a schema member expects (or sometimes is: both must agree anyway). */
const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(undefined, null, true, 0, -1, 1.5, 2 ** 32, 2 ** 53, -(2 ** 31) - 1, 'é', 'ok', 'e\u0301', '\u{1f600}'),
  fc.constantFrom(-1n, 0n, 2n ** 64n, 2n ** 63n, -(2n ** 63n) - 1n, 2n ** 53n + 1n),
  fc.constantFrom([], [1], [null], [{}], {}, Buffer.alloc(3), new Uint8Array(2)),
);

/** The value with the member at a random path (objects and arrays, any depth) replaced by junk. */
function damaged(value: unknown, picks: readonly number[], replacement: unknown, depth = 0): unknown {
  const pick = picks[depth] ?? 0;
  if (Array.isArray(value)) {
    if (value.length === 0 || pick % 3 === 0) return replacement;
    const copy = [...value];
    const at = pick % copy.length;
    copy[at] = damaged(copy[at], picks, replacement, depth + 1);
    return copy;
  }
  if (typeof value === 'object' && value !== null && !(value instanceof Uint8Array)) {
    const keys = Object.keys(value);
    if (keys.length === 0) return replacement;
    const key = keys[pick % keys.length] as string;
    const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    copy[key] = depth > 0 && pick % 4 === 0 ? replacement : damaged(copy[key], picks, replacement, depth + 1);
    return copy;
  }
  return replacement;
}

/** The schema with only some root members required (the encoders skip absent optional ones). */
function withOptionalMembers(schema: Schema, keep: readonly boolean[]): Schema {
  const required = (schema.required ?? []).filter((_, i) => keep[i % Math.max(keep.length, 1)] !== false);
  return { ...schema, required };
}

const damage = fc.tuple(fc.array(fc.nat(), { minLength: 1, maxLength: 5 }), junk);

describe('fast encoder = general encoder', () => {
  it('random schemas, valid values', () => {
    fc.assert(
      fc.property(
        schemaArbitrary.chain((schema) => fc.tuple(fc.constant(schema), valueArbitrary(schema))),
        ([schema, value]) => expectAgreement(schema, value),
      ),
      { numRuns: RUNS },
    );
  });

  it('random schemas, damaged values and optional members', () => {
    fc.assert(
      fc.property(
        schemaArbitrary.chain((schema) => fc.tuple(fc.constant(schema), valueArbitrary(schema), damage, fc.array(fc.boolean()))),
        ([schema, value, [picks, replacement], keep]) => {
          expectAgreement(schema, damaged(value, picks, replacement));
          expectAgreement(withOptionalMembers(schema, keep), damaged(value, picks, undefined));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('non-objects are declined', () => {
    const schema = repositorySchemas[0]?.[1] as Schema;
    for (const value of [null, undefined, 1, 'x', [], Buffer.alloc(1)]) {
      expect(encoders(schema).fast(value as object)).toBeUndefined();
    }
  });

  it.each(repositorySchemas)('%s: valid and damaged values', (_name, schema) => {
    fc.assert(
      fc.property(valueArbitrary(schema), damage, (value, [picks, replacement]) => {
        expectAgreement(schema, value);
        expectAgreement(schema, damaged(value, picks, replacement));
      }),
      { numRuns: 40 },
    );
  });

  it('takes most valid values (the fast path is not dead code)', () => {
    expect(answered.fast).toBeGreaterThan(answered.total / 3);
  });

  it('codec.encode gives the general bytes and errors through the fast path', () => {
    const schema = repositorySchemas.find(([name]) => name === 'token.transferParamsSchema')?.[1] as Schema;
    const value = { tokenID: Buffer.alloc(8), amount: 5n, recipientAddress: Buffer.alloc(20, 1), data: 'é' };
    expect(codec.encode(schema, value).equals(encoders(schema).general(value))).toBe(true);
    expect(() => codec.encode(schema, { ...value, amount: -1n })).toThrow(EncodeError);
  });
});
