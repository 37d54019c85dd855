/**
 * The composition root's options to leave parts out (src/node.ts assembleNode), on the devnet a
 * fresh data directory starts with: a node without block production offers no generator methods
 * and holds no keys, one without an RPC server opens no port, and a worker pool the caller owns
 * backs the node's verifiers but outlives the node.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveNodeConfig } from '../../src/config/resolve-node-config.js';
import { decodeLisk32 } from '../../src/crypto/index.js';
import { assembleNode } from '../../src/node.js';
import { WorkerPool } from '../../src/workers/index.js';

describe('assembleNode', () => {
  let workDir: string;

  beforeAll(() => {
    workDir = mkdtempSync(join(tmpdir(), 'basalt-assemble-'));
  });
  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  it('is its chain alone without services, everything on this thread', async () => {
    const plan = resolveNodeConfig({ dataPath: join(workDir, 'chain-only') });
    const node = await assembleNode({ dataPath: plan.dataPath, chainConfig: plan.chainConfig, genesisBlock: plan.genesisBlock });
    try {
      expect(node.services).toBeUndefined();
      expect(node.workers).toBeUndefined();
      expect(node.chain.chainStore.tipHeight()).toBe(node.chain.chainStore.genesisHeight());
    } finally {
      await node.close();
    }
  });

  it('leaves out block production and the RPC server when asked', async () => {
    const plan = resolveNodeConfig({ dataPath: join(workDir, 'no-forger') });
    const node = await assembleNode({
      dataPath: plan.dataPath,
      chainConfig: plan.chainConfig,
      genesisBlock: plan.genesisBlock,
      services: { config: plan.config, generatorKeysFile: plan.generatorKeysFile, rpc: false, forger: false },
    });
    try {
      const { services } = node;
      expect(services.rpc).toBeUndefined();
      expect(services.forger).toBeUndefined();
      expect(services.startLegacyApi).toBeUndefined();
      const methods = services.registry.methodNames();
      expect(methods).toContain('txpool_postTransaction');
      expect(methods.filter((name) => name.startsWith('generator_'))).toEqual([]);
    } finally {
      await node.close();
    }
  });

  it("runs its verifiers on a pool the caller owns, enables the keys file's validators, and leaves the pool open", async () => {
    const pool = new WorkerPool({ threads: 1 });
    try {
      const plan = resolveNodeConfig({ dataPath: join(workDir, 'own-pool') });
      const node = await assembleNode({
        dataPath: plan.dataPath,
        chainConfig: plan.chainConfig,
        genesisBlock: plan.genesisBlock,
        workers: { pool, minPoolSet: 1 },
        services: { config: plan.config, generatorKeysFile: plan.generatorKeysFile, rpc: false },
      });
      const { services, workers } = node;
      try {
        expect(workers?.pool).toBe(pool);
        expect(await workers?.signatureVerifier.verifyEd25519([])).toEqual([]);
        expect(services.rpc).toBeUndefined();
        expect(services.registry.methodNames()).toContain('generator_getStatus');
        const { keys } = JSON.parse(readFileSync(plan.generatorKeysFile as string, 'utf8')) as { keys: { address: string }[] };
        expect(keys.length).toBeGreaterThan(0);
        for (const { address } of keys) expect(services.forger?.isEnabled(decodeLisk32(address)), address).toBe(true);
      } finally {
        await node.close();
      }
      const empty = { count: 0, digests: new Uint8Array(0), signatures: new Uint8Array(0), publicKeys: new Uint8Array(0) };
      expect(await pool.run('ed25519.verifyBatch', empty, { priority: 'consensus' })).toBeInstanceOf(Uint8Array);
    } finally {
      await pool.close();
    }
  });
});
