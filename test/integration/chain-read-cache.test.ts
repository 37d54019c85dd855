/**
 * The chain endpoints' caches across a real fork switch: on the replayed dev
 * chain a node stores block A, its RPC serves A as the last block and A's transactions (now
 * cached), then B arrives in its slot and BlockReceiver reverts A and applies B (LIP 0014 case
 * 4, the path of test/integration/fork-choice.test.ts). From then on nothing of A is served: the
 * last block is B, byte for byte as B's own JSON, and so is the block at A's height (A's JSON was
 * kept there, as the block is above the finalized height), A's transactions are unknown, B's is there.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventToJSON } from '../../src/chain/event.js';
import type { OpenChain } from '../../src/node.js';
import { createChainEndpoints } from '../../src/rpc/endpoints/chain-endpoints.js';
import { dispatcherFor, type CallAnswer } from '../unit/endpoints/support.js';
import { blockReceiverFor, forkedDevChain, openDevChain, type ForkedDevChain } from './chain-read-support.js';

describe('chain endpoint caches across a fork switch', () => {
  let forked: ForkedDevChain;
  let chain: OpenChain;
  let call: (method: string, params?: Record<string, unknown>) => Promise<CallAnswer>;

  beforeAll(async () => {
    forked = await forkedDevChain();
    chain = await openDevChain(forked);
    const { methods } = createChainEndpoints({
      chainStore: chain.chainStore,
      bft: chain.bft,
      engineState: () => chain.stateDb.engineReader,
    });
    call = dispatcherFor(methods);
  }, 120_000);

  afterAll(async () => {
    await chain?.close();
    if (forked) rmSync(forked.workDir, { recursive: true, force: true });
  });

  it('serves the new tip and none of the reverted block after B replaces A', async () => {
    const { blockA, blockB, transfersA, transferB } = forked;
    const text = (value: { toJSON(): unknown }) => JSON.stringify(value.toJSON());
    const receiver = blockReceiverFor(chain);
    const height = blockA.header.height;
    const previousTip = (await call('chain_getLastBlock')).resultText;
    expect(JSON.parse(previousTip as string).header.height).toBe(height - 1);

    // A arrives one slot late (in B's slot) and becomes the tip.
    expect((await receiver.receive(blockA, chain.bft.slotTime(forked.slotB))).kind).toBe('applied');
    for (let i = 0; i < 2; i += 1) {
      expect((await call('chain_getLastBlock')).resultText).toBe(text(blockA));
      // Above the finalized height: the second read comes from the cache of unfinalized blocks.
      expect(height).toBeGreaterThan(chain.chainStore.finalizedHeight());
      expect((await call('chain_getBlockByHeight', { height })).resultText).toBe(text(blockA));
      for (const tx of transfersA)
        expect((await call('chain_getTransactionByID', { id: tx.id.toString('hex') })).resultText).toBe(text(tx));
    }
    const idsA = transfersA.map((tx) => tx.id.toString('hex'));
    expect((await call('chain_getTransactionsByIDs', { ids: idsA })).resultText).toBe(`[${transfersA.map(text).join(',')}]`);
    expect((await call('chain_getBlocksByIDs', { ids: [blockA.header.id.toString('hex')] })).resultText).toBe(`[${text(blockA)}]`);

    // B arrives within its own slot: A is deleted and B stored at the same height.
    const outcome = await receiver.receive(blockB, forked.clock);
    expect(outcome.kind).toBe('replaced');
    expect(chain.chainStore.tipHeight()).toBe(height);

    expect((await call('chain_getLastBlock')).resultText).toBe(text(blockB));
    expect((await call('chain_getBlockByHeight', { height })).resultText).toBe(text(blockB));
    for (const id of idsA) {
      expect((await call('chain_getTransactionByID', { id })).error).toEqual({
        code: -32001,
        message: `Transaction with ID ${id} does not exist.`,
      });
    }
    expect((await call('chain_getTransactionsByIDs', { ids: idsA })).resultText).toBe('[]');
    expect((await call('chain_getBlocksByIDs', { ids: [blockA.header.id.toString('hex')] })).resultText).toBe('[]');
    expect((await call('chain_getTransactionByID', { id: transferB.id.toString('hex') })).resultText).toBe(text(transferB));
    const eventsB = chain.chainStore.getEvents(height) ?? [];
    expect(eventsB.length).toBeGreaterThan(0);
    expect((await call('chain_getEvents', { height })).resultText).toBe(JSON.stringify(eventsB.map(eventToJSON)));
  });
});
