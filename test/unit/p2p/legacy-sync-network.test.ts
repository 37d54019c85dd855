/**
 * Legacy sync between two Basalt P2P nodes on real loopback sockets: A holds a bracket and
 * announces it in its node info; B, with the bracket configured and empty, finds A among its
 * peers, fetches the bracket with getLegacyBlocksFromId and then announces it too.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  importLegacyBlocks,
  initLegacyBrackets,
  legacyBracket,
  type LegacyChainStore,
  LegacyChainSync,
  type V3BlockSource,
} from '../../../src/legacy-chain/index.js';
import { P2pLegacySyncNetwork } from '../../../src/p2p/endpoints/p2p-legacy-sync-network.js';
import { legacyBlocksFromIdHandler, type P2pPeerInfo } from '../../../src/p2p/index.js';
import { TempLegacyStores } from '../../support/temp-legacy-stores.js';
import { buildV3Chain } from '../../support/v3-legacy-chain.js';
import { nextEvent, startNode, stopNodes, until } from './support/network-harness.js';

const chain = buildV3Chain({ length: 230, transactionsAt: (height) => height % 4 });
const top = chain.at(-1) as V3BlockSource;
const bracket = legacyBracket({ id: top.id, height: 229 }, 0);

let stores: TempLegacyStores;
const openStore = (name: string): LegacyChainStore => stores.open(name);

beforeEach(() => {
  stores = new TempLegacyStores('basalt-legacy-net-');
});

afterEach(async () => {
  await stopNodes();
  await stores.dispose();
});

describe('legacy sync over P2P', () => {
  it('fetches a bracket from a Basalt peer that announces it, then announces it in turn', async () => {
    const served = openStore('a');
    await importLegacyBlocks(served, chain, bracket);
    const a = await startNode('127.0.0.2', {
      handlers: { procedures: { getLegacyBlocksFromId: legacyBlocksFromIdHandler(served) } },
      nodeInfoOptions: { legacy: [top.id] },
    });

    const store = openStore('b');
    initLegacyBrackets(store, [bracket]);
    const inbound = nextEvent<[P2pPeerInfo]>(a, 'peer:connect');
    const b = await startNode('127.0.0.3', { fixedPeers: [{ ipAddress: '127.0.0.2', port: a.port }] });
    await inbound;
    const sync = new LegacyChainSync({
      store,
      brackets: [bracket],
      network: new P2pLegacySyncNetwork(() => b),
      batchDelayMs: 1,
      retryDelayMs: 20,
    });
    sync.start();
    await until(() => b.getNodeInfo().options.legacy.length > 0, 10_000, 'bracket synced');
    await sync.idle();
    for (const block of chain.slice(0, 229)) {
      expect(store.blockByHeight(block.height)).toEqual({ id: block.id, header: block.header, payload: block.transactions });
    }
    expect(b.getNodeInfo().options.legacy).toEqual([top.id]);
    // A learns it from B's node-info push.
    await until(() => a.connectedPeers().some((peer) => peer.options?.legacy.some((id) => id.equals(top.id))), 5_000, 'A sees B announce');
    sync.stop();
  });
});
