/**
 * The legacy chain in an assembled node (src/node.ts): the store opens with the chain, the
 * configured brackets are recorded at assembly, the `legacy` RPC namespace is registered on every
 * node, and the P2P node info announces the complete brackets only with `legacy.sync` on.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveNodeConfig } from '../../src/config/resolve-node-config.js';
import { importLegacyBlocks, legacyBracket, openLegacyChainStore, type V3BlockSource } from '../../src/legacy-chain/index.js';
import { assembleNode } from '../../src/node.js';
import { buildV3Chain } from '../support/v3-legacy-chain.js';

const chain = buildV3Chain({ length: 30, transactionsAt: (height) => height % 2 });
const top = chain.at(-1) as V3BlockSource;
const bracket = legacyBracket({ id: top.id, height: 29 }, 0);

async function legacyNode(dataPath: string, sync: boolean) {
  const plan = resolveNodeConfig({ dataPath });
  const config = {
    ...plan.config,
    legacy: { sync, brackets: [bracket] },
    network: { ...plan.config.network, host: '127.0.0.5', port: 0, seedPeers: [] },
  };
  return assembleNode({
    dataPath: plan.dataPath,
    chainConfig: plan.chainConfig,
    genesisBlock: plan.genesisBlock,
    services: { config, rpc: false, forger: false, p2p: true },
  });
}

describe('the legacy chain in a node', () => {
  let workDir: string;
  beforeAll(() => {
    workDir = mkdtempSync(join(tmpdir(), 'basalt-legacy-node-'));
  });
  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  it('serves an imported bracket over RPC and announces it with legacy.sync on', async () => {
    const node = await legacyNode(join(workDir, 'sync-on'), true);
    try {
      const { registry, network } = node.services;
      const invoke = (name: string, params: Record<string, unknown> = {}) => registry.get(name)?.invoke(params);
      expect(invoke('legacy_getLegacyBrackets')).toEqual([
        { startHeight: 0, snapshotBlockHeight: 29, lastBlockHeight: 29, snapshotBlockID: bracket.snapshotBlockID },
      ]);
      await importLegacyBlocks(node.chain.legacyStore, chain, bracket);
      expect(invoke('legacy_getLegacyBrackets')).toEqual([
        { startHeight: 0, snapshotBlockHeight: 29, lastBlockHeight: 0, snapshotBlockID: bracket.snapshotBlockID },
      ]);
      expect(invoke('legacy_getBlockByHeight', { height: 29 })).toMatchObject({ header: { id: bracket.snapshotBlockID, height: 29 } });
      await network?.start();
      try {
        expect(network?.network?.getNodeInfo().options.legacy).toEqual([top.id]);
      } finally {
        await network?.stop();
      }
    } finally {
      await node.close();
    }
  });

  it('registers the namespace but announces nothing with legacy.sync off', async () => {
    const node = await legacyNode(join(workDir, 'sync-off'), false);
    try {
      await importLegacyBlocks(node.chain.legacyStore, chain, bracket);
      const methods = node.services.registry.methodNames().filter((name) => name.startsWith('legacy_'));
      // The engine's five methods share the namespace with the legacy module's endpoint.
      expect(methods).toEqual([
        'legacy_getBlockByHeight',
        'legacy_getBlockByID',
        'legacy_getLegacyAccount',
        'legacy_getLegacyBrackets',
        'legacy_getTransactionByID',
        'legacy_getTransactionsByBlockID',
      ]);
      const { network } = node.services;
      await network?.start();
      try {
        expect(network?.network?.getNodeInfo().options.legacy).toEqual([]);
      } finally {
        await network?.stop();
      }
    } finally {
      await node.close();
    }
  });

  it('finds a bracket imported into its data directory before it was first started', async () => {
    const dataPath = join(workDir, 'imported-first');
    const opened = openLegacyChainStore(dataPath);
    try {
      await importLegacyBlocks(opened.store, chain, bracket);
    } finally {
      await opened.close();
    }
    const node = await legacyNode(dataPath, true);
    try {
      expect(node.services.registry.get('legacy_getLegacyBrackets')?.invoke({})).toEqual([
        { startHeight: 0, snapshotBlockHeight: 29, lastBlockHeight: 0, snapshotBlockID: bracket.snapshotBlockID },
      ]);
      expect(node.chain.legacyStore.blockByHeight(0)?.id).toEqual(chain[0]?.id);
    } finally {
      await node.close();
    }
  });
});
