/**
 * 10,000 real signed transfers from 100 dev accounts (100 nonces each, shuffled, fee priorities
 * spread over 1000..1499) into a pool of lisk's default 4096: the pool stays consistent through
 * thousands of evictions, a block is produced from it, and the re-check of the remaining 4,000
 * transactions against the new tip leaves exactly the runs that still apply. (Only behaviour is
 * asserted; the cost of the run is reported by the test's duration.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transaction } from '../../src/chain/transaction.js';
import type { TransactionPool } from '../../src/engine/txpool/index.js';
import {
  accountNonce,
  blockProducer,
  devAccounts,
  newPool,
  openReplayedDevChain,
  signedTransfer,
  type PoolSetup,
  type ReplayedChain,
} from '../unit/txpool/support.js';

const ACCOUNTS = 100;
const NONCES = 100;

/** Deterministic shuffle (LCG), so a failure reproduces. */
function shuffled<T>(items: T[], seed: number): T[] {
  let state = seed >>> 0;
  for (let i = items.length - 1; i > 0; i -= 1) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const j = state % (i + 1);
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

/** Every structural promise of the pool, checked from its public surface. */
function expectConsistent(pool: TransactionPool, nonceOf: (address: Buffer) => bigint): void {
  const all = pool.getAll();
  expect(new Set(all.map((tx) => tx.id.toString('hex'))).size).toBe(all.length);
  expect(all.length).toBe(pool.size);
  const processable = pool.getProcessableTransactions();
  const senders = new Map<string, Transaction[]>();
  for (const tx of all) {
    const key = tx.senderAddress().toString('hex');
    senders.set(key, [...(senders.get(key) ?? []), tx]);
  }
  let processableCount = 0;
  for (const [sender, txs] of senders) {
    const own = pool.getByAddress(Buffer.from(sender, 'hex'));
    expect(own.length).toBe(txs.length);
    expect(own.length).toBeLessThanOrEqual(pool.config.maxTransactionsPerAccount);
    for (let i = 1; i < own.length; i += 1) expect(own[i]!.nonce > own[i - 1]!.nonce).toBe(true);
    // The run: from the account nonce, without gaps.
    let expected = 0;
    const accountNonceNow = nonceOf(Buffer.from(sender, 'hex'));
    while (expected < own.length && own[expected]!.nonce === accountNonceNow + BigInt(expected)) expected += 1;
    const run = processable.get(sender) ?? [];
    expect(run.length).toBe(expected);
    expect(run.map((tx) => tx.id)).toEqual(own.slice(0, expected).map((tx) => tx.id));
    processableCount += expected;
  }
  expect(processable.size).toBe([...processable.keys()].filter((sender) => senders.has(sender)).length);
  expect(pool.stats()).toEqual({
    size: all.length,
    processable: processableCount,
    unprocessable: all.length - processableCount,
    accounts: senders.size,
  });
}

describe('TransactionPool under load', () => {
  let replayed: ReplayedChain;
  let setup: PoolSetup;
  const accounts = devAccounts().slice(0, ACCOUNTS);

  beforeAll(async () => {
    replayed = await openReplayedDevChain(3);
    setup = newPool(replayed, { maxTransactionsPerAccount: NONCES });
  });

  afterAll(async () => {
    await replayed?.close();
  });

  /** transactions[n][a]: account a's transfer with nonce n. */
  let transactions: Transaction[][];

  it('takes 10,000 shuffled transactions into a pool of 4096 and stays consistent', async () => {
    const { pool } = setup;
    for (const account of accounts) expect(accountNonce(replayed.chain, account.address)).toBe(0n);
    transactions = [];
    for (let n = 0; n < NONCES; n += 1) {
      const round: Transaction[] = [];
      for (let a = 0; a < ACCOUNTS; a += 1) {
        const priority = 1000 + ((a * 7919 + n * 104729) % 500);
        const recipient = accounts[(a + 1) % ACCOUNTS]!.address;
        round.push(signedTransfer(accounts[a]!, { nonce: BigInt(n), priority, amount: 1000n, recipient }, replayed.chainID));
      }
      transactions.push(round);
    }
    const tally = new Map<string, number>();
    for (const tx of shuffled(transactions.flat(), 42)) {
      const result = await pool.add(tx);
      const key = result.status === 'rejected' ? result.error.reason : result.status;
      tally.set(key, (tally.get(key) ?? 0) + 1);
    }
    expect([...tally.values()].reduce((a, b) => a + b, 0)).toBe(10_000);
    // Shuffled nonces are mostly future ones: with at least half of the pool unprocessable, lisk's
    // rule admits every newcomer by evicting the lowest-priority unprocessable transaction.
    expect(tally).toEqual(new Map([['added', 10_000]]));
    expect(pool.size).toBe(4096);
    const evicted = setup.events.removed.filter(({ reason }) => reason.code === 'evicted').length;
    expect(evicted).toBe((tally.get('added') as number) - 4096);
    expect(setup.events.removed).toHaveLength(evicted);
    expectConsistent(pool, () => 0n);
    expect(pool.stats().processable).toBeGreaterThan(0);
  });

  it('takes them in nonce order (each processable on arrival): refuses what does not beat the lowest, else evicts sender tails', async () => {
    const { pool, events } = newPool(replayed, { maxTransactionsPerAccount: NONCES });
    const tally = new Map<string, number>();
    for (const round of transactions) {
      for (const tx of round) {
        const result = await pool.add(tx);
        const key = result.status === 'rejected' ? result.error.reason : result.status;
        tally.set(key, (tally.get(key) ?? 0) + 1);
      }
    }
    const added = tally.get('added') as number;
    expect(added + (tally.get('pool-full') as number)).toBe(10_000);
    expect(tally.get('pool-full')).toBeGreaterThan(0);
    expect(pool.size).toBe(4096);
    expect(events.removed.map(({ reason }) => reason.code)).toEqual(new Array(added - 4096).fill('evicted'));
    // A sender whose tail was evicted or refused has a gap above it: later nonces wait unprocessable.
    expectConsistent(pool, () => 0n);
    expect(pool.stats().processable).toBeGreaterThan(4000);
  });

  it('produces a block from it, drops the included transactions and re-checks the other 4,000', async () => {
    const { pool } = setup;
    const before = pool.size;
    const block = await blockProducer(replayed)(pool.candidates());
    expect(block.transactions.length).toBeGreaterThan(50);
    await pool.onNewBlock(block);
    for (const tx of block.transactions) expect(pool.contains(tx.id)).toBe(false);
    expect(pool.size).toBe(before - block.transactions.length);
    expectConsistent(pool, (address) => accountNonce(replayed.chain, address));
  });
});
