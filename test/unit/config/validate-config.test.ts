/**
 * Config validation: every problem reported at once, each naming its key and what it must be.
 */
import { describe, expect, it } from 'vitest';
import { defaultNodeConfig } from '../../../src/config/config-defaults.js';
import { ConfigError } from '../../../src/config/config-error.js';
import { mergeConfigLayers } from '../../../src/config/merge-config.js';
import type { NodeConfig } from '../../../src/config/node-config.js';
import { nodeConfigProblems, unknownConfigKeys, validateNodeConfig } from '../../../src/config/validate-config.js';

const withChain = (layer: object = {}) => mergeConfigLayers(defaultNodeConfig(), { genesis: { chainID: '04000000' } }, layer);

describe('validateNodeConfig', () => {
  it('accepts the defaults with a chain ID', () => {
    expect(nodeConfigProblems(withChain())).toEqual([]);
    expect(validateNodeConfig(withChain()).rpc.port).toBe(7887);
  });

  it('names the key and the expected value of each problem', () => {
    const problems = nodeConfigProblems(
      withChain({
        rpc: { port: 70000, modes: ['ipc', 'grpc'], maxBatchSize: 0 },
        network: { port: -5, seedPeers: [{ ip: 'not a host!', port: 7667 }] },
        system: { logLevel: 'verbose', keepEventsForHeights: -2 },
        genesis: { chainID: '0400', blockTime: 2, bftBatchSize: 202, maxTransactionsSize: 100 },
        transactionPool: { minEntranceFeePriority: '-1' },
        legacyApi: { port: 'x' },
      }),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        '.rpc.port: must be <= 65535',
        '.rpc.modes[1]: must be one of "ipc", "ws", "http"',
        '.rpc.maxBatchSize: must be >= 1',
        '.network.port: must be >= 1',
        '.network.seedPeers[0].ip: must match format "ipOrFQDN"',
        '.system.logLevel: must be one of "trace", "debug", "info", "warn", "error", "fatal", "none"',
        '.system.keepEventsForHeights: must be >= -1',
        '.genesis.chainID: must NOT have fewer than 8 characters',
        '.genesis.blockTime: must be >= 3',
        '.genesis.bftBatchSize: must be <= 201',
        '.genesis.maxTransactionsSize: must be >= 11264',
        '.transactionPool.minEntranceFeePriority: must match format "uint64"',
        '.legacyApi.port: must be integer',
      ]),
    );
    expect(problems).toHaveLength(13);
  });

  it('accepts port 0 (any free port) for the RPC server, the P2P network and the legacy API, and nothing else below their ranges', () => {
    expect(nodeConfigProblems(withChain({ rpc: { port: 0 }, legacyApi: { port: 0 }, network: { port: 0 } }))).toEqual([]);
    expect(nodeConfigProblems(withChain({ rpc: { port: 80 }, network: { port: -1 } }))).toEqual([
      '.rpc.port: must be >= 1024',
      '.network.port: must be >= 1',
    ]);
  });

  it('throws one ConfigError listing every problem', () => {
    const bad = withChain({ rpc: { port: 70000 }, network: { port: -1 } });
    expect(() => validateNodeConfig(bad, 'config.json')).toThrow(ConfigError);
    expect(() => validateNodeConfig(bad, 'config.json')).toThrow(
      'Invalid config.json:\n  .rpc.port: must be <= 65535\n  .network.port: must be >= 1',
    );
  });

  it('refuses unknown top-level and genesis keys, as lisk-sdk does', () => {
    expect(nodeConfigProblems(withChain({ rcp: {} }))).toEqual(["config: must NOT have additional properties ('rcp')"]);
    expect(nodeConfigProblems(withChain({ genesis: { blocktime: 3 } }))).toEqual([
      ".genesis: must NOT have additional properties ('blocktime')",
    ]);
  });

  it('needs exactly one genesis block source', () => {
    const both = withChain();
    (both.genesis as Record<string, unknown>).block = { fromFile: './a.blob', blob: '00' };
    expect(nodeConfigProblems(both)).toEqual(['.genesis.block: must have exactly one of "fromFile" (a file path) or "blob" (hex bytes)']);
    (both.genesis as Record<string, unknown>).block = {};
    expect(nodeConfigProblems(both)).toHaveLength(1);
    (both.genesis as Record<string, unknown>).block = { blob: 'zz' };
    expect(nodeConfigProblems(both)).toEqual(['.genesis.block.blob: must match format "hex"']);
  });

  it('needs a chain ID and module sections that are objects', () => {
    expect(nodeConfigProblems(defaultNodeConfig())).toEqual([".genesis: must have required property 'chainID'"]);
    expect(nodeConfigProblems(withChain({ modules: { pos: 5 } }))).toEqual(['.modules.pos: must be object']);
    expect(nodeConfigProblems(withChain({ modules: { 'bad-name': {} } }))).toHaveLength(1);
  });

  it('lists keys lisk-sdk tolerates but Basalt does not know, for a warning', () => {
    const config = withChain({ rpc: { maxBodyByte: 10 }, system: { enableMetrics: true, colour: 'red' } }) as unknown as NodeConfig;
    expect(nodeConfigProblems(config)).toEqual([]);
    expect(unknownConfigKeys(config)).toEqual(['.system.colour', '.rpc.maxBodyByte']);
  });
});
