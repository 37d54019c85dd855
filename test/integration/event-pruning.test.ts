/**
 * system.keepEventsForHeights on the real dev chain: a node assembled with its services (the
 * wiring src/node/node-services.ts gives a running node) replays the chain with
 * keepEventsForHeights = 5. The events of every height below min(finalized, tip - 5) are gone
 * from LMDB and `chain_getEvents` answers `[]` for them, as lisk-sdk 6.1 does for a pruned height,
 * even where the RPC cache had kept their JSON; every other height answers the reference events.
 * The blocks themselves (what peers are served) are untouched. With -1 nothing is dropped.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Block } from '../../src/chain/block.js';
import { eventToJSON } from '../../src/chain/event.js';
import { resolveNodeConfig } from '../../src/config/resolve-node-config.js';
import { eventsPrunableUpTo } from '../../src/engine/event-retention.js';
import { silentLogger } from '../../src/logger.js';
import { assembleNode, type AssembledNode, type NodeServices } from '../../src/node.js';
import { RpcDispatcher } from '../../src/rpc/dispatcher.js';
import { devBlockLines, devChainConfig, devEventsByHeight, devGenesisBlock } from '../support/dev-chain.js';

const KEEP = 5;

async function assembleDevNode(dataPath: string, keepEventsForHeights: number) {
  const plan = resolveNodeConfig({ dataPath });
  return assembleNode({
    dataPath,
    chainConfig: { ...devChainConfig(), keepEventsForHeights },
    genesisBlock: devGenesisBlock(),
    services: { config: plan.config, rpc: false, forger: false },
  });
}

function caller(services: NodeServices) {
  const dispatcher = new RpcDispatcher(services.registry, { allowedMethods: ['*'], maxBatchSize: 10, logger: silentLogger });
  return async (height: number): Promise<string> => {
    const text = (await dispatcher.handle(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'chain_getEvents', params: { height } }),
    )) as string;
    const prefix = '{"jsonrpc":"2.0","id":1,"result":';
    expect(text.startsWith(prefix), text).toBe(true);
    return text.slice(prefix.length, -1);
  };
}

describe('event pruning (system.keepEventsForHeights)', () => {
  let workDir: string;
  let node: AssembledNode & { readonly services: NodeServices };
  const lines = devBlockLines();
  const reference = devEventsByHeight();

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'basalt-prune-'));
    node = await assembleDevNode(join(workDir, 'keep5'), KEEP);
  });
  afterAll(async () => {
    await node?.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  it(`keeps only the events of the last ${KEEP} heights at and above finality, in LMDB and in chain_getEvents`, async () => {
    const { chainStore, processor } = node.chain;
    const getEvents = caller(node.services);
    const pruned: number[] = [];
    processor.onEventsPruned((height) => pruned.push(height));
    for (const line of lines.slice(1)) {
      await processor.processBlock(Block.fromBytes(Buffer.from(line.blockHex, 'hex')));
      // Every finalized answer read here is cached as JSON: pruning must reach that cache too.
      const tip = chainStore.tipHeight();
      const limit = eventsPrunableUpTo(KEEP, tip, chainStore.finalizedHeight());
      for (const height of [limit, limit + 1, tip - KEEP, tip]) if (height >= 0) await getEvents(height);
    }
    const tip = chainStore.tipHeight();
    const finalized = chainStore.finalizedHeight();
    const limit = eventsPrunableUpTo(KEEP, tip, finalized);
    // The dev chain finalizes far enough behind its tip for both bounds to matter along the way.
    expect(limit).toBeGreaterThan(100);
    expect(pruned.at(-1)).toBe(limit);
    expect(pruned).toEqual([...pruned].sort((a, b) => a - b));
    for (let height = 0; height <= tip; height += 1) {
      const expected = height <= limit ? [] : reference.get(height);
      expect(chainStore.getEvents(height)?.map(eventToJSON), `height ${height}`).toEqual(height <= limit ? undefined : expected);
      expect(await getEvents(height), `height ${height}`).toBe(JSON.stringify(expected));
      // Blocks are not touched: a peer asking for this height gets the block as before.
      expect(chainStore.getEncodedBlockByHeight(height)?.toString('hex')).toBe(lines[height]?.blockHex);
    }
  }, 120_000);

  it('keeps every event with -1', async () => {
    const keepAll = await assembleDevNode(join(workDir, 'keep-all'), -1);
    try {
      const { chainStore, processor } = keepAll.chain;
      const pruned: number[] = [];
      processor.onEventsPruned((height) => pruned.push(height));
      for (const line of lines.slice(1)) await processor.processBlock(Block.fromBytes(Buffer.from(line.blockHex, 'hex')));
      expect(pruned).toEqual([]);
      for (let height = 0; height <= chainStore.tipHeight(); height += 1) {
        expect(chainStore.getEvents(height)?.map(eventToJSON)).toEqual(reference.get(height));
      }
    } finally {
      await keepAll.close();
    }
  }, 120_000);
});
