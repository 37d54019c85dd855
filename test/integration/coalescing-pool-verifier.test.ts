/**
 * Transactions posted one by one, verified together: the coalescing verifier gives every
 * caller exactly the result it would get alone (bad signatures, future and spent nonces
 * included), with the signatures checked in real worker threads, in one call per turn and tip.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transaction } from '../../src/chain/transaction.js';
import {
  CoalescingPoolVerifier,
  StateMachinePoolVerifier,
  tipOf,
  TransactionPool,
  type PoolTip,
  type PoolTransactionVerifier,
} from '../../src/engine/txpool/index.js';
import type { VerificationResult } from '../../src/modules/base/index.js';
import { offThreadWork, transactionPoolVerifier } from '../../src/node.js';
import { WorkerPool } from '../../src/workers/index.js';
import {
  accountNonce,
  devAccounts,
  openReplayedDevChain,
  signedTransfer,
  type DevAccount,
  type ReplayedChain,
} from '../unit/txpool/support.js';

const simplify = (results: VerificationResult[]) => results.map((result) => ({ status: result.status, error: result.error?.message }));

describe('CoalescingPoolVerifier (dev chain at height 46, 2 real worker threads)', () => {
  let replayed: ReplayedChain;
  let workers: WorkerPool;
  let transactions: Transaction[];
  const accounts = devAccounts();

  beforeAll(async () => {
    replayed = await openReplayedDevChain(46);
    workers = new WorkerPool({ threads: 2 });
    const fresh = accounts.filter((account) => accountNonce(replayed.chain, account.address) === 0n);
    const used = accounts.find((account) => accountNonce(replayed.chain, account.address) === 1n) as DevAccount;
    transactions = fresh.slice(0, 40).map((account, i) => {
      const tx = signedTransfer(account, { nonce: i % 5 === 4 ? 3n : 0n, recipient: accounts[102]!.address }, replayed.chainID);
      if (i % 3 !== 1) return tx;
      const signature = Buffer.from(tx.signatures[0] as Buffer);
      signature[i % 64] = (signature[i % 64] as number) ^ 0x10;
      return tx.withSignatures([signature]);
    });
    transactions.push(signedTransfer(used, { nonce: 0n, recipient: accounts[102]!.address }, replayed.chainID));
  });

  afterAll(async () => {
    await workers?.close();
    await replayed?.close();
  });

  it('answers each single-transaction call as the state machine alone would, in one batched call', async () => {
    const plain = new StateMachinePoolVerifier(replayed.chain.stateMachine);
    const batched = new StateMachinePoolVerifier(replayed.chain.stateMachine, offThreadWork(workers, { minPoolSet: 1 }).signatureVerifier);
    const calls: number[] = [];
    const recording: PoolTransactionVerifier = {
      verify: (batch: readonly Transaction[], tip: PoolTip) => {
        calls.push(batch.length);
        return batched.verify(batch, tip);
      },
    };
    const coalescing = new CoalescingPoolVerifier(recording);
    const tip = tipOf(replayed.chain);
    const expected: VerificationResult[] = [];
    for (const tx of transactions) expected.push(...(await plain.verify([tx], tip())));
    const answers = await Promise.all(transactions.map((tx) => coalescing.verify([tx], tip())));
    expect(answers.map((results) => results.length)).toEqual(transactions.map(() => 1));
    expect(simplify(answers.flat())).toEqual(simplify(expected));
    expect(calls).toEqual([transactions.length]);
    // The set covers valid, pending, bad-signature and spent-nonce verdicts.
    expect(new Set(expected.map((result) => result.status)).size).toBe(3);
    expect(expected.filter((result) => result.error?.message.startsWith('Failed to validate signature')).length).toBeGreaterThan(10);
    // A batch (a re-check) passes straight through.
    calls.length = 0;
    expect(simplify(await coalescing.verify(transactions, tip()))).toEqual(simplify(expected));
    expect(calls).toEqual([transactions.length]);
  });

  it('gives every waiting caller the error of a verifier that cannot work', async () => {
    const coalescing = new CoalescingPoolVerifier({ verify: () => Promise.reject(new Error('worker exited')) });
    const tip = tipOf(replayed.chain)();
    const outcomes = await Promise.allSettled(transactions.slice(0, 3).map((tx) => coalescing.verify([tx], tip)));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected']);
  });

  it('lets a pool admit concurrently posted transactions exactly as one verifying them one by one', async () => {
    const outcomesOf = async (verifier: PoolTransactionVerifier) => {
      const pool = new TransactionPool({ verifier, tip: tipOf(replayed.chain) });
      const results = await Promise.all(transactions.map((tx) => pool.add(tx)));
      return results.map((result) => (result.status === 'rejected' ? `${result.status}: ${result.error.message}` : result.status));
    };
    const plain = await outcomesOf(new StateMachinePoolVerifier(replayed.chain.stateMachine));
    // The node's pool verifier with a worker pool behind it: coalescing, batched signatures.
    const coalesced = await outcomesOf(
      transactionPoolVerifier(replayed.chain, offThreadWork(workers, { minPoolSet: 1 }).signatureVerifier),
    );
    expect(coalesced).toEqual(plain);
    expect(new Set(plain.map((outcome) => outcome.split(':')[0]))).toEqual(new Set(['added', 'rejected']));
  });
});
