import { describe, expect, it } from 'vitest';
import { AccountTransactions, type PoolEntry } from '../../../src/engine/txpool/index.js';
import { VerifyStatus } from '../../../src/modules/base/index.js';

/** Entries carry a real-looking shape; the list only reads nonce and status. */
function entry(nonce: bigint, status: VerifyStatus = VerifyStatus.PENDING): PoolEntry {
  return {
    transaction: undefined as never,
    id: `id-${nonce}`,
    sender: 'aa',
    nonce,
    feePriority: 1000n,
    receivedAt: 0,
    sequence: Number(nonce),
    status,
    processable: false,
  };
}

describe('AccountTransactions', () => {
  it('keeps entries in nonce order whatever the insertion order', () => {
    const list = new AccountTransactions('aa');
    for (const nonce of [5n, 1n, 3n, 0n, 4n]) list.insert(entry(nonce));
    expect(list.all().map((e) => e.nonce)).toEqual([0n, 1n, 3n, 4n, 5n]);
    expect(list.size).toBe(5);
    expect(list.highest()?.nonce).toBe(5n);
    expect(list.get(3n)?.nonce).toBe(3n);
    expect(list.get(2n)).toBeUndefined();
    expect(() => list.insert(entry(3n))).toThrow('Nonce 3 is already pooled for aa.');
  });

  it('removes only the entry it holds', () => {
    const list = new AccountTransactions('aa');
    const kept = entry(1n);
    list.insert(kept);
    expect(list.remove(entry(1n))).toBe(false);
    expect(list.remove(kept)).toBe(true);
    expect(list.size).toBe(0);
    expect(list.highest()).toBeUndefined();
  });

  it('counts the processable run: an OK head, then consecutive nonces', () => {
    const list = new AccountTransactions('aa');
    expect(list.processablePrefixLength()).toBe(0);
    list.insert(entry(8n));
    list.insert(entry(6n));
    list.insert(entry(7n));
    expect(list.processablePrefixLength()).toBe(0);
    list.insert(entry(5n, VerifyStatus.OK));
    expect(list.processablePrefixLength()).toBe(4);
    list.insert(entry(10n));
    expect(list.processablePrefixLength()).toBe(4);
    list.insert(entry(9n));
    expect(list.processablePrefixLength()).toBe(6);
  });
});
