/**
 * The pool's entry rules on a real chain: the dev chain replayed to height 46, transfers signed
 * with the dev validators' keys and verified by the chain's own state machine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeMinFee } from '../../../src/chain/min-fee.js';
import { Transaction } from '../../../src/chain/transaction.js';
import { ed25519KeyPairFromPassphrase } from '../../../src/crypto/index.js';
import { ValidationError } from '../../../src/errors.js';
import {
  EXPIRE_INTERVAL_MS,
  StateMachinePoolVerifier,
  tipOf,
  TransactionPool,
  type AddTransactionResult,
} from '../../../src/engine/txpool/index.js';
import type { VerificationResult } from '../../../src/modules/base/index.js';
import { offThreadWork } from '../../../src/node.js';
import { WorkerPool } from '../../../src/workers/index.js';
import { loadJsonFixture } from '../../support/fixtures.js';
import {
  accountNonce,
  availableBalance,
  devAccounts,
  hexIds,
  newPool,
  openReplayedDevChain,
  signedTransfer,
  type DevAccount,
  type ReplayedChain,
} from './support.js';

const TIP_HEIGHT = 46;

function rejection(result: AddTransactionResult): { reason: string; message: string } {
  if (result.status !== 'rejected') throw new Error(`expected a rejection, got ${result.status}`);
  return { reason: result.error.reason, message: result.error.message };
}

describe('TransactionPool entry rules on the dev chain', () => {
  let replayed: ReplayedChain;
  const accounts = devAccounts();
  /** Accounts with nonce 0 at the tip. */
  let fresh: DevAccount[];
  /** An account whose nonce is 1 at the tip (it changed its commission in block 46). */
  let used: DevAccount;

  beforeAll(async () => {
    replayed = await openReplayedDevChain(TIP_HEIGHT);
    fresh = accounts.filter((account) => accountNonce(replayed.chain, account.address) === 0n);
    used = accounts.find((account) => accountNonce(replayed.chain, account.address) === 1n) as DevAccount;
  });

  afterAll(async () => {
    await replayed?.close();
  });

  const transfer = (sender: DevAccount, nonce: bigint, extra: { priority?: number; fee?: bigint; amount?: bigint; data?: string } = {}) =>
    signedTransfer(sender, { nonce, recipient: accounts[102]!.address, ...extra }, replayed.chainID);

  it('signs for the dev validators with the keys derived from the published passphrase', () => {
    const { passphrase } = loadJsonFixture<{ passphrase: string }>('genesis/pos-mainchain-default/passphrase.json');
    for (const account of accounts.slice(0, 3)) {
      const derived = ed25519KeyPairFromPassphrase(passphrase, account.keyPath);
      expect(derived.publicKey).toEqual(account.publicKey);
      expect(derived.privateKey).toEqual(account.privateKey);
    }
    expect(fresh.length).toBe(101);
    expect(used).toBeDefined();
    expect(availableBalance(replayed.chain, fresh[0]!.address)).toBe(1_000_000_000_000n);
  });

  it('accepts a valid transfer as processable and reports it to listeners', async () => {
    const { pool, events } = newPool(replayed);
    const tx = transfer(fresh[0]!, 0n);
    const result = await pool.add(tx);
    expect(result).toEqual({ status: 'added', id: tx.id, processable: true });
    expect(pool.size).toBe(1);
    expect(pool.contains(tx.id)).toBe(true);
    expect(pool.get(tx.id)).toBe(tx);
    expect(pool.getByAddress(fresh[0]!.address)).toEqual([tx]);
    expect([...pool.getProcessableTransactions()]).toEqual([[fresh[0]!.address.toString('hex'), [tx]]]);
    expect(hexIds(events.added)).toEqual(hexIds([tx]));
    expect(pool.stats()).toEqual({ size: 1, processable: 1, unprocessable: 0, accounts: 1 });
  });

  it('answers a duplicate without an error, and concurrent adds of one transaction share one result', async () => {
    const { pool, events } = newPool(replayed);
    const tx = transfer(fresh[0]!, 0n);
    const [first, second] = await Promise.all([pool.add(tx), pool.add(Transaction.fromBytes(tx.bytes))]);
    expect(first).toBe(second);
    expect(first.status).toBe('added');
    expect(await pool.add(tx)).toEqual({ status: 'duplicate', id: tx.id });
    expect(events.added).toHaveLength(1);
  });

  it('rejects a transaction whose signature does not verify', async () => {
    const { pool, events } = newPool(replayed);
    const good = transfer(fresh[0]!, 0n);
    const signature = Buffer.from(good.signatures[0]!);
    signature[10] ^= 0x01;
    const bad = good.withSignatures([signature]);
    const { reason, message } = rejection(await pool.add(bad));
    expect(reason).toBe('invalid');
    expect(message).toBe(`Failed to validate signature '${signature.toString('hex')}' for transaction with id '${bad.id.toString('hex')}'`);
    // Signed by another key than the sender's.
    const foreign = good.withSignatures([transfer(fresh[1]!, 0n).signatures[0]!]);
    expect(rejection(await pool.add(foreign)).reason).toBe('invalid');
    expect(pool.size).toBe(0);
    expect(events.added).toHaveLength(0);
  });

  it('rejects a nonce below the account nonce', async () => {
    const { pool } = newPool(replayed);
    const tx = transfer(used, 0n);
    const { reason, message } = rejection(await pool.add(tx));
    expect(reason).toBe('invalid');
    expect(message).toBe(`Transaction with id:${tx.id.toString('hex')} nonce is lower than account nonce.`);
    expect((await pool.add(transfer(used, 1n))).status).toBe('added');
  });

  it('rejects a fee below minFeePerByte × size at the account nonce', async () => {
    const { pool } = newPool(replayed);
    const exact = transfer(fresh[0]!, 0n);
    const tooLow = transfer(fresh[0]!, 0n, { fee: exact.fee - 1n });
    expect(tooLow.size).toBe(exact.size);
    const { reason, message } = rejection(await pool.add(tooLow));
    expect(reason).toBe('invalid');
    expect(message).toBe(`Insufficient transaction fee. Minimum required fee is ${exact.fee}.`);
    expect((await pool.add(exact)).status).toBe('added');
  });

  it('rejects a transfer of more than the available balance, and a fee above it', async () => {
    const { pool } = newPool(replayed);
    const sender = fresh[0]!;
    const balance = availableBalance(replayed.chain, sender.address);
    const amountTooHigh = rejection(await pool.add(transfer(sender, 0n, { amount: balance + 1n })));
    expect(amountTooHigh.reason).toBe('invalid');
    expect(amountTooHigh.message).toBe(`${sender.lisk32} balance ${balance} is not sufficient for ${balance + 1n}.`);
    const feeTooHigh = rejection(await pool.add(transfer(sender, 0n, { fee: balance + 1n, amount: 1n })));
    expect(feeTooHigh).toEqual({ reason: 'invalid', message: 'Insufficient balance.' });
    expect(pool.size).toBe(0);
  });

  it('rejects statically invalid and oversized transactions before verifying them', async () => {
    const { pool } = newPool(replayed);
    const unsigned = transfer(fresh[0]!, 0n).withSignatures([]);
    expect(rejection(await pool.add(unsigned)).reason).toBe('malformed');
    const small = newPool(replayed, { maxPayloadLength: 100 }).pool;
    const tx = transfer(fresh[0]!, 0n);
    expect(rejection(await small.add(tx))).toEqual({ reason: 'too-large', message: 'Transaction byte length is greater than 100' });
  });

  it('applies minEntranceFeePriority to fee / size, rounded down', async () => {
    const { pool } = newPool(replayed, { minEntranceFeePriority: 1200n });
    const below = transfer(fresh[0]!, 0n, { priority: 1199 });
    expect(below.fee / BigInt(below.size)).toBe(1199n);
    expect(rejection(await pool.add(below)).reason).toBe('fee-priority-too-low');
    // One beddow short of 1200 per byte rounds down to 1199.
    const almost = transfer(fresh[0]!, 0n, { fee: transfer(fresh[0]!, 0n, { priority: 1200 }).fee - 1n });
    expect(rejection(await pool.add(almost)).reason).toBe('fee-priority-too-low');
    expect((await pool.add(transfer(fresh[0]!, 0n, { priority: 1200 }))).status).toBe('added');
  });

  it('keeps future nonces unprocessable and promotes them when the gap fills', async () => {
    const { pool } = newPool(replayed);
    const sender = fresh[1]!;
    const [tx0, tx1, tx2, tx4] = [0n, 1n, 2n, 4n].map((nonce) => transfer(sender, nonce)) as [
      Transaction,
      Transaction,
      Transaction,
      Transaction,
    ];
    expect(await pool.add(tx2)).toEqual({ status: 'added', id: tx2.id, processable: false });
    expect(await pool.add(tx4)).toEqual({ status: 'added', id: tx4.id, processable: false });
    expect(await pool.add(tx1)).toEqual({ status: 'added', id: tx1.id, processable: false });
    expect(pool.getProcessableTransactions().size).toBe(0);
    expect(pool.stats()).toEqual({ size: 3, processable: 0, unprocessable: 3, accounts: 1 });
    expect(await pool.add(tx0)).toEqual({ status: 'added', id: tx0.id, processable: true });
    const processable = pool.getProcessableTransactions().get(sender.address.toString('hex'));
    expect(hexIds(processable ?? [])).toEqual(hexIds([tx0, tx1, tx2]));
    expect(pool.stats()).toEqual({ size: 4, processable: 3, unprocessable: 1, accounts: 1 });
    expect(hexIds(pool.getByAddress(sender.address))).toEqual(hexIds([tx0, tx1, tx2, tx4]));
  });

  it('keeps a future nonce whose fee is too low, as lisk-sdk does (the fee is checked once it is next)', async () => {
    const { pool } = newPool(replayed);
    const sender = fresh[2]!;
    const cheap = transfer(sender, 1n, { fee: 1n });
    expect(await pool.add(cheap)).toEqual({ status: 'added', id: cheap.id, processable: false });
    expect(rejection(await pool.add(transfer(sender, 0n, { fee: 1n }))).reason).toBe('invalid');
  });

  it('replaces a same-nonce transaction only for at least minReplacementFeeDifference more fee', async () => {
    const { pool, events } = newPool(replayed);
    const sender = fresh[3]!;
    const original = transfer(sender, 0n);
    const next = transfer(sender, 1n);
    await pool.add(original);
    await pool.add(next);
    const short = transfer(sender, 0n, { fee: original.fee + 9n });
    expect(rejection(await pool.add(short)).reason).toBe('replacement-fee-too-low');
    const enough = transfer(sender, 0n, { fee: original.fee + 10n });
    const result = await pool.add(enough);
    expect(result).toEqual({ status: 'replaced', id: enough.id, processable: true, replaced: original });
    expect(pool.contains(original.id)).toBe(false);
    expect(hexIds(pool.getProcessableTransactions().get(sender.address.toString('hex')) ?? [])).toEqual(hexIds([enough, next]));
    expect(events.removed.map(({ transaction, reason }) => [transaction.id.toString('hex'), reason.code])).toEqual([
      [original.id.toString('hex'), 'replaced'],
    ]);
    // A replacement must itself be valid.
    const invalid = transfer(sender, 0n, { fee: enough.fee + 100n, amount: 10n ** 18n });
    expect(rejection(await pool.add(invalid)).reason).toBe('invalid');
    expect(pool.contains(enough.id)).toBe(true);
    // A larger custom difference.
    const strict = newPool(replayed, { minReplacementFeeDifference: 1000n }).pool;
    await strict.add(original);
    expect(rejection(await strict.add(transfer(sender, 0n, { fee: original.fee + 999n }))).reason).toBe('replacement-fee-too-low');
    expect((await strict.add(transfer(sender, 0n, { fee: original.fee + 1000n }))).status).toBe('replaced');
  });

  it('limits each sender to maxTransactionsPerAccount, displacing its highest nonce for a lower one', async () => {
    const { pool, events } = newPool(replayed, { maxTransactionsPerAccount: 3 });
    const sender = fresh[4]!;
    const txs = [0n, 2n, 3n, 4n, 1n].map((nonce) => transfer(sender, nonce));
    await pool.add(txs[0]!);
    await pool.add(txs[1]!);
    await pool.add(txs[2]!);
    const over = rejection(await pool.add(txs[3]!));
    expect(over).toEqual({ reason: 'account-limit', message: 'Incoming transaction exceeds maximum transaction limit per account (3).' });
    expect((await pool.add(txs[4]!)).status).toBe('added');
    expect(hexIds(pool.getByAddress(sender.address))).toEqual(hexIds([txs[0]!, txs[4]!, txs[1]!]));
    expect(events.removed.map(({ transaction, reason }) => [transaction.nonce, reason.code])).toEqual([[3n, 'account-limit']]);
    // Another sender is not affected.
    expect((await pool.add(transfer(fresh[5]!, 0n))).status).toBe('added');
  });

  it('when full, refuses a fee priority that does not beat the lowest, and evicts the lowest sender tail otherwise', async () => {
    const { pool, events } = newPool(replayed, { maxTransactions: 4 });
    const priorities = [1000, 1100, 1200, 1300];
    const pooled = priorities.map((priority, i) => transfer(fresh[10 + i]!, 0n, { priority }));
    for (const tx of pooled) expect((await pool.add(tx)).status).toBe('added');
    const equal = rejection(await pool.add(transfer(fresh[20]!, 0n, { priority: 1000 })));
    expect(equal.reason).toBe('pool-full');
    const better = transfer(fresh[20]!, 0n, { priority: 1050 });
    expect((await pool.add(better)).status).toBe('added');
    expect(pool.size).toBe(4);
    expect(pool.contains(pooled[0]!.id)).toBe(false);
    expect(events.removed.map(({ transaction, reason }) => [transaction.id.toString('hex'), reason.code, reason.message])).toEqual([
      [pooled[0]!.id.toString('hex'), 'evicted', 'Pool exceeded the size limit'],
    ]);
  });

  it("evicts among processable transactions only each sender's highest nonce", async () => {
    const { pool } = newPool(replayed, { maxTransactions: 3 });
    const x0 = transfer(fresh[10]!, 0n, { priority: 1000 });
    const x1 = transfer(fresh[10]!, 1n, { priority: 5000 });
    const y0 = transfer(fresh[11]!, 0n, { priority: 2000 });
    for (const tx of [x0, x1, y0]) await pool.add(tx);
    expect(pool.stats().unprocessable).toBe(0);
    // x0 has the lowest priority but x1 depends on it: the candidates are x1 (5000) and y0 (2000).
    const incoming = transfer(fresh[12]!, 0n, { priority: 1500 });
    expect((await pool.add(incoming)).status).toBe('added');
    expect(hexIds(pool.getAll())).toEqual(hexIds([x0, x1, incoming]));
  });

  it('evicts unprocessable transactions first, whatever their fee priority', async () => {
    const { pool, events } = newPool(replayed, { maxTransactions: 4 });
    const future = transfer(fresh[10]!, 5n, { priority: 3000 });
    const others = [1100, 1200, 1300].map((priority, i) => transfer(fresh[11 + i]!, 0n, { priority }));
    for (const tx of [future, ...others]) await pool.add(tx);
    const incoming = transfer(fresh[20]!, 0n, { priority: 1500 });
    expect((await pool.add(incoming)).status).toBe('added');
    expect(pool.contains(future.id)).toBe(false);
    expect(events.removed.map(({ reason }) => reason.code)).toEqual(['evicted']);
  });

  it('admits a low fee priority into a full pool while at least half of it is unprocessable', async () => {
    const { pool } = newPool(replayed, { maxTransactions: 4 });
    const futureLow = transfer(fresh[10]!, 3n, { priority: 1500 });
    const futureHigh = transfer(fresh[11]!, 3n, { priority: 1600 });
    const processable = [1000, 1100].map((priority, i) => transfer(fresh[12 + i]!, 0n, { priority }));
    for (const tx of [futureLow, futureHigh, ...processable]) await pool.add(tx);
    expect(pool.stats()).toEqual({ size: 4, processable: 2, unprocessable: 2, accounts: 4 });
    const lowest = transfer(fresh[20]!, 0n, { priority: 1000 });
    expect((await pool.add(lowest)).status).toBe('added');
    expect(pool.contains(futureLow.id)).toBe(false);
    expect(pool.contains(futureHigh.id)).toBe(true);
    // Now only one of four is unprocessable: the same offer is refused.
    expect(rejection(await pool.add(transfer(fresh[21]!, 0n, { priority: 1000 }))).reason).toBe('pool-full');
  });

  it('does not evict for a replacement, nor for a rejected transaction', async () => {
    const { pool, events } = newPool(replayed, { maxTransactions: 2 });
    const a = transfer(fresh[10]!, 0n, { priority: 1000 });
    const b = transfer(fresh[11]!, 0n, { priority: 1000 });
    await pool.add(a);
    await pool.add(b);
    expect((await pool.add(transfer(fresh[10]!, 0n, { fee: a.fee + 10n }))).status).toBe('replaced');
    expect(rejection(await pool.add(transfer(fresh[12]!, 0n, { priority: 2000, amount: 10n ** 18n }))).reason).toBe('invalid');
    expect(pool.size).toBe(2);
    expect(events.removed.map(({ reason }) => reason.code)).toEqual(['replaced']);
  });

  it('expires transactions older than transactionExpiryTime (injected clock, milliseconds)', async () => {
    const setup = newPool(replayed);
    const { pool, events } = setup;
    const old = transfer(fresh[30]!, 0n);
    const recent = transfer(fresh[31]!, 0n);
    setup.time = 1_000;
    await pool.add(old);
    setup.time = 1_000 + 2 * 60 * 60 * 1000;
    await pool.add(recent);
    setup.time = 1_000 + 3 * 60 * 60 * 1000;
    expect(pool.expire()).toBe(0);
    setup.time += 1;
    expect(pool.expire()).toBe(1);
    expect(hexIds(pool.getAll())).toEqual(hexIds([recent]));
    expect(events.removed.map(({ transaction, reason }) => [transaction.id.toString('hex'), reason.code, reason.message])).toEqual([
      [old.id.toString('hex'), 'expired', 'Transaction exceeded the expiry time'],
    ]);
    // The expiry job runs hourly, as lisk's does; start and stop are idempotent.
    expect(EXPIRE_INTERVAL_MS).toBe(3_600_000);
    pool.start();
    pool.start();
    pool.stop();
    pool.stop();
    const short = newPool(replayed, { transactionExpiryTime: 60_000 });
    await short.pool.add(old);
    short.time = 60_001;
    expect(short.pool.expire()).toBe(1);
  });

  it('removes a transaction on request, e.g. one invalid in a block being built', async () => {
    const { pool, events } = newPool(replayed);
    const tx0 = transfer(fresh[40]!, 0n);
    const tx1 = transfer(fresh[40]!, 1n);
    await pool.add(tx0);
    await pool.add(tx1);
    expect(pool.remove(tx0)).toBe(true);
    expect(pool.remove(tx0)).toBe(false);
    expect(pool.getProcessableTransactions().size).toBe(0);
    expect(pool.stats()).toEqual({ size: 1, processable: 0, unprocessable: 1, accounts: 1 });
    expect(events.removed.map(({ reason }) => reason.code)).toEqual(['invalid']);
  });

  it('keeps working when a listener throws, and stops notifying a removed listener', async () => {
    const { pool, events } = newPool(replayed);
    const failing = {
      transactionAdded: () => {
        throw new Error('listener bug');
      },
    };
    pool.addListener(failing);
    const tx0 = transfer(fresh[41]!, 0n);
    expect((await pool.add(tx0)).status).toBe('added');
    expect(pool.contains(tx0.id)).toBe(true);
    pool.removeListener(failing);
    const seen: string[] = [];
    const counting = { transactionAdded: () => seen.push('added') };
    pool.addListener(counting);
    await pool.add(transfer(fresh[41]!, 1n));
    pool.removeListener(counting);
    await pool.add(transfer(fresh[41]!, 2n));
    expect(seen).toEqual(['added']);
    expect(events.added).toHaveLength(3);
  });

  it('refuses a new transaction when the verifier cannot run, without touching the pool', async () => {
    const pool = new TransactionPool({
      verifier: {
        verify: () => Promise.reject(new Error('worker exited')),
      },
      tip: tipOf(replayed.chain),
    });
    const { reason, message } = rejection(await pool.add(transfer(fresh[0]!, 0n)));
    expect(reason).toBe('verification-unavailable');
    expect(message).toBe('Transaction could not be verified: worker exited');
    expect(pool.size).toBe(0);
  });

  it('gives the same verdicts, errors included, when signatures are batched through worker threads', async () => {
    const workers = new WorkerPool({ threads: 2 });
    try {
      const batched = new StateMachinePoolVerifier(
        replayed.chain.stateMachine,
        offThreadWork(workers, { minPoolSet: 1 }).signatureVerifier,
      );
      const plain = new StateMachinePoolVerifier(replayed.chain.stateMachine);
      const transactions = fresh.slice(0, 40).map((account, i) => {
        const tx = transfer(account, i % 5 === 4 ? 3n : 0n);
        if (i % 3 !== 1) return tx;
        const signature = Buffer.from(tx.signatures[0] as Buffer);
        signature[i % 64] ^= 0x10;
        return tx.withSignatures([signature]);
      });
      transactions.push(transfer(used, 0n));
      const tip = tipOf(replayed.chain)();
      const simplify = (results: VerificationResult[]) =>
        results.map((result) => ({ status: result.status, error: result.error?.message }));
      const expected = simplify(await plain.verify(transactions, tip));
      expect(simplify(await batched.verify(transactions, tip))).toEqual(expected);
      // The set covers every verdict: valid, pending (future nonce), bad signature, spent nonce.
      expect(new Set(expected.map((result) => result.status)).size).toBe(3);
      expect(expected.filter((result) => result.error?.startsWith('Failed to validate signature'))).toHaveLength(13);
    } finally {
      await workers.close();
    }
  });

  it('validates its configuration', () => {
    const verifier = new StateMachinePoolVerifier(replayed.chain.stateMachine);
    const make = (config: object) => new TransactionPool({ config, verifier, tip: tipOf(replayed.chain) });
    expect(make({}).config).toEqual({
      maxTransactions: 4096,
      maxTransactionsPerAccount: 64,
      transactionExpiryTime: 10_800_000,
      minEntranceFeePriority: 0n,
      minReplacementFeeDifference: 10n,
      maxPayloadLength: 15_360,
    });
    expect(() => make({ maxTransactions: 0 })).toThrow(ValidationError);
    expect(() => make({ maxTransactions: 0, transactionExpiryTime: 59_999, minEntranceFeePriority: -1n })).toThrow(
      '.maxTransactions: must be >= 1; .transactionExpiryTime: must be >= 60000; .minEntranceFeePriority: must be a uint64',
    );
  });

  it('uses the exact minimum fee of the chain for the default transfers', () => {
    const tx = transfer(fresh[0]!, 0n);
    expect(tx.fee).toBe(BigInt(tx.size * 1000));
    expect(tx.fee).toBe(computeMinFee(tx));
  });
});
