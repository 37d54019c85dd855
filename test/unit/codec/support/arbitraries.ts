/**
 * fast-check generators of random lisk-codec schemas and matching values (decoded form).
 *
 * Schemas: every scalar type (bytes with format hex / lisk32 / base64 or none), nested objects,
 * arrays of every kind, field numbers from 1 to 18999 (many >= 16, so 2- and 3-byte keys),
 * properties declared in random order, every property required (LIP 0064).
 * Two SDK decoding quirks are kept out of the random schemas (they have their own tests):
 * - sibling field numbers >= 16 never share their low 4 bits, so the first byte of one field's
 *   key never equals another's (the repeated-element loop compares only that byte);
 * - object array items always have a non-array property, so no element encodes to zero bytes
 *   (such elements are dropped by the decoder).
 * `quirkySchemaArbitrary` lets both in, for tests that compare two decoders on the same bytes.
 * Values: strings are NFC-normalised and bytes with format lisk32 are 20 bytes, so that every
 * generated value round-trips exactly.
 */
import fc from 'fast-check';
import type { Schema } from '../../../../src/codec/index.js';
import { MAX_SINT32, MAX_SINT64, MAX_UINT32, MAX_UINT64, MIN_SINT32, MIN_SINT64 } from '../../../../src/codec/index.js';

type Json = Record<string, unknown>;

export const SCALAR_TYPES = ['uint32', 'sint32', 'uint64', 'sint64', 'bytes', 'string', 'boolean'] as const;

const propertyName = fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,7}$/);

const fieldNumber = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 15 }) },
  { weight: 2, arbitrary: fc.integer({ min: 16, max: 2047 }) },
  { weight: 1, arbitrary: fc.integer({ min: 2048, max: 18_999 }) },
);

/** Mostly field numbers whose keys share their first byte with another's (low 4 bits 0 or 1). */
const collidingFieldNumber = fc.oneof(
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 15 }) },
  { weight: 3, arbitrary: fc.constantFrom(16, 32, 48, 64, 2064, 17, 33, 2065) },
);

/** Field numbers >= 16 with equal low 4 bits have keys starting with the same byte. */
const keyClass = (n: number): number => (n < 16 ? n : 16 + (n & 15));

const scalarItem: fc.Arbitrary<Json> = fc
  .constantFrom(...SCALAR_TYPES)
  .chain((dataType) =>
    dataType === 'bytes'
      ? fc.constantFrom<Json>({ dataType }, { dataType, format: 'hex' }, { dataType, format: 'lisk32' }, { dataType, format: 'base64' })
      : fc.constant<Json>({ dataType }),
  );

function objectBody(depth: number, minFields: number, mustHaveNonArray: boolean, quirks: boolean): fc.Arbitrary<Json> {
  return fc
    .uniqueArray(fc.tuple(propertyName, quirks ? collidingFieldNumber : fieldNumber), {
      minLength: minFields,
      maxLength: depth === 0 ? 5 : 4,
      selector: ([name]) => name,
    })
    .filter((pairs) => new Set(pairs.map(([, n]) => (quirks ? n : keyClass(n)))).size === pairs.length)
    .chain((pairs) =>
      fc.tuple(...pairs.map(([, n]) => propertyArbitrary(depth, n, quirks))).map((properties) => {
        const entries = pairs.map(([name], i) => [name, properties[i] as Json] as const);
        return { entries };
      }),
    )
    .filter(({ entries }) => !mustHaveNonArray || entries.some(([, p]) => p.type !== 'array'))
    .map(({ entries }) => ({
      type: 'object',
      // Declaration order is the generation order, which is unrelated to fieldNumber order.
      properties: Object.fromEntries(entries),
      required: entries.map(([name]) => name),
    }));
}

function propertyArbitrary(depth: number, number: number, quirks: boolean): fc.Arbitrary<Json> {
  const options: fc.Arbitrary<Json>[] = [
    scalarItem.map((item) => ({ ...item, fieldNumber: number })),
    scalarItem.map((items) => ({ type: 'array', fieldNumber: number, items })),
  ];
  if (depth < 2) {
    options.push(objectBody(depth + 1, 0, false, quirks).map((body) => ({ ...body, fieldNumber: number })));
    options.push(objectBody(depth + 1, 1, !quirks, quirks).map((items) => ({ type: 'array', fieldNumber: number, items })));
  }
  return fc.oneof(...options);
}

/** A random, well-formed lisk-codec schema. */
export const schemaArbitrary: fc.Arbitrary<Schema> = objectBody(0, 1, false, false).map(
  (body) => ({ $id: '/test/random', ...body }) as unknown as Schema,
);

/** As `schemaArbitrary`, with the two quirks above allowed (values may not round-trip). */
export const quirkySchemaArbitrary: fc.Arbitrary<Schema> = objectBody(0, 1, false, true).map(
  (body) => ({ $id: '/test/random-quirky', ...body }) as unknown as Schema,
);

const stringValue = fc
  .oneof(
    fc.string({ unit: 'binary', maxLength: 12 }),
    fc.string({ unit: 'grapheme-ascii', maxLength: 12 }),
    // Decomposed characters: the encoder must write their NFC form.
    fc.constantFrom('n\u0303', 'e\u0301\u0327', 'Å', '\u1e9b\u0323', 'lisk'),
  )
  .map((text) => text.normalize('NFC'));

function scalarValue(item: Json): fc.Arbitrary<unknown> {
  switch (item.dataType) {
    case 'uint32':
      return fc.integer({ min: 0, max: MAX_UINT32 });
    case 'sint32':
      return fc.integer({ min: MIN_SINT32, max: MAX_SINT32 });
    case 'uint64':
      return fc.bigInt({ min: 0n, max: MAX_UINT64 });
    case 'sint64':
      return fc.bigInt({ min: MIN_SINT64, max: MAX_SINT64 });
    case 'bytes':
      return (item.format === 'lisk32' ? fc.uint8Array({ minLength: 20, maxLength: 20 }) : fc.uint8Array({ maxLength: 40 })).map((bytes) =>
        Buffer.from(bytes),
      );
    case 'string':
      return stringValue;
    case 'boolean':
      return fc.boolean();
    default:
      throw new Error(`unknown dataType ${String(item.dataType)}`);
  }
}

function propertyValue(property: Json): fc.Arbitrary<unknown> {
  if (property.type === 'object') return objectValue(property);
  if (property.type === 'array') {
    const items = property.items as Json;
    return fc.array(items.type === 'object' ? objectValue(items) : scalarValue(items), { maxLength: 4 });
  }
  return scalarValue(property);
}

function objectValue(schema: Json): fc.Arbitrary<Json> {
  const entries = Object.entries(schema.properties as Record<string, Json>);
  return fc
    .tuple(...entries.map(([, property]) => propertyValue(property)))
    .map((values) => Object.fromEntries(entries.map(([name], i) => [name, values[i]])));
}

/** A value (decoded form) for a schema. */
export function valueArbitrary(schema: Schema): fc.Arbitrary<Record<string, unknown>> {
  return objectValue(schema as unknown as Json);
}

/** A random schema with a random value for it. */
export const schemaAndValue = schemaArbitrary.chain((schema) => valueArbitrary(schema).map((value) => ({ schema, value })));
