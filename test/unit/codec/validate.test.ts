/** validate(): decoded values against codec schemas and JSON values against plain JSON schemas. */
import { describe, expect, it } from 'vitest';
import { validate, validationErrors } from '../../../src/codec/index.js';
import type { Schema } from '../../../src/codec/index.js';
import { ValidationError } from '../../../src/errors.js';
import { loadJsonFixture } from '../../support/fixtures.js';

function errorsOf(schema: object, value: unknown): readonly string[] {
  try {
    validate(schema, value);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).errors;
  }
  return [];
}

describe('validate: codec schemas and decoded values', () => {
  const { transaction } = loadJsonFixture<{ schemas: Record<string, Schema> }>('codec/protocol_schemas.json').schemas;
  const tx = {
    module: 'token',
    command: 'transfer',
    nonce: 0n,
    fee: 100000n,
    senderPublicKey: Buffer.alloc(32, 1),
    params: Buffer.alloc(10),
    signatures: [Buffer.alloc(64)],
  };

  it('accepts a valid transaction', () => {
    expect(errorsOf(transaction as Schema, tx)).toEqual([]);
  });

  it('collects every error with its path', () => {
    const bad = { ...tx, module: '', command: 'x'.repeat(33), nonce: 1, senderPublicKey: Buffer.alloc(31), signatures: ['00'] };
    delete (bad as Partial<typeof bad>).fee;
    expect(errorsOf(transaction as Schema, bad)).toEqual([
      ": must have required property 'fee'",
      '.module: must NOT have fewer than 1 characters',
      '.command: must NOT have more than 32 characters',
      '.nonce: must be uint64',
      '.senderPublicKey: must NOT have fewer than 32 bytes',
      '.signatures[0]: must be bytes',
    ]);
  });

  it('checks every dataType range', () => {
    const schema: Schema = {
      type: 'object',
      properties: {
        a: { dataType: 'uint32', fieldNumber: 1 },
        b: { dataType: 'sint32', fieldNumber: 2 },
        c: { dataType: 'uint64', fieldNumber: 3 },
        d: { dataType: 'sint64', fieldNumber: 4 },
        e: { dataType: 'boolean', fieldNumber: 5 },
        f: { dataType: 'string', fieldNumber: 6 },
        g: { dataType: 'bytes', fieldNumber: 7, format: 'lisk32' },
      },
    };
    expect(errorsOf(schema, { a: 2 ** 32, b: 2 ** 31, c: 2n ** 64n, d: -(2n ** 63n) - 1n, e: 1, f: 5, g: Buffer.alloc(21) })).toEqual([
      '.a: must be uint32',
      '.b: must be sint32',
      '.c: must be uint64',
      '.d: must be sint64',
      '.e: must be boolean',
      '.f: must be string',
      '.g: must be 20 bytes (format lisk32)',
    ]);
    expect(
      errorsOf(schema, { a: 2 ** 32 - 1, b: -(2 ** 31), c: 2n ** 64n - 1n, d: -(2n ** 63n), e: true, f: '', g: Buffer.alloc(20) }),
    ).toEqual([]);
  });

  it('reports a root that is not an object with the empty path', () => {
    expect(errorsOf(transaction as Schema, 'tx')).toEqual([': must be object']);
  });
});

describe('validate: plain JSON schemas (endpoint requests, configs)', () => {
  const request = {
    type: 'object',
    required: ['address', 'items'],
    additionalProperties: false,
    properties: {
      address: { type: 'string', format: 'lisk32' },
      tokenID: { type: 'string', format: 'hex', minLength: 16, maxLength: 16 },
      height: { type: 'integer', minimum: 0, maximum: 100 },
      name: { type: 'string', pattern: '^[a-z]+$' },
      mode: { type: 'string', enum: ['plain', 'encrypted'] },
      jsonrpc: { const: '2.0' },
      items: {
        type: 'array',
        minItems: 1,
        maxItems: 3,
        uniqueItems: true,
        items: { type: 'object', required: ['amount'], properties: { amount: { type: 'string', format: 'uint64' } } },
      },
    },
  };

  it('accepts a valid request', () => {
    const ok = { address: 'lskhqy429nwm2tew3j5j29ef6pguyynf6jxcmgrh2', tokenID: '0000000000000000', height: 3, items: [{ amount: '1' }] };
    expect(errorsOf(request, ok)).toEqual([]);
  });

  it('names the path of every error', () => {
    const bad = {
      address: 'lsk123',
      tokenID: 'zz',
      height: 101,
      name: 'A',
      mode: 'other',
      jsonrpc: '1.0',
      foo: 1,
      items: [{ amount: '1' }, { amount: '1' }, { amount: '-1' }, { amount: 2 }],
    };
    expect(errorsOf(request, bad)).toEqual([
      '.address: must match format "lisk32"',
      '.tokenID: must NOT have fewer than 16 characters',
      '.tokenID: must match format "hex"',
      '.height: must be <= 100',
      '.name: must match pattern "^[a-z]+$"',
      '.mode: must be equal to one of the allowed values',
      '.jsonrpc: must be equal to constant',
      '.items: must NOT have more than 3 items',
      '.items: must NOT have duplicate items (items ## 1 and 0 are identical)',
      '.items[2].amount: must match format "uint64"',
      '.items[3].amount: must be string',
      ": must NOT have additional properties ('foo')",
    ]);
  });

  it('reports required properties and wrong types', () => {
    expect(errorsOf(request, {})).toEqual([": must have required property 'address'", ": must have required property 'items'"]);
    expect(errorsOf(request, null)).toEqual([': must be object']);
    expect(errorsOf(request, { address: 'lskhqy429nwm2tew3j5j29ef6pguyynf6jxcmgrh2', items: [], height: 1.5 })).toEqual([
      '.height: must be integer',
      '.items: must NOT have fewer than 1 items',
    ]);
  });

  it('supports oneOf / anyOf / type lists / additionalProperties schemas / propertyNames', () => {
    const keys = {
      type: 'object',
      properties: { type: { enum: ['plain', 'encrypted'] } },
      oneOf: [
        { properties: { type: { const: 'plain' } }, required: ['data'] },
        { properties: { type: { const: 'encrypted' } }, required: ['cipher'] },
      ],
    };
    expect(validationErrors(keys, { type: 'plain', data: {} })).toEqual([]);
    expect(validationErrors(keys, { type: 'plain' })).toEqual([': must match exactly one schema in oneOf']);
    expect(validationErrors({ anyOf: [{ type: 'string' }, { type: 'integer' }] }, true)).toEqual([': must match a schema in anyOf']);
    expect(validationErrors({ type: ['string', 'null'] }, 1)).toEqual([': must be string,null']);
    const modules = { type: 'object', propertyNames: { pattern: '^[a-z]+$' }, additionalProperties: { type: 'object' } };
    expect(validationErrors(modules, { token: {}, Bad: {}, pos: 1 })).toEqual(['.pos: must be object', ": property name 'Bad' is invalid"]);
  });

  it('checks the lisk-validator and ajv formats', () => {
    const cases: [string, unknown, unknown][] = [
      ['hex', 'abCD', 'abc'],
      ['lisk32', 'lskzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz5fw596', 'lskzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz5fw597'],
      ['uint64', '18446744073709551615', '18446744073709551616'],
      ['int64', '-9223372036854775808', '9223372036854775808'],
      ['uint32', 4294967295, -1],
      ['int32', -2147483648, 2147483648],
      ['camelCase', 'blockTime', 'BlockTime'],
      ['path', '~/.lisk/basalt', 'no-slash'],
      ['ip', '::1', '256.0.0.1'],
      ['ip', '127.0.0.1', '01.2.3.4'],
      ['version', '1.2.3-beta.1+build', '1.2'],
      ['base64', 'aGVsbG8=', 'aGVsbG8'],
    ];
    for (const [format, good, bad] of cases) {
      const schema = { format };
      expect(validationErrors(schema, good), `${format} ${String(good)}`).toEqual([]);
      expect(validationErrors(schema, bad), `${format} ${String(bad)}`).toEqual([`: must match format "${format}"`]);
    }
    // A format only applies to values of its JSON type.
    expect(validationErrors({ format: 'uint32' }, 'x')).toEqual([]);
    expect(validationErrors({ format: 'hex' }, 5)).toEqual([]);
  });

  it('throws ValidationError with the error list, and refuses unknown formats and $ref', () => {
    let thrown: unknown;
    try {
      validate(request, {});
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect((thrown as ValidationError).errors).toHaveLength(2);
    expect((thrown as Error).message).toBe(": must have required property 'address'; : must have required property 'items'");
    expect(() => validate({ format: 'nope' }, 'x')).toThrow('schema #: unknown format "nope"');
    expect(() => validate({ properties: { a: { $ref: '#' } } }, {})).toThrow('schema #/properties/a: unsupported keyword "$ref"');
  });
});
