/**
 * Choosing a block's transactions from the pool, each verified and executed on the block's
 * accumulating overlay state by the chain's own state machine (dev chain at height 3).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transaction } from '../../../src/chain/transaction.js';
import type { BlockExecution } from '../../../src/engine/state-machine/state-machine.js';
import { selectTransactionsForBlock, StateMachineInclusion, type TransactionPool } from '../../../src/engine/txpool/index.js';
import { EventQueue } from '../../../src/modules/base/index.js';
import { OverlayState } from '../../../src/state/overlay-state.js';
import {
  availableBalance,
  devAccounts,
  hexIds,
  newPool,
  openReplayedDevChain,
  signedTransfer,
  TOKEN_ID,
  type DevAccount,
  type ReplayedChain,
} from './support.js';

describe('selectTransactionsForBlock', () => {
  let replayed: ReplayedChain;
  const accounts = devAccounts();
  const [a, b, c, d, e] = accounts.slice(20, 25) as [DevAccount, DevAccount, DevAccount, DevAccount, DevAccount];

  beforeAll(async () => {
    replayed = await openReplayedDevChain(3);
  });

  afterAll(async () => {
    await replayed?.close();
  });

  const transfer = (sender: DevAccount, nonce: bigint, priority: number, amount?: bigint) =>
    signedTransfer(sender, { nonce, priority, amount, recipient: accounts[102]!.address }, replayed.chainID);

  /** The next block's execution context over the committed state. */
  function nextBlockExecution(): BlockExecution {
    const tip = replayed.chain.processor.tipHeader();
    const height = tip.height + 1;
    return {
      state: new OverlayState(replayed.chain.stateDb.moduleReader),
      events: EventQueue.forBlock(height),
      contextStore: new Map(),
      header: {
        version: tip.version,
        height,
        timestamp: tip.timestamp + replayed.config.genesis.blockTime,
        previousBlockID: tip.id,
        generatorAddress: accounts[0]!.address,
        maxHeightPrevoted: tip.maxHeightPrevoted,
        maxHeightGenerated: 0,
        impliesMaxPrevotes: true,
        aggregateCommit: tip.aggregateCommit,
      },
      assets: { getAsset: () => undefined },
      setNextValidators: () => undefined,
    };
  }

  async function poolWith(transactions: readonly Transaction[]): Promise<TransactionPool> {
    const { pool } = newPool(replayed);
    for (const tx of transactions) expect((await pool.add(tx)).status).toBe('added');
    return pool;
  }

  it("takes the highest fee priority among each sender's lowest nonce, executing each on the block state", async () => {
    const a0 = transfer(a, 0n, 2000);
    const a1 = transfer(a, 1n, 2000);
    const a2 = transfer(a, 2n, 4000);
    const b0 = transfer(b, 0n, 3000);
    const c0 = transfer(c, 0n, 1500);
    const pool = await poolWith([c0, a2, a1, a0, b0]);
    const execution = nextBlockExecution();
    const selection = await selectTransactionsForBlock(
      pool.candidates(),
      replayed.config.genesis.maxTransactionsSize,
      new StateMachineInclusion(replayed.chain.stateMachine, execution),
    );
    expect(hexIds(selection.transactions)).toEqual(hexIds([b0, a0, a1, a2, c0]));
    expect(selection.size).toBe([b0, a0, a1, a2, c0].reduce((sum, tx) => sum + tx.size, 0));
    expect(selection.rejected).toEqual([]);
    expect(selection.invalid).toEqual([]);
    // Executed: the sender paid three amounts and three fees on the block's overlay only.
    const spent = [a0, a1, a2].reduce((sum, tx) => sum + tx.fee + 1_0000_0000n, 0n);
    const onBlock = replayed.chain.modules.token.method.getAvailableBalance({ state: execution.state }, a.address, TOKEN_ID);
    expect(onBlock).toBe(availableBalance(replayed.chain, a.address) - spent);
  });

  it('stops at the first transaction that does not fit the byte budget', async () => {
    const a0 = transfer(a, 0n, 2000);
    const a1 = transfer(a, 1n, 2000);
    const b0 = transfer(b, 0n, 3000);
    const c0 = transfer(c, 0n, 1000);
    const pool = await poolWith([a0, a1, b0, c0]);
    const budget = b0.size + a0.size + a1.size - 1;
    const selection = await selectTransactionsForBlock(
      pool.candidates(),
      budget,
      new StateMachineInclusion(replayed.chain.stateMachine, nextBlockExecution()),
    );
    // a1 does not fit; lisk-sdk ends the block there rather than trying c0.
    expect(hexIds(selection.transactions)).toEqual(hexIds([b0, a0]));
    expect(selection.size).toBe(b0.size + a0.size);
    expect(selection.size).toBeLessThanOrEqual(budget);
  });

  it("skips a transaction invalidated by an earlier one of the block, with its sender's later nonces", async () => {
    const balance = availableBalance(replayed.chain, d.address);
    const d0 = transfer(d, 0n, 5000, balance - 10_0000_0000n);
    // Fine against the tip (PENDING: a future nonce), but after d0 the sender cannot pay 20 LSK.
    const d1 = transfer(d, 1n, 5000, 20_0000_0000n);
    const d2 = transfer(d, 2n, 5000);
    const e0 = transfer(e, 0n, 1000);
    const pool = await poolWith([d0, d1, d2, e0]);
    expect(pool.getProcessableTransactions().get(d.address.toString('hex'))).toHaveLength(3);
    const selection = await selectTransactionsForBlock(
      pool.candidates(),
      replayed.config.genesis.maxTransactionsSize,
      new StateMachineInclusion(replayed.chain.stateMachine, nextBlockExecution()),
    );
    expect(hexIds(selection.transactions)).toEqual(hexIds([d0, e0]));
    expect(hexIds(selection.rejected)).toEqual(hexIds([d1]));
  });

  it('selects nothing from an empty pool', async () => {
    const { pool } = newPool(replayed);
    const selection = await selectTransactionsForBlock(
      pool.candidates(),
      replayed.config.genesis.maxTransactionsSize,
      new StateMachineInclusion(replayed.chain.stateMachine, nextBlockExecution()),
    );
    expect(selection).toEqual({ transactions: [], size: 0, rejected: [], invalid: [] });
  });
});
