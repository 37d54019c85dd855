import { createHash } from 'node:crypto';

/**
 * Module store prefix (LIP 0040): the first 4 bytes of sha256(module name)
 * with the top bit cleared, which keeps module keys away from the engine's own prefixes.
 */
export function computeStorePrefix(moduleName: string): Buffer {
  const prefix = createHash('sha256').update(moduleName, 'utf8').digest().subarray(0, 4);
  prefix[0] = (prefix[0] as number) & 0x7f;
  return Buffer.from(prefix);
}

/**
 * Substore prefix (lisk-sdk base_store.ts computeSubstorePrefix): the 16-bit bit-reversal of the
 * substore's index, so that index 0 → 0000, 1 → 8000, 2 → 4000, 3 → c000.
 */
export function computeSubstorePrefix(index: number): Buffer {
  if (!Number.isInteger(index) || index < 0 || index > 0xffff) {
    throw new RangeError(`Substore index must be an integer in 0..65535, got ${index}`);
  }
  let reversed = 0;
  for (let bit = 0; bit < 16; bit += 1) {
    if (index & (1 << bit)) reversed |= 1 << (15 - bit);
  }
  const prefix = Buffer.alloc(2);
  prefix.writeUInt16BE(reversed);
  return prefix;
}
