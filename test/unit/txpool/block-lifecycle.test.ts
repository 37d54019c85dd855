/**
 * The pool across blocks on a real chain: the dev chain at height 45 receives its real block 46
 * (whose transactions the pool holds), that block is reverted, and blocks are generated from the
 * pool by the real block generator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Block } from '../../../src/chain/block.js';
import type { Transaction } from '../../../src/chain/transaction.js';
import {
  StateMachinePoolVerifier,
  tipOf,
  TransactionPool,
  type PoolTip,
  type PoolTransactionVerifier,
} from '../../../src/engine/txpool/index.js';
import type { VerificationResult } from '../../../src/modules/base/index.js';
import {
  accountNonce,
  availableBalance,
  blockProducer,
  devAccounts,
  hexIds,
  newPool,
  openReplayedDevChain,
  signedTransfer,
  type DevAccount,
  type PoolSetup,
  type ReplayedChain,
} from './support.js';

function removals(setup: PoolSetup): [string, string][] {
  return setup.events.removed.map(({ transaction, reason }) => [transaction.id.toString('hex'), reason.code]);
}

function sortedPairs(pairs: [string, string][]): [string, string][] {
  return [...pairs].sort(([a], [b]) => a.localeCompare(b));
}

describe('TransactionPool after new and deleted blocks', () => {
  let replayed: ReplayedChain;
  const accounts = devAccounts();
  let block46: Block;
  /** The two dev validators that change their commission in block 46 (their nonce 0). */
  let conflicting: DevAccount;
  let continuing: DevAccount;
  let setup: PoolSetup;
  let conflictingTransfer: Transaction;
  let continuingTransfer: Transaction;
  let bystander: Transaction;
  let bystanderFuture: Transaction;

  const transfer = (sender: DevAccount, nonce: bigint, extra: { amount?: bigint; priority?: number } = {}) =>
    signedTransfer(sender, { nonce, recipient: accounts[102]!.address, ...extra }, replayed.chainID);

  beforeAll(async () => {
    replayed = await openReplayedDevChain(45);
    block46 = replayed.fixtureBlock(46);
    const senders = block46.transactions.map((tx) => tx.senderAddress());
    const signers = accounts.filter((account) => senders.some((sender) => sender.equals(account.address)));
    expect(signers).toHaveLength(2);
    [conflicting, continuing] = signers as [DevAccount, DevAccount];
    setup = newPool(replayed);
  });

  afterAll(async () => {
    await replayed?.close();
  });

  it("holds block 46's transactions at tip 45, plus transfers that depend on or conflict with them", async () => {
    const { pool } = setup;
    for (const tx of block46.transactions) {
      if (tx.senderAddress().equals(conflicting.address)) continue;
      const result = await pool.add(tx);
      expect(result.status).toBe('added');
    }
    conflictingTransfer = transfer(conflicting, 0n);
    continuingTransfer = transfer(continuing, 1n);
    bystander = transfer(accounts[60]!, 0n);
    bystanderFuture = transfer(accounts[61]!, 2n);
    for (const tx of [conflictingTransfer, continuingTransfer, bystander, bystanderFuture]) {
      expect((await pool.add(tx)).status).toBe('added');
    }
    expect(pool.size).toBe(block46.transactions.length - 1 + 4);
    expect(pool.stats().unprocessable).toBe(1);
    const continuingRun = pool.getProcessableTransactions().get(continuing.address.toString('hex')) ?? [];
    expect(continuingRun.map((tx) => tx.nonce)).toEqual([0n, 1n]);
  });

  it('after block 46, removes its transactions and those whose nonce it used, and re-checks the rest', async () => {
    const { pool } = setup;
    const before = pool.getAll();
    await replayed.applyNextFixtureBlock();
    // The pool drops included and spent-nonce transactions at once, before the re-check ends.
    const recheck = pool.onNewBlock(block46);
    expect(pool.contains(conflictingTransfer.id)).toBe(false);
    // The continuing sender's statuses are unknown until the re-check.
    expect(pool.getProcessableTransactions().has(continuing.address.toString('hex'))).toBe(false);
    await recheck;
    const included = block46.transactions.filter((tx) => before.some((pooled) => pooled.id.equals(tx.id)));
    expect(sortedPairs(removals(setup))).toEqual(
      sortedPairs([
        ...included.map((tx) => [tx.id.toString('hex'), 'included'] as [string, string]),
        [conflictingTransfer.id.toString('hex'), 'invalid'],
      ]),
    );
    expect(hexIds(pool.getAll()).sort()).toEqual(hexIds([continuingTransfer, bystander, bystanderFuture]).sort());
    expect(accountNonce(replayed.chain, continuing.address)).toBe(1n);
    const processable = pool.getProcessableTransactions();
    expect(hexIds(processable.get(continuing.address.toString('hex')) ?? [])).toEqual(hexIds([continuingTransfer]));
    expect(hexIds(processable.get(accounts[60]!.address.toString('hex')) ?? [])).toEqual(hexIds([bystander]));
    expect(pool.stats()).toEqual({ size: 3, processable: 2, unprocessable: 1, accounts: 3 });
  });

  it('after block 46 is deleted, offers its transactions again and re-checks the pool against tip 45', async () => {
    const { pool } = setup;
    setup.events.removed.length = 0;
    const addedBefore = setup.events.added.length;
    const deleted = replayed.chain.processor.revertTip();
    expect(deleted.header.id).toEqual(block46.header.id);
    const results = await pool.onDeleteBlock(deleted);
    expect(results.map((result) => result.status)).toEqual(block46.transactions.map(() => 'added'));
    expect(hexIds(setup.events.added.slice(addedBefore)).sort()).toEqual(hexIds(block46.transactions).sort());
    expect(setup.events.removed).toEqual([]);
    expect(pool.size).toBe(block46.transactions.length + 3);
    const continuingRun = pool.getProcessableTransactions().get(continuing.address.toString('hex')) ?? [];
    expect(continuingRun.map((tx) => tx.nonce)).toEqual([0n, 1n]);
    expect(hexIds(continuingRun)[1]).toBe(continuingTransfer.id.toString('hex'));
    // Everything of block 46 is processable again; only the bystander's future nonce is not.
    expect(pool.stats().unprocessable).toBe(1);
  });

  it('feeds the block generator: a generated block includes the processable transactions, and the pool drops them', async () => {
    const { pool } = setup;
    const produce = blockProducer(replayed);
    setup.events.removed.length = 0;
    const expected = [...pool.getProcessableTransactions().values()].flat();
    const block = await produce(pool.candidates());
    expect(hexIds(block.transactions).sort()).toEqual(hexIds(expected).sort());
    await pool.onNewBlock(block);
    expect(hexIds(pool.getAll())).toEqual(hexIds([bystanderFuture]));
    expect(setup.events.removed.every(({ reason }) => reason.code === 'included')).toBe(true);
    expect(setup.events.removed).toHaveLength(expected.length);
  });

  it('removes a pooled transaction that an earlier one of its sender made invalid once that one is in a block', async () => {
    const { pool } = setup;
    const sender = accounts[90]!;
    expect(accountNonce(replayed.chain, sender.address)).toBe(0n);
    const balance = availableBalance(replayed.chain, sender.address);
    const feeEstimate = transfer(sender, 0n).fee * 2n;
    const drainAll = transfer(sender, 0n, { amount: balance - feeEstimate - 5000_0000n });
    const next = transfer(sender, 1n);
    const drained = await pool.add(drainAll);
    expect(drained.status === 'rejected' ? drained.error.message : drained.status).toBe('added');
    // A future nonce verifies PENDING: its fee and amount are checked once it is next.
    expect(await pool.add(next)).toEqual({ status: 'added', id: next.id, processable: true });
    setup.events.removed.length = 0;
    const block = await blockProducer(replayed)(pool.candidates());
    // Verified on the block's state after drainAll, `next` no longer covers its amount.
    expect(hexIds(block.transactions)).toEqual(hexIds([drainAll]));
    await pool.onNewBlock(block);
    expect(removals(setup)).toEqual([
      [drainAll.id.toString('hex'), 'included'],
      [next.id.toString('hex'), 'invalid'],
    ]);
    expect(setup.events.removed[1]?.reason.message).toMatch(/is not sufficient for 100000000\.$/);
    expect(hexIds(pool.getAll())).toEqual(hexIds([bystanderFuture]));
  });

  it('verifies a transaction again when a block arrives while it is being verified', async () => {
    const gate = new GatedVerifier(new StateMachinePoolVerifier(replayed.chain.stateMachine));
    const pool = new TransactionPool({ verifier: gate, tip: tipOf(replayed.chain) });
    const sender = accounts[91]!;
    const first = transfer(sender, 0n);
    const competitor = transfer(sender, 0n, { amount: 7n });
    gate.close();
    const adding = pool.add(first);
    await gate.entered;
    // Meanwhile the chain includes another transaction with the same nonce.
    const block = await blockProducer(replayed)({
      byAccount: new Map([[sender.address.toString('hex'), [competitor]]]),
      feePriority: () => 1n,
    });
    expect(hexIds(block.transactions)).toEqual(hexIds([competitor]));
    const recheck = pool.onNewBlock(block);
    gate.open();
    const result = await adding;
    await recheck;
    expect(result.status).toBe('rejected');
    expect(result.status === 'rejected' && result.error.message).toBe(
      `Transaction with id:${first.id.toString('hex')} nonce is lower than account nonce.`,
    );
    expect(gate.calls).toBe(2);
    expect(pool.size).toBe(0);
  });
});

/** The real verifier whose answers can be held back, to let a block arrive mid-verification. */
class GatedVerifier implements PoolTransactionVerifier {
  calls = 0;
  entered: Promise<void> = Promise.resolve();
  private signalEntered: () => void = () => undefined;
  private gate: Promise<void> = Promise.resolve();
  private release: () => void = () => undefined;

  constructor(private readonly inner: PoolTransactionVerifier) {}

  close(): void {
    this.gate = new Promise((resolve) => {
      this.release = resolve;
    });
    this.entered = new Promise((resolve) => {
      this.signalEntered = resolve;
    });
  }

  open(): void {
    this.release();
  }

  async verify(transactions: readonly Transaction[], tip: PoolTip): Promise<VerificationResult[]> {
    this.calls += 1;
    const results = await this.inner.verify(transactions, tip);
    this.signalEntered();
    await this.gate;
    return results;
  }
}
