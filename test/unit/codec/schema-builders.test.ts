/**
 * The schema builders: what they build must be the literal they stand for, key order included,
 * since schemas reach `system_getMetadata` answers as JSON.
 */
import { describe, expect, it } from 'vitest';
import { objectArrayField, objectField, objectOf, objectSchema } from '../../../src/codec/index.js';

describe('schema builders', () => {
  it('objectSchema derives `required` from the members, in their order, after $id and type', () => {
    const built = objectSchema('/x', {
      b: { dataType: 'uint32', fieldNumber: 1 },
      a: { dataType: 'bytes', fieldNumber: 2, format: 'lisk32' },
    });
    expect(JSON.stringify(built)).toBe(
      JSON.stringify({
        $id: '/x',
        type: 'object',
        required: ['b', 'a'],
        properties: { b: { dataType: 'uint32', fieldNumber: 1 }, a: { dataType: 'bytes', fieldNumber: 2, format: 'lisk32' } },
      }),
    );
  });

  it('objectField puts the field number after the type, objectOf has none', () => {
    const members = { x: { dataType: 'string', fieldNumber: 1 } } as const;
    expect(JSON.stringify(objectField(3, members))).toBe(
      '{"type":"object","fieldNumber":3,"required":["x"],"properties":{"x":{"dataType":"string","fieldNumber":1}}}',
    );
    expect(JSON.stringify(objectOf(members))).toBe(
      '{"type":"object","required":["x"],"properties":{"x":{"dataType":"string","fieldNumber":1}}}',
    );
  });

  it('objectArrayField writes its keywords between fieldNumber and items, and none when not given', () => {
    expect(JSON.stringify(objectArrayField(2, {}))).toBe(
      '{"type":"array","fieldNumber":2,"items":{"type":"object","required":[],"properties":{}}}',
    );
    expect(JSON.stringify(objectArrayField(1, { a: { dataType: 'uint64', fieldNumber: 1 } }, { minItems: 1, maxItems: 20 }))).toBe(
      '{"type":"array","fieldNumber":1,"minItems":1,"maxItems":20,"items":{"type":"object","required":["a"],"properties":{"a":{"dataType":"uint64","fieldNumber":1}}}}',
    );
  });

  it('an object without members has an empty `required` list', () => {
    expect(objectSchema('/empty', {})).toEqual({ $id: '/empty', type: 'object', required: [], properties: {} });
  });
});
