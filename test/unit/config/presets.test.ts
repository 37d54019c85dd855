/**
 * The shipped network presets: each is a valid config over the defaults, with Lisk Core v4's chain
 * IDs and constants (lisk-core config/<network>/config.json) for testnet and mainnet, and Basalt's
 * devnets.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Block } from '../../../src/chain/block.js';
import { defaultNodeConfig } from '../../../src/config/config-defaults.js';
import { parseChainConfig } from '../../../src/config/lisk-config.js';
import { mergeConfigLayers } from '../../../src/config/merge-config.js';
import type { NodeConfig } from '../../../src/config/node-config.js';
import { DEFAULT_NETWORK, loadNetworkPreset, NETWORKS } from '../../../src/config/presets.js';
import { nodeConfigProblems, unknownConfigKeys } from '../../../src/config/validate-config.js';
import { createChainModules } from '../../../src/modules/chain-modules.js';
import { parsePosConfig } from '../../../src/modules/pos/config.js';

const merged = (network: string): NodeConfig =>
  mergeConfigLayers(defaultNodeConfig(), loadNetworkPreset(network).config) as unknown as NodeConfig;

describe('network presets', () => {
  it('are devnet (the default), devnet-101, devnet-sidechain, testnet and mainnet', () => {
    expect(NETWORKS).toEqual(['devnet', 'devnet-101', 'devnet-sidechain', 'testnet', 'mainnet']);
    expect(DEFAULT_NETWORK).toBe('devnet');
    expect(() => loadNetworkPreset('betanet')).toThrow(
      'Network betanet is not supported, supported networks: devnet, devnet-101, devnet-sidechain, testnet, mainnet.',
    );
  });

  for (const network of NETWORKS) {
    it(`${network}: valid over the defaults, with valid module configs and no unknown keys`, () => {
      const config = merged(network);
      expect(nodeConfigProblems(config)).toEqual([]);
      expect(unknownConfigKeys(config)).toEqual([]);
      const chain = parseChainConfig(config, '/');
      expect(() => createChainModules({ genesisConfig: chain.genesis, moduleConfigs: chain.modules, withLegacy: true })).not.toThrow();
      // BFT's batch is the PoS round, as in every Lisk chain.
      expect(parsePosConfig(chain.modules.pos ?? {}, chain.genesis).roundLength).toBe(chain.genesis.bftBatchSize);
      // The sidechain devnet runs beside the mainchain devnet on the same machine.
      const sidechain = network === 'devnet-sidechain';
      expect(config.rpc.port).toBe(sidechain ? 7888 : 7887);
      expect(config.network.port).toBe(sidechain ? 7668 : 7667);
      expect(config.legacyApi).toEqual({ enabled: false, host: '127.0.0.1', port: 4000 });
    });
  }

  it('carry Lisk Core v4 chain IDs, token IDs and certify heights', () => {
    const expected = {
      devnet: ['04000000', 36, 3, 9],
      'devnet-101': ['04000000', 1, 10, 103],
      'devnet-sidechain': ['04000001', 1, 3, 5],
      testnet: ['01000000', 20520176, 10, 103],
      mainnet: ['00000000', 23461753, 10, 103],
    } as const;
    for (const network of NETWORKS) {
      const { genesis, modules } = merged(network);
      const [chainID, minimumCertifyHeight, blockTime, bftBatchSize] = expected[network];
      expect([genesis.chainID, genesis.minimumCertifyHeight, genesis.blockTime, genesis.bftBatchSize]).toEqual([
        chainID,
        minimumCertifyHeight,
        blockTime,
        bftBatchSize,
      ]);
      expect(genesis.maxTransactionsSize).toBe(15360);
      expect(modules.fee?.feeTokenID).toBe(`${chainID}00000000`);
      expect((modules.dynamicReward as { tokenID: string }).tokenID).toBe(`${chainID}00000000`);
    }
    const mainnet = merged('mainnet');
    expect(mainnet.modules.pos).toEqual({ maxBFTWeightCap: 1000, useInvalidBLSKey: true });
    expect(mainnet.modules.dynamicReward).toMatchObject({ offset: 2160, distance: 3000000 });
    expect(mainnet.network.seedPeers).toHaveLength(10);
    expect(merged('testnet').network.seedPeers).toHaveLength(5);
  });

  it('let the devnets use the generator, system and random methods, and testnet/mainnet none', () => {
    expect(merged('devnet').rpc.allowedMethods).toEqual(['generator', 'system', 'random']);
    expect(merged('devnet-101').rpc.allowedMethods).toEqual(['generator', 'system', 'random']);
    expect(merged('devnet-sidechain').rpc.allowedMethods).toEqual(['generator', 'system', 'random']);
    expect(merged('testnet').rpc.allowedMethods).toEqual([]);
    expect(merged('mainnet').rpc.allowedMethods).toEqual([]);
  });

  it('ship a genesis block for the devnets only', () => {
    expect(loadNetworkPreset('testnet').genesisFile).toBeUndefined();
    expect(loadNetworkPreset('mainnet').genesisFile).toBeUndefined();
    const core = loadNetworkPreset('devnet-101');
    const block = Block.fromBytes(readFileSync(core.genesisFile as string));
    expect(block.header.id.toString('hex')).toBe('7a8e35e322dd313c2a3b9ccccd9e2655e6287e3bd91b019bf0666391e7c7662d');
    expect(loadNetworkPreset('devnet').genesisFile).toBeDefined();
    expect(loadNetworkPreset('devnet').bootstrapFile).toBeDefined();
    expect(core.bootstrapFile).toBeUndefined();
    expect(loadNetworkPreset('devnet-sidechain').genesisFile).toBeDefined();
    expect(loadNetworkPreset('devnet-sidechain').bootstrapFile).toBeUndefined();
  });
});
