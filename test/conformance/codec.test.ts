/**
 * Conformance of src/codec with lisk-codec 0.5.0 (SDK v6):
 * - every case of every generator file in test/fixtures/codec (`*_encodings.json`,
 *   `*_decodings.json`, `nested_array_encoding.json`, `peer_info_sample_encoding.json`);
 * - every case of codec/edge_cases.json (accept/reject, decoded object, re-encoded bytes);
 * - every schema of codec/protocol_schemas.json passes validateSchema;
 * - the all-types example of docs/protocol/codec.md and the LIP 0027 examples, written out here.
 * Each case uses a fresh schema object (straight from JSON.parse): `$id`s repeat across files
 * with different content, and the codec caches compiled schemas by object identity.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { codec, validateSchema } from '../../src/codec/index.js';
import type { Schema } from '../../src/codec/index.js';
import { DecodeError } from '../../src/errors.js';
import { caseCounter } from '../support/conformance-tally.js';
import { fixturePath, hex, loadJsonFixture } from '../support/fixtures.js';

interface EncodingCase {
  description: string;
  input: { object: Record<string, unknown>; schema: Schema };
  output: { value: string };
  mustThrow?: boolean;
}

interface DecodingCase {
  description: string;
  input: { value: string; schema: Schema };
  output: { object?: Record<string, unknown>; error?: string };
  mustThrow?: boolean;
}

interface GeneratorFile<T> {
  testCases: T[];
}

type EdgeCase =
  | {
      kind: 'encode';
      description: string;
      schema: Schema;
      object: Record<string, unknown>;
      expected: { value: string };
      roundTrip?: Record<string, unknown>;
    }
  | {
      kind: 'decode';
      description: string;
      schema: Schema;
      value: string;
      expected: { object?: Record<string, unknown>; reencoded?: string; canonical?: boolean; error?: string };
    };

const GENERATOR_FILE = /^(?:[a-z_]+_(?:encodings|decodings)|nested_array_encoding|peer_info_sample_encoding)\.json$/;
const generatorFiles = readdirSync(fixturePath('codec'))
  .filter((name) => GENERATOR_FILE.test(name))
  .sort();

describe('codec generator fixtures (lisk-sdk protocol-specs)', () => {
  it('finds all 32 generator files with their 75 cases (fixtures/README.md: 75/75)', () => {
    expect(generatorFiles).toHaveLength(32);
    const total = generatorFiles.reduce((sum, name) => sum + loadJsonFixture<GeneratorFile<unknown>>(`codec/${name}`).testCases.length, 0);
    expect(total).toBe(75);
  });

  for (const name of generatorFiles) {
    const file = `codec/${name}`;
    describe(file, () => {
      const caseDone = caseCounter(file);
      if (name.includes('_decodings')) {
        const { testCases } = loadJsonFixture<GeneratorFile<DecodingCase>>(file);
        it('has cases', () => expect(testCases.length).toBeGreaterThan(0));
        testCases.forEach((testCase, index) => {
          it(`#${index} ${testCase.description}`, () => {
            const { schema, value } = testCase.input;
            const bytes = hex(value);
            if (testCase.mustThrow === true) {
              expect(() => codec.decode(schema, bytes)).toThrow(DecodeError);
            } else {
              const decoded = codec.decode(schema, bytes);
              expect(codec.toJSON(schema, decoded)).toEqual(testCase.output.object);
              expect(codec.encode(schema, decoded).toString('hex')).toBe(value);
            }
            caseDone();
          });
        });
      } else {
        const { testCases } = loadJsonFixture<GeneratorFile<EncodingCase>>(file);
        it('has cases', () => expect(testCases.length).toBeGreaterThan(0));
        testCases.forEach((testCase, index) => {
          it(`#${index} ${testCase.description}`, () => {
            const { schema, object } = testCase.input;
            if (testCase.mustThrow === true) {
              expect(() => codec.encode(schema, codec.fromJSON(schema, object))).toThrow();
            } else {
              expect(codec.encode(schema, codec.fromJSON(schema, object)).toString('hex')).toBe(testCase.output.value);
            }
            caseDone();
          });
        });
      }
    });
  }
});

describe('codec/edge_cases.json', () => {
  const file = 'codec/edge_cases.json';
  const caseDone = caseCounter(file);
  const { testCases } = loadJsonFixture<GeneratorFile<EdgeCase>>(file);

  it('has the 48 documented cases', () => {
    expect(testCases).toHaveLength(48);
  });

  testCases.forEach((testCase, index) => {
    it(`#${index} ${testCase.kind}: ${testCase.description}`, () => {
      const { schema } = testCase;
      if (testCase.kind === 'encode') {
        const bytes = codec.encode(schema, codec.fromJSON(schema, testCase.object));
        expect(bytes.toString('hex')).toBe(testCase.expected.value);
        if (testCase.roundTrip !== undefined) {
          expect(codec.toJSON(schema, codec.decode(schema, bytes))).toEqual(testCase.roundTrip);
        }
      } else {
        const input = hex(testCase.value);
        const { expected } = testCase;
        if (expected.error !== undefined) {
          expect(() => codec.decode(schema, input)).toThrow(DecodeError);
        } else {
          const decoded = codec.decode(schema, input);
          expect(codec.toJSON(schema, decoded)).toEqual(expected.object);
          const reencoded = codec.encode(schema, decoded).toString('hex');
          expect(reencoded).toBe(expected.reencoded);
          expect(reencoded === testCase.value).toBe(expected.canonical);
        }
      }
      caseDone();
    });
  });
});

describe('codec/protocol_schemas.json', () => {
  const file = 'codec/protocol_schemas.json';
  const caseDone = caseCounter(file);
  const { schemas, genesisAssetSchemas } = loadJsonFixture<{
    schemas: Record<string, Schema>;
    genesisAssetSchemas: Record<string, Schema>;
  }>(file);
  const all = [...Object.entries(schemas), ...Object.entries(genesisAssetSchemas).map(([m, s]) => [`genesis asset ${m}`, s] as const)];

  it('has 14 protocol schemas and 4 genesis asset schemas', () => {
    expect(Object.keys(schemas)).toHaveLength(14);
    expect(Object.keys(genesisAssetSchemas)).toHaveLength(4);
  });

  for (const [name, schema] of all) {
    it(`${name} is a well-formed lisk-codec schema`, () => {
      expect(() => validateSchema(schema)).not.toThrow();
      // It also compiles: the JSON form of an empty value is empty.
      expect(codec.toJSON(schema, {})).toEqual({});
      caseDone();
    });
  }
});

describe('the all-types example of docs/protocol/codec.md (lisk-codec 0.5.0 output)', () => {
  const schema = (): Schema => ({
    $id: '/example/all',
    type: 'object',
    required: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'z'],
    properties: {
      a: { dataType: 'uint32', fieldNumber: 1 },
      b: { dataType: 'sint32', fieldNumber: 2 },
      c: { dataType: 'uint64', fieldNumber: 3 },
      d: { dataType: 'sint64', fieldNumber: 4 },
      e: { dataType: 'bytes', fieldNumber: 5 },
      f: { dataType: 'string', fieldNumber: 6 },
      g: { dataType: 'boolean', fieldNumber: 7 },
      h: {
        type: 'object',
        fieldNumber: 8,
        required: ['x', 'y'],
        properties: { x: { dataType: 'uint32', fieldNumber: 1 }, y: { dataType: 'bytes', fieldNumber: 2 } },
      },
      i: { type: 'array', fieldNumber: 9, items: { dataType: 'uint32' } },
      j: { type: 'array', fieldNumber: 10, items: { dataType: 'bytes' } },
      k: {
        type: 'array',
        fieldNumber: 11,
        items: { type: 'object', required: ['v'], properties: { v: { dataType: 'sint64', fieldNumber: 1 } } },
      },
      z: { dataType: 'uint32', fieldNumber: 16 },
    },
  });
  const value = {
    a: 300,
    b: -2,
    c: 2n ** 64n - 1n,
    d: -1n,
    e: Buffer.from('cafe', 'hex'),
    f: 'lisk',
    g: true,
    h: { x: 0, y: Buffer.alloc(0) },
    i: [1, 128, 0],
    j: [Buffer.from('01', 'hex'), Buffer.alloc(0)],
    k: [{ v: 63n }, { v: -64n }],
    z: 5,
  };
  const full = '08ac02100318ffffffffffffffffff0120012a02cafe32046c69736b38014204080012004a040180010052010152005a02087e5a02087f800105';

  it('encodes, decodes and converts to JSON exactly', () => {
    const s = schema();
    expect(codec.encode(s, value).toString('hex')).toBe(full);
    expect(codec.decode(s, hex(full))).toEqual(value);
    expect(JSON.stringify(codec.toJSON(s, codec.decode(s, hex(full))))).toBe(
      '{"a":300,"b":-2,"c":"18446744073709551615","d":"-1","e":"cafe","f":"lisk","g":true,"h":{"x":0,"y":""},"i":[1,128,0],"j":["01",""],"k":[{"v":"63"},{"v":"-64"}],"z":5}',
    );
  });

  it('writes nothing for empty arrays', () => {
    const s = schema();
    const bytes = codec.encode(s, { ...value, i: [], j: [], k: [] });
    expect(bytes.toString('hex')).toBe('08ac02100318ffffffffffffffffff0120012a02cafe32046c69736b3801420408001200800105');
    expect(codec.decode(s, bytes)).toEqual({ ...value, i: [], j: [], k: [] });
  });

  it('reproduces the other checks of codec.md (sint32 limits, NFC)', () => {
    const s32: Schema = { type: 'object', required: ['a'], properties: { a: { dataType: 'sint32', fieldNumber: 1 } } };
    expect(codec.encode(s32, { a: 2147483647 }).toString('hex')).toBe('08feffffff0f');
    expect(codec.encode(s32, { a: -2147483648 }).toString('hex')).toBe('08ffffffff0f');
    const str: Schema = { type: 'object', required: ['a'], properties: { a: { dataType: 'string', fieldNumber: 1 } } };
    expect(codec.encode(str, { a: 'n\u0303' }).toString('hex')).toBe('0a02c3b1');
  });
});

describe('LIP 0027 "Testing and Examples"', () => {
  const twoNumbers = (first: number): Schema => ({
    type: 'object',
    required: ['firstNumber', 'secondNumber'],
    properties: {
      firstNumber: { dataType: 'uint32', fieldNumber: first },
      secondNumber: { dataType: 'sint32', fieldNumber: 7 },
    },
  });

  it('simple examples', () => {
    expect(codec.encode(twoNumbers(3), { firstNumber: 45, secondNumber: -678 }).toString('hex')).toBe('182d38cb0a');
    expect(codec.encode(twoNumbers(678), { firstNumber: 45, secondNumber: -678 }).toString('hex')).toBe('38cb0ab02a2d');
    const withString: Schema = {
      type: 'object',
      required: ['firstNumber', 'secondNumber', 'myString'],
      properties: {
        firstNumber: { dataType: 'uint32', fieldNumber: 3 },
        secondNumber: { dataType: 'sint32', fieldNumber: 7 },
        myString: { dataType: 'string', fieldNumber: 33 },
      },
    };
    const bytes = codec.encode(withString, { firstNumber: 45, secondNumber: -678, myString: 'lisk' });
    expect(bytes.toString('hex')).toBe('182d38cb0a8a02046c69736b');
    expect(codec.decode(withString, bytes)).toEqual({ firstNumber: 45, secondNumber: -678, myString: 'lisk' });
  });

  it('packed and repeated arrays', () => {
    const packed: Schema = { type: 'object', properties: { myArray: { type: 'array', fieldNumber: 3, items: { dataType: 'uint32' } } } };
    expect(codec.encode(packed, { myArray: [45, 678] }).toString('hex')).toBe('1a032da605');
    const strings: Schema = { type: 'object', properties: { myArray: { type: 'array', fieldNumber: 3, items: { dataType: 'string' } } } };
    expect(codec.encode(strings, { myArray: ['lisk', '', 'LSK'] }).toString('hex')).toBe('1a046c69736b1a001a034c534b');
    expect(codec.decode(strings, hex('1a046c69736b1a001a034c534b'))).toEqual({ myArray: ['lisk', '', 'LSK'] });
  });

  it('"More involved example": data examples 1-3', () => {
    const mySchema: Schema = {
      type: 'object',
      required: ['amount', 'name', 'myObject', 'myArray'],
      properties: {
        amount: { dataType: 'uint64', fieldNumber: 1 },
        name: { dataType: 'string', fieldNumber: 2 },
        myObject: {
          fieldNumber: 5,
          type: 'object',
          required: ['myAge', 'data'],
          properties: { myAge: { dataType: 'uint32', fieldNumber: 17 }, data: { dataType: 'bytes', fieldNumber: 3 } },
        },
        myArray: {
          fieldNumber: 3,
          type: 'array',
          items: {
            type: 'object',
            required: ['newName', 'aBoolean', 'numbers'],
            properties: {
              newName: { dataType: 'string', fieldNumber: 1 },
              aBoolean: { dataType: 'boolean', fieldNumber: 2 },
              numbers: { type: 'array', items: { dataType: 'sint32' }, fieldNumber: 3 },
            },
          },
        },
      },
    };
    const you = { newName: 'you', aBoolean: false, numbers: [1, -2, 678] };
    const they = { newName: 'they', aBoolean: true, numbers: [] };
    const examples: [object, string][] = [
      [{ amount: 3n, name: 'me', myObject: { myAge: 543, data: Buffer.alloc(0) }, myArray: [] }, '08031202 6d652a06 1a008801 9f04'],
      [
        { amount: 3n, name: 'me', myObject: { myAge: 543, data: hex('abcdef') }, myArray: [you] },
        '08 03 12 02 6d 65 1a 0d 0a 03 79 6f 75 10 00 1a 04 02 03 cc 0a 2a 09 1a 03 ab cd ef 88 01 9f 04',
      ],
      [
        { amount: 3n, name: 'me', myObject: { myAge: 543, data: hex('abcdef') }, myArray: [you, they] },
        '08 03 12 02 6d 65 1a 0d 0a 03 79 6f 75 10 00 1a 04 02 03 cc 0a 1a 08 0a 04 74 68 65 79 10 01 2a 09 1a 03 ab cd ef 88 01 9f 04',
      ],
    ];
    for (const [value, spaced] of examples) {
      const expected = spaced.replace(/ /g, '');
      const bytes = codec.encode(mySchema, value);
      expect(bytes.toString('hex')).toBe(expected);
      expect(codec.decode(mySchema, bytes)).toEqual(value);
    }
  });
});
