import { describe, expect, it } from 'vitest';
import type { TransactionPool } from '../../../src/engine/txpool/transaction-pool.js';
import type { ChainStore } from '../../../src/chain/chain-store.js';
import type { StateMachine } from '../../../src/engine/state-machine/state-machine.js';
import { RpcDispatcher } from '../../../src/rpc/dispatcher.js';
import { RpcRegistry } from '../../../src/rpc/registry.js';
import { createTxpoolEndpoints } from '../../../src/rpc/endpoints/txpool-endpoints.js';
import { silentLogger } from '../../../src/logger.js';
import { devLines } from './support.js';

/** A pool stub: which IDs it holds, and what `add` answers (counting the calls). */
function stubPool(held: Set<string>, addStatus: 'ok' | 'rejected') {
  const calls = { add: 0 };
  const pool = {
    contains: (id: Buffer) => held.has(id.toString('hex')),
    add: async (transaction: { id: Buffer }) => {
      calls.add += 1;
      return addStatus === 'ok'
        ? { status: 'ok', id: transaction.id }
        : { status: 'rejected', id: transaction.id, error: new Error('Insufficient balance') };
    },
  } as unknown as TransactionPool;
  return { pool, calls };
}

function dispatcherWith(pool: TransactionPool): RpcDispatcher {
  const registry = new RpcRegistry();
  const methods = createTxpoolEndpoints({
    pool,
    stateMachine: {} as StateMachine,
    chainStore: {} as ChainStore,
    moduleState: () => {
      throw new Error('not used');
    },
    maxTransactionBytes: 15 * 1024,
  });
  for (const method of methods) registry.register(method);
  return new RpcDispatcher(registry, { allowedMethods: [], maxBatchSize: 10, logger: silentLogger });
}

const transaction = devLines(120).flatMap((line) => line.block.transactions)[0]!;
const request = JSON.stringify({
  jsonrpc: '2.0',
  id: 7,
  method: 'txpool_postTransaction',
  params: { transaction: transaction.bytes.toString('hex') },
});
const okAnswer = `{"jsonrpc":"2.0","id":7,"result":{"transactionId":"${transaction.id.toString('hex')}"}}`;

describe('txpool_postTransaction', () => {
  it('answers a transaction the pool already holds at once, with its ID, without adding it again', () => {
    const { pool, calls } = stubPool(new Set([transaction.id.toString('hex')]), 'rejected');
    const answer = dispatcherWith(pool).dispatch(request);
    // Synchronous: the transport can write it inside its own callback.
    expect(answer).toBe(okAnswer);
    expect(calls.add).toBe(0);
  });

  it('adds a transaction the pool does not hold and answers with its ID once accepted', async () => {
    const { pool, calls } = stubPool(new Set(), 'ok');
    const answer = dispatcherWith(pool).dispatch(request);
    expect(answer).toBeInstanceOf(Promise);
    expect(await answer).toBe(okAnswer);
    expect(calls.add).toBe(1);
  });

  it('answers the pool refusal of a new transaction as invalid params', async () => {
    const { pool } = stubPool(new Set(), 'rejected');
    const answer = JSON.parse((await dispatcherWith(pool).dispatch(request)) as string) as { error: { code: number; message: string } };
    expect(answer.error).toEqual({ code: -32602, message: 'Insufficient balance' });
  });
});
