/**
 * Typed reads of the block's contextStore (lisk-sdk state_machine/utils.ts): an absent entry
 * reads as false / 0; an entry of the wrong type is a programming error.
 */

export function contextStoreBool(store: Map<string, unknown>, key: string): boolean {
  const value = store.get(key);
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw new TypeError(`Invalid context value under ${key}: expected a boolean.`);
  return value;
}

export function contextStoreBigInt(store: Map<string, unknown>, key: string): bigint {
  const value = store.get(key);
  if (value === undefined) return 0n;
  if (typeof value !== 'bigint') throw new TypeError(`Invalid context value under ${key}: expected a bigint.`);
  return value;
}
