import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultNodeConfig } from '../../../src/config/config-defaults.js';
import { mergeConfigLayers } from '../../../src/config/merge-config.js';
import { validateNodeConfig } from '../../../src/config/validate-config.js';
import {
  bundledV4Config,
  migratedLogLevel,
  migrateV3Config,
  minimumCertifyHeight,
  readV3Config,
  renderConfig,
  validateMigratedConfig,
} from '../../../src/migration/config/migrate-config.js';
import { MIGRATION_FIXTURES, migrationFixturesPresent } from './migration-fixtures.js';

const loadedByBasalt = (config: Record<string, unknown>) => validateNodeConfig(mergeConfigLayers(defaultNodeConfig(), config));

describe('v3 -> v4 config migration', () => {
  it('uses the migrator bundled config as the base and passes Basalt config validation', () => {
    for (const network of ['mainnet', 'testnet'] as const) {
      const { config } = migrateV3Config({}, bundledV4Config(network), 1000);
      const loaded = loadedByBasalt(config);
      expect(loaded.genesis.chainID).toBe(network === 'mainnet' ? '00000000' : '01000000');
      expect(loaded.rpc.allowedMethods).toEqual(['generator', 'system', 'random', 'keys', 'legacy']);
      expect(loaded.system.version).toBe('0.1.0');
      expect(loaded.genesis.minimumCertifyHeight).toBe(1000 + 70762);
    }
  });

  it('computes minimumCertifyHeight as the mainnet and testnet configs of Lisk Core 4 have it', () => {
    expect(minimumCertifyHeight(23390991)).toBe(23461753);
    expect(minimumCertifyHeight(20449414)).toBe(20520176);
  });

  it('picks the more verbose of the two v3 log levels; unknown levels count as info', () => {
    expect(migratedLogLevel({ fileLogLevel: 'debug', consoleLogLevel: 'info' })).toBe('debug');
    expect(migratedLogLevel({ fileLogLevel: 'none', consoleLogLevel: 'error' })).toBe('info');
    expect(migratedLogLevel({ fileLogLevel: 'TRACE' })).toBe('trace');
    expect(migratedLogLevel({ consoleLogLevel: 'fatal', fileLogLevel: 'warn' })).toBe('warn');
    expect(migratedLogLevel({})).toBe('info');
  });

  it('carries truthy v3 values only and leaves forging, plugins and peers behind', () => {
    const v3 = {
      rootPath: '/srv/lisk',
      logger: { fileLogLevel: 'warn', consoleLogLevel: 'error' },
      transactionPool: { maxTransactions: 1000, maxTransactionsPerAccount: 0, minEntranceFeePriority: '5' },
      rpc: { enable: true, mode: 'ws', port: 8080 },
      network: {
        port: 5001,
        hostIp: '10.0.0.1',
        maxInboundConnections: 50,
        advertiseAddress: false,
        seedPeers: [{ ip: '1.2.3.4', port: 1 }],
      },
      forging: { force: true, delegates: [{ address: 'aa' }] },
      plugins: { httpApi: { port: 4000 } },
    };
    const { config, changes } = migrateV3Config(v3, bundledV4Config('mainnet'), 23390991);
    const system = config.system as Record<string, unknown>;
    expect(system.dataPath).toBe('/srv/lisk');
    expect(system.logLevel).toBe('warn');
    const pool = config.transactionPool as Record<string, unknown>;
    expect(pool.maxTransactions).toBe(1000);
    expect(pool.maxTransactionsPerAccount).toBe(64);
    expect(pool.minEntranceFeePriority).toBe('5');
    const rpc = config.rpc as Record<string, unknown>;
    expect(rpc.modes).toEqual(['ws']);
    expect(rpc.port).toBe(7887);
    const network = config.network as Record<string, unknown>;
    expect(network.port).toBe(5001);
    expect(network.host).toBe('10.0.0.1');
    expect(network.maxInboundConnections).toBe(50);
    expect(network.advertiseAddress).toBeUndefined();
    expect((network.seedPeers as unknown[]).length).toBe(10);
    expect(config.forging).toBeUndefined();
    expect(config.plugins).toEqual({});
    expect(changes).toContain("Setting config property 'network.host' to: 10.0.0.1.");
    loadedByBasalt(config);
  });

  it('sets maxBFTWeightCap when the base pos section lacks it', () => {
    const base = bundledV4Config('testnet');
    delete ((base.modules as Record<string, Record<string, unknown>>).pos as Record<string, unknown>).maxBFTWeightCap;
    const { config } = migrateV3Config({}, base, 309);
    expect((config.modules as Record<string, Record<string, unknown>>).pos?.maxBFTWeightCap).toBe(1000);
  });

  it('refuses a migrated config Basalt would not load, with the migrator message first', () => {
    const { config } = migrateV3Config({ network: { port: 'not a port' } }, bundledV4Config('mainnet'), 309);
    expect(() => validateMigratedConfig(config)).toThrow(/^Migrated user configuration is invalid\.\n {2}\.network\.port/);
  });

  it('merges the --config file over the data directory config (objects merge, arrays replace)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'basalt-v3-config-'));
    try {
      writeFileSync(
        join(dir, 'config.json'),
        JSON.stringify({ network: { port: 5000, seedPeers: [{ ip: 'a', port: 1 }] }, logger: { fileLogLevel: 'info' } }),
      );
      writeFileSync(join(dir, 'custom.json'), JSON.stringify({ network: { seedPeers: [] }, logger: { consoleLogLevel: 'trace' } }));
      expect(readV3Config(join(dir, 'config.json'), join(dir, 'custom.json'))).toEqual({
        network: { port: 5000, seedPeers: [] },
        logger: { fileLogLevel: 'info', consoleLogLevel: 'trace' },
      });
      expect(() => readV3Config(join(dir, 'missing.json'))).toThrow(/Cannot read the Lisk Core v3 config/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!migrationFixturesPresent)('against the config.json of the real lisk-migrator 2.0.1 (dev h309)', () => {
  // In beforeAll: a skipped describe still runs its body, and the tarball is absent then.
  let work = '';
  let customConfig = '';
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'basalt-migrate-config-'));
    execFileSync('tar', [
      'xzf',
      join(MIGRATION_FIXTURES, 'dev', 'lisk-core-3.0.3-devnet-h309.tgz'),
      '-C',
      work,
      'data/config/devnet/config.json',
    ]);
    // The custom config (--config) the oracle's Lisk Core 3 node ran with, written here rather
    // than read from the tools that started that node: the fixtures can sit beside the repository
    // without those tools (CI then skips only the interop tests), and these tests must not fail.
    // Its only setting keeps the devnet node from dialling the stock seed peers; backup-config.json
    // below proves that it is the file the migrator merged.
    customConfig = join(work, 'local-config.json');
    writeFileSync(customConfig, JSON.stringify({ network: { seedPeers: [] } }));
  });

  for (const network of ['mainnet', 'testnet'] as const) {
    it(`reproduces ${network}'s config.json from the devnet config merged with local-config.json`, () => {
      const v3 = readV3Config(join(work, 'data', 'config', 'devnet', 'config.json'), customConfig);
      const expectedBackup = JSON.parse(readFileSync(join(MIGRATION_FIXTURES, 'dev', `h309-${network}`, 'backup-config.json'), 'utf8'));
      expect(v3).toEqual(expectedBackup);
      const { config } = migrateV3Config(v3, bundledV4Config(network), 309);
      const expected = JSON.parse(readFileSync(join(MIGRATION_FIXTURES, 'dev', `h309-${network}`, 'config.json'), 'utf8'));
      expect(config).toEqual(expected);
      expect(renderConfig(config)).toBe(renderConfig(expected));
      validateMigratedConfig(config);
      loadedByBasalt(config);
    });
  }
});
