import { describe, expect, it } from 'vitest';
import { MethodAccess } from '../../../src/rpc/access-control.js';
import type { RpcMethod } from '../../../src/rpc/registry.js';

const method = (namespace: string, name: string, sensitive?: boolean): RpcMethod => ({ namespace, name, sensitive, invoke: () => 1 });

describe('MethodAccess', () => {
  const getAllKeys = method('generator', 'getAllKeys', true);
  const getLastBlock = method('chain', 'getLastBlock');

  it('lets public methods through whatever the list', () => {
    expect(new MethodAccess([]).allows(getLastBlock)).toBe(true);
    expect(new MethodAccess(['generator']).allows(method('chain', 'getLastBlock', false))).toBe(true);
  });

  it.each([
    [[], false],
    [['generator'], true],
    [['generator_getAllKeys'], true],
    [['*'], true],
    [['generator_getStatus'], false],
    [['Generator'], false],
    [['gen'], false],
    [['generator_'], false],
    [['getAllKeys'], false],
    [['chain', 'system'], false],
  ] as const)('sensitive generator_getAllKeys with %j → %s', (allowed, expected) => {
    expect(new MethodAccess(allowed).allows(getAllKeys)).toBe(expected);
  });
});
