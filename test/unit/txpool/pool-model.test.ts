/**
 * Differential test: random sequences of real signed transfers (verified by the chain's state
 * machine on the dev chain at height 3) go into the pool and into a naive reference model of the
 * same rules; after every step both hold the same transactions with the same processable runs.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transaction } from '../../../src/chain/transaction.js';
import { feePriority, type AddTransactionResult } from '../../../src/engine/txpool/index.js';
import { ReferencePool, type ModelOutcome, type ModelTransaction } from './reference-pool.js';
import { devAccounts, newPool, openReplayedDevChain, signedTransfer, type ReplayedChain } from './support.js';

const LIMITS = { maxTransactions: 6, maxTransactionsPerAccount: 3, minReplacementFeeDifference: 10n, minEntranceFeePriority: 1001n };
const SENDERS = devAccounts().slice(40, 44);

function outcome(result: AddTransactionResult): ModelOutcome {
  return result.status === 'rejected' ? `rejected:${result.error.reason}` : result.status;
}

describe('TransactionPool against a reference model', () => {
  let replayed: ReplayedChain;
  const signed = new Map<string, Transaction>();

  beforeAll(async () => {
    replayed = await openReplayedDevChain(3);
  });

  afterAll(async () => {
    await replayed?.close();
  });

  /** Signing is the slow part: each distinct transfer is signed once for all runs. */
  function transfer(sender: number, nonce: bigint, priority: number, bump: bigint, overspend: boolean): Transaction {
    const key = `${sender}/${nonce}/${priority}/${bump}/${overspend}`;
    let tx = signed.get(key);
    if (!tx) {
      const account = SENDERS[sender]!;
      const fields = { nonce, amount: overspend ? 10n ** 18n : undefined, recipient: SENDERS[0]!.address };
      const base = signedTransfer(account, { ...fields, priority }, replayed.chainID);
      tx = signedTransfer(account, { ...fields, fee: base.fee + bump }, replayed.chainID);
      signed.set(key, tx);
    }
    return tx;
  }

  it('agrees on every outcome, the pooled set and the processable runs (property)', async () => {
    const step = fc.oneof(
      {
        weight: 8,
        arbitrary: fc.record({
          kind: fc.constant('add' as const),
          sender: fc.integer({ min: 0, max: SENDERS.length - 1 }),
          nonce: fc.bigInt({ min: 0n, max: 3n }),
          priority: fc.integer({ min: 1000, max: 1006 }),
          bump: fc.constantFrom(0n, 5n, 12n, 40n),
          overspend: fc.integer({ min: 0, max: 9 }).map((value) => value < 2),
        }),
      },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }) },
    );
    const seen = new Map<string, number>();
    const count = (key: string) => seen.set(key, (seen.get(key) ?? 0) + 1);
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 10, maxLength: 40 }), async (steps) => {
        const { pool, events } = newPool(replayed, LIMITS);
        const model = new ReferencePool(LIMITS, () => 0n);
        for (const op of steps) {
          if (op.kind === 'add') {
            const tx = transfer(op.sender, op.nonce, op.priority, op.bump, op.overspend);
            const modelTx: ModelTransaction = {
              id: tx.id.toString('hex'),
              sender: tx.senderAddress().toString('hex'),
              nonce: tx.nonce,
              fee: tx.fee,
              priority: feePriority(tx),
              status: tx.nonce > 0n ? 'pending' : op.overspend ? 'fail' : 'ok',
            };
            const result = outcome(await pool.add(tx));
            expect(result).toBe(model.add(modelTx));
            count(result);
          } else {
            const all = pool.getAll();
            if (all.length === 0) continue;
            const victim = all[op.pick % all.length] as Transaction;
            expect(pool.remove(victim)).toBe(model.drop(victim.id.toString('hex')));
          }
          expect(
            pool
              .getAll()
              .map((tx) => tx.id.toString('hex'))
              .sort(),
          ).toEqual(model.ids());
          const runs = new Map(
            [...pool.getProcessableTransactions()].map(([sender, txs]) => [sender, txs.map((tx) => tx.id.toString('hex'))]),
          );
          expect(runs).toEqual(model.processable());
          expect(pool.stats().unprocessable).toBe(model.unprocessableCount());
        }
        for (const { reason } of events.removed) count(`removed:${reason.code}`);
      }),
      { numRuns: 200 },
    );
    // Every rule was exercised.
    for (const key of [
      'added',
      'replaced',
      'duplicate',
      'rejected:pool-full',
      'rejected:account-limit',
      'rejected:replacement-fee-too-low',
      'rejected:fee-priority-too-low',
      'rejected:invalid',
      'removed:evicted',
      'removed:account-limit',
      'removed:replaced',
    ]) {
      expect(seen.get(key) ?? 0, key).toBeGreaterThan(0);
    }
  });
});
