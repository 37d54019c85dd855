/**
 * resolveNodeConfig on real temporary data directories: layer order, the copy kept in the data
 * directory, the overwrite rules of Lisk Core v4's start, and refusals that name the key
 * and leave the data directory untouched.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/config-error.js';
import { parseSeedPeers } from '../../../src/config/config-flags.js';
import { checkGeneratorKeysFile } from '../../../src/config/generator-keys-file.js';
import { PRESETS_DIR } from '../../../src/config/presets.js';
import { commitNodeConfig, prepareNodeConfig, resolveNodeConfig } from '../../../src/config/resolve-node-config.js';
import { openChain } from '../../../src/node.js';
import { checkModuleConfigs } from '../../../src/runtime/module-config-check.js';
import { version } from '../../../src/version.js';
import { fixturePath } from '../../support/fixtures.js';

const root = mkdtempSync(join(tmpdir(), 'basalt-resolve-config-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let counter = 0;
const newDir = (name: string): string => join(root, `${name}-${(counter += 1)}`);
const devnetFile = (name: string): string => join(PRESETS_DIR, 'devnet', name);
const readJson = (path: string): Record<string, any> => JSON.parse(readFileSync(path, 'utf8')) as Record<string, any>;
const writeJson = (path: string, value: unknown): string => {
  writeFileSync(path, JSON.stringify(value));
  return path;
};
/** Every file of a directory with its content, to prove that nothing changed. */
const snapshot = (dir: string): Record<string, string> =>
  Object.fromEntries(
    readdirSync(dir, { recursive: true }).map((name) => [
      String(name),
      statSync(join(dir, String(name))).isFile() ? readFileSync(join(dir, String(name)), 'hex') : 'dir',
    ]),
  );

describe('resolveNodeConfig: first start', () => {
  it('builds the devnet by default and keeps a copy of config, genesis and keys in the data directory', () => {
    const dataPath = newDir('fresh');
    const plan = resolveNodeConfig({ dataPath });
    expect(plan.action).toBe('create');
    expect(plan.network).toBe('devnet');
    expect(plan.dataPath).toBe(dataPath);
    expect(readdirSync(join(dataPath, 'config')).sort()).toEqual([
      'bootstrap_transactions.json',
      'config.json',
      'dev-validators.json',
      'genesis_block.blob',
    ]);
    expect(readFileSync(join(dataPath, 'config/genesis_block.blob')).equals(readFileSync(devnetFile('genesis_block.blob')))).toBe(true);
    expect(readFileSync(join(dataPath, 'config/dev-validators.json')).equals(readFileSync(devnetFile('dev-validators.json')))).toBe(true);
    expect(statSync(join(dataPath, 'config/dev-validators.json')).mode & 0o777).toBe(0o600);

    const stored = readJson(join(dataPath, 'config/config.json'));
    expect(stored).toEqual(JSON.parse(JSON.stringify(plan.storedConfig)));
    expect(stored.genesis.block).toEqual({ fromFile: './config/genesis_block.blob' });
    expect(stored.generator.keys).toEqual({ fromFile: './config/dev-validators.json' });
    expect(stored.system).toMatchObject({ dataPath, version, keepEventsForHeights: -1 });
    expect(plan.generatorKeysFile).toBe(join(dataPath, 'config/dev-validators.json'));
    expect(plan.bootstrapTransactionsFile).toBe(join(dataPath, 'config/bootstrap_transactions.json'));
    expect(plan.chainConfig.genesis.chainID.toString('hex')).toBe('04000000');
    expect(plan.chainConfig.genesisBlockFile).toBe(join(dataPath, 'config/genesis_block.blob'));
    expect(plan.warnings).toEqual([]);
  });

  it('defaults the data path to ~/.basalt/<network>', () => {
    const home = newDir('home');
    const plan = prepareNodeConfig({ homeDir: home, network: 'devnet-101' });
    expect(plan.dataPath).toBe(join(home, '.basalt', 'devnet-101'));
    expect(plan.generatorKeysFile).toBe(join(home, '.basalt', 'devnet-101', 'config', 'dev-validators.json'));
    expect(existsSync(home)).toBe(false);
    expect(prepareNodeConfig({ homeDir: home, dataPath: '~/nodes/a' }).dataPath).toBe(join(home, 'nodes', 'a'));
  });

  it('applies defaults ← preset ← config file ← flags, and stores everything but the flags', () => {
    const dataPath = newDir('layers');
    const configFile = writeJson(join(root, `layers-${counter}.json`), {
      rpc: { port: 7900, modes: ['ipc'] },
      transactionPool: { maxTransactions: 100 },
      modules: { pos: { lockingPeriodStaking: 300 } },
    });
    const plan = resolveNodeConfig({
      dataPath,
      configFile,
      apiPort: 7901,
      port: 7700,
      logLevel: 'debug',
      seedPeers: '10.0.0.1:7667,seed.example.com:7668',
      apiModes: ['ws', 'http'],
      overrides: { legacyApi: { enabled: true } },
    });
    const { rpc, network, system, transactionPool, modules, legacyApi } = plan.config;
    expect(rpc).toMatchObject({ port: 7901, modes: ['ws', 'http'], host: '127.0.0.1', allowedMethods: ['generator', 'system', 'random'] });
    expect(rpc.maxBodyBytes).toBe(1024 * 1024);
    expect(network).toEqual({
      version: '5.0',
      seedPeers: [
        { ip: '10.0.0.1', port: 7667 },
        { ip: 'seed.example.com', port: 7668 },
      ],
      port: 7700,
    });
    expect(system.logLevel).toBe('debug');
    expect(transactionPool).toMatchObject({ maxTransactions: 100, maxTransactionsPerAccount: 64 });
    expect(modules.pos).toMatchObject({ lockingPeriodStaking: 300, lockingPeriodSelfStaking: 400, numberActiveValidators: 7 });
    expect(legacyApi.enabled).toBe(true);

    const stored = readJson(join(dataPath, 'config/config.json'));
    expect(stored.rpc).toMatchObject({ port: 7900, modes: ['ipc'] });
    expect(stored.network.port).toBe(7667);
    expect(stored.system.logLevel).toBe('info');
    expect(stored.legacyApi.enabled).toBe(false);
    expect(stored.modules.pos.lockingPeriodStaking).toBe(300);
  });

  it('resolves relative paths of a config file against its folder, and stores them absolute', () => {
    const dir = newDir('own-files');
    mkdirSync(dir);
    copyFileSync(devnetFile('genesis_block.blob'), join(dir, 'my_genesis.blob'));
    copyFileSync(devnetFile('dev-validators.json'), join(dir, 'keys.json'));
    const configFile = writeJson(join(dir, 'config.json'), {
      genesis: { block: { fromFile: './my_genesis.blob' } },
      generator: { keys: { fromFile: 'keys.json' } },
    });
    const dataPath = join(dir, 'data');
    const plan = resolveNodeConfig({ dataPath, configFile });
    expect(plan.generatorKeysFile).toBe(join(dir, 'keys.json'));
    expect(plan.storedConfig.generator.keys.fromFile).toBe(join(dir, 'keys.json'));
    expect(plan.storedConfig.genesis.block).toEqual({ fromFile: './config/genesis_block.blob' });
    expect(readdirSync(join(dataPath, 'config')).sort()).toEqual(['config.json', 'genesis_block.blob']);
    expect(plan.bootstrapTransactionsFile).toBeUndefined();
    // A restart with the same config file is the same config.
    expect(resolveNodeConfig({ dataPath, configFile }).action).toBe('keep');
  });

  it("starts from a Lisk Core data directory's config unchanged", async () => {
    // Lisk Core keeps <data>/config/config.json with paths relative to <data>.
    const lisk = newDir('lisk-core-data');
    mkdirSync(join(lisk, 'config'), { recursive: true });
    for (const name of ['config.json', 'genesis_block.blob', 'dev-validators.json']) {
      copyFileSync(fixturePath(`genesis/lisk-core-devnet/${name}`), join(lisk, 'config', name));
    }
    const dataPath = newDir('from-lisk');
    const plan = resolveNodeConfig({ dataPath, configFile: join(lisk, 'config/config.json') });
    expect(plan.genesisBlock.header.id.toString('hex')).toBe('7a8e35e322dd313c2a3b9ccccd9e2655e6287e3bd91b019bf0666391e7c7662d');
    expect(plan.generatorKeysFile).toBe(join(lisk, 'config/dev-validators.json'));
    expect(plan.config.genesis.blockTime).toBe(10);
    // Over the defaults, not over the devnet preset: lisk-sdk's 101 + 2 validators, batch 103.
    expect(plan.network).toBeUndefined();
    expect(plan.config.genesis.bftBatchSize).toBe(103);
    expect(plan.config.modules.pos).toEqual({ maxBFTWeightCap: 1000, useInvalidBLSKey: false });
    expect(plan.config.rpc.allowedMethods).toEqual([]);
    expect(plan.warnings).toEqual([]);
    expect(resolveNodeConfig({ dataPath, configFile: join(lisk, 'config/config.json') }).action).toBe('keep');
    // And the chain opens: execution reproduces the genesis header's roots.
    const chain = await openChain({ dataPath, config: plan.chainConfig, genesisBlock: plan.genesisBlock });
    try {
      expect(chain.stateDb.root().equals(plan.genesisBlock.header.stateRoot)).toBe(true);
    } finally {
      await chain.close();
    }
  });

  it('accepts a genesis block embedded as hex', () => {
    const configFile = writeJson(join(root, `blob-${counter}.json`), {
      genesis: { block: { blob: readFileSync(devnetFile('genesis_block.blob')).toString('hex') } },
    });
    const plan = prepareNodeConfig({ dataPath: newDir('blob'), configFile });
    expect(plan.genesisBlockBytes.equals(readFileSync(devnetFile('genesis_block.blob')))).toBe(true);
  });
});

describe('resolveNodeConfig: restarts and overwrite rules', () => {
  it('reuses the stored config on a plain restart and writes nothing', () => {
    const dataPath = newDir('restart');
    resolveNodeConfig({ dataPath });
    const before = snapshot(dataPath);
    const again = resolveNodeConfig({ dataPath, port: 7999 });
    expect(again.action).toBe('keep');
    expect(again.network).toBeUndefined();
    expect(again.config.network.port).toBe(7999);
    expect(again.generatorKeysFile).toBe(join(dataPath, 'config/dev-validators.json'));
    expect(again.bootstrapTransactionsFile).toBe(join(dataPath, 'config/bootstrap_transactions.json'));
    expect(snapshot(dataPath)).toEqual(before);
    // Naming the same network again is the same config.
    expect(resolveNodeConfig({ dataPath, network: 'devnet' }).action).toBe('keep');
  });

  it('refuses a restart with a different config, naming the key, unless overwriteConfig', () => {
    const dataPath = newDir('differs');
    resolveNodeConfig({ dataPath });
    const before = snapshot(dataPath);
    const configFile = writeJson(join(root, `differs-${counter}.json`), { rpc: { port: 7900 } });
    let message = '';
    try {
      resolveNodeConfig({ dataPath, configFile });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    expect(message).toBe(
      `Data path ${dataPath} already contains a different config (.rpc.port is 7887 there but 7900 here). Use --overwrite-config to overwrite the config.`,
    );
    expect(snapshot(dataPath)).toEqual(before);

    const overwritten = resolveNodeConfig({ dataPath, configFile, overwriteConfig: true });
    expect(overwritten.action).toBe('overwrite');
    expect(readJson(join(dataPath, 'config/config.json')).rpc.port).toBe(7900);
    // From now on the stored config is the node's config.
    expect(resolveNodeConfig({ dataPath }).config.rpc.port).toBe(7900);
  });

  it('refuses another network (another genesis block) unless overwriteConfig', () => {
    const dataPath = newDir('network');
    resolveNodeConfig({ dataPath });
    const before = snapshot(dataPath);
    expect(() => resolveNodeConfig({ dataPath, network: 'devnet-101' })).toThrow(
      /already contains a different config \(its genesis block is e10bf313\w+, the given one is 7a8e35e322dd313c2a3b9ccccd9e2655e6287e3bd91b019bf0666391e7c7662d\)/,
    );
    expect(snapshot(dataPath)).toEqual(before);
    const plan = resolveNodeConfig({ dataPath, network: 'devnet-101', overwriteConfig: true });
    expect(plan.action).toBe('overwrite');
    expect(plan.genesisBlock.header.id.toString('hex')).toBe('7a8e35e322dd313c2a3b9ccccd9e2655e6287e3bd91b019bf0666391e7c7662d');
    expect(
      readFileSync(join(dataPath, 'config/genesis_block.blob')).equals(readFileSync(join(PRESETS_DIR, 'devnet-101/genesis_block.blob'))),
    ).toBe(true);
    expect(resolveNodeConfig({ dataPath }).config.genesis.blockTime).toBe(10);
  });

  it('refuses a stored config that is not JSON', () => {
    const dataPath = newDir('corrupt');
    resolveNodeConfig({ dataPath });
    writeFileSync(join(dataPath, 'config/config.json'), '{');
    expect(() => resolveNodeConfig({ dataPath })).toThrow(/cannot be read: .*--overwrite-config/);
    expect(resolveNodeConfig({ dataPath, overwriteConfig: true }).action).toBe('overwrite');
    expect(resolveNodeConfig({ dataPath }).action).toBe('keep');
  });

  it('prepare only reads; commit writes', () => {
    const dataPath = newDir('two-step');
    const plan = prepareNodeConfig({ dataPath });
    expect(existsSync(dataPath)).toBe(false);
    commitNodeConfig(plan);
    expect(existsSync(join(dataPath, 'config/config.json'))).toBe(true);
  });
});

describe('resolveNodeConfig: testnet and mainnet need their genesis block', () => {
  it('says how to give it when it is missing, and creates nothing', () => {
    const dataPath = newDir('mainnet');
    expect(() => resolveNodeConfig({ dataPath, network: 'mainnet' })).toThrow(
      `The mainnet preset ships no genesis block. Give Lisk Core's mainnet genesis_block.blob with --genesis FILE (or place it at ${join(dataPath, 'config/genesis_block.blob')}).`,
    );
    expect(() => resolveNodeConfig({ dataPath, network: 'testnet' })).toThrow('The testnet preset ships no genesis block.');
    expect(existsSync(dataPath)).toBe(false);
  });

  it('takes it from --genesis, or from where Lisk Core keeps it in the data directory', () => {
    // A stand-in block: these tests are about finding the file, not about mainnet's state.
    const genesis = fixturePath('genesis/lisk-core-devnet/genesis_block.blob');
    const dataPath = newDir('mainnet-genesis');
    const plan = resolveNodeConfig({ dataPath, network: 'mainnet', genesisFile: genesis });
    expect(plan.chainConfig.genesis.chainID.toString('hex')).toBe('00000000');
    expect(plan.chainConfig.genesis.minimumCertifyHeight).toBe(23461753);
    expect(plan.config.rpc.allowedMethods).toEqual([]);
    expect(plan.generatorKeysFile).toBeUndefined();
    expect(readFileSync(join(dataPath, 'config/genesis_block.blob')).equals(readFileSync(genesis))).toBe(true);
    expect(resolveNodeConfig({ dataPath }).action).toBe('keep');

    const placed = newDir('testnet-placed');
    mkdirSync(join(placed, 'config'), { recursive: true });
    copyFileSync(genesis, join(placed, 'config/genesis_block.blob'));
    expect(resolveNodeConfig({ dataPath: placed, network: 'testnet' }).chainConfig.genesis.chainID.toString('hex')).toBe('01000000');
  });

  it('refuses a file that is not a genesis block', () => {
    const bad = join(root, 'not-genesis.blob');
    writeFileSync(bad, Buffer.from('0a0b', 'hex'));
    expect(() => prepareNodeConfig({ dataPath: newDir('bad-genesis'), network: 'mainnet', genesisFile: bad })).toThrow(
      `${bad} is not a valid genesis block`,
    );
    expect(() => prepareNodeConfig({ dataPath: newDir('no-genesis'), network: 'mainnet', genesisFile: join(root, 'none.blob') })).toThrow(
      '--genesis: cannot read the genesis block file',
    );
  });
});

describe('resolveNodeConfig: bad values are refused with the key named and nothing written', () => {
  const refuses = (options: Parameters<typeof prepareNodeConfig>[0], message: string | RegExp): void => {
    const dataPath = newDir('refused');
    expect(() => resolveNodeConfig({ dataPath, checkChainConfig: checkModuleConfigs, ...options })).toThrow(message);
    expect(existsSync(dataPath)).toBe(false);
  };
  const file = (value: unknown): string => writeJson(join(root, `bad-${(counter += 1)}.json`), value);

  it('config values', () => {
    refuses(
      { configFile: file({ rpc: { port: 70000 }, network: { port: 'x' } }) },
      /Invalid config \(.*\):\n {2}\.rpc\.port: must be <= 65535\n {2}\.network\.port: must be integer/,
    );
    refuses({ apiPort: 80 }, 'Invalid config (command-line flags):\n  .rpc.port: must be >= 1024');
    refuses({ logLevel: 'loud' }, '.system.logLevel: must be one of "trace", "debug", "info", "warn", "error", "fatal", "none"');
    refuses({ configFile: file({ genesis: { chainID: 'xyz' } }) }, '.genesis.chainID: must match format "hex"');
  });

  it('module configs, with the bounds lisk-sdk derives from the block time', () => {
    refuses(
      { configFile: file({ modules: { pos: { failSafeInactiveWindow: 1000 } } }) },
      '.modules.pos.failSafeInactiveWindow: must be >= 144000',
    );
    refuses({ configFile: file({ modules: { dynamicReward: { brackets: [] } } }) }, '.modules.dynamicReward.brackets');
  });

  it('files: config file, keys file, seed peers, network', () => {
    refuses({ configFile: join(root, 'missing.json') }, `Cannot read config file ${join(root, 'missing.json')}: file not found`);
    refuses({ configFile: file([1]) }, 'must hold a JSON object');
    refuses(
      { configFile: file({ generator: { keys: { fromFile: './nowhere.json' } } }) },
      /\.generator\.keys\.fromFile: "\.\/nowhere\.json" not found/,
    );
    refuses(
      { configFile: file({ generator: { keys: { fromFile: fixturePath('chains/dev/config.json') } } }) },
      'is not a Lisk keys.json file',
    );
    refuses(
      { configFile: file({ legacyApi: { enabled: true, configFile: './forging.json' } }) },
      /\.legacyApi\.configFile: "\.\/forging\.json" not found/,
    );
    refuses({ seedPeers: '1.2.3.4' }, 'Invalid seed-peers, ip or port is invalid or not specified.');
    refuses({ network: 'alphanet' }, 'Network alphanet is not supported');
  });
});

describe('config helpers', () => {
  it('parseSeedPeers reads ip:port lists', () => {
    expect(parseSeedPeers('1.2.3.4:7667')).toEqual([{ ip: '1.2.3.4', port: 7667 }]);
    expect(() => parseSeedPeers('1.2.3.4:x')).toThrow(ConfigError);
    expect(() => parseSeedPeers(':7667')).toThrow(ConfigError);
  });

  it('checkGeneratorKeysFile accepts Lisk keys.json files and never echoes key material', () => {
    expect(checkGeneratorKeysFile(fixturePath('genesis/lisk-core-devnet/dev-validators.json'))).toBe(103);
    expect(checkGeneratorKeysFile(devnetFile('dev-validators.json'))).toBe(9);
    const keys = readJson(devnetFile('dev-validators.json'));
    const entry = keys.keys[0];
    const broken = writeJson(join(root, 'broken-keys.json'), { keys: [{ ...entry, address: 'lsk-not-an-address', plain: undefined }] });
    let message = '';
    try {
      checkGeneratorKeysFile(broken);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('.keys[0].address: must match format "lisk32"');
    expect(message).not.toContain(entry.privateKey);
  });

  it('warns about unknown keys and a BFT batch size unlike the round length', () => {
    const configFile = writeJson(join(root, `warn-${counter}.json`), { rpc: { maxBodyByte: 1 }, genesis: { bftBatchSize: 10 } });
    expect(prepareNodeConfig({ dataPath: newDir('warn'), configFile, checkChainConfig: checkModuleConfigs }).warnings).toEqual([
      'Unknown config key .rpc.maxBodyByte is ignored.',
      '.genesis.bftBatchSize is 10 but the PoS round length is 9; Lisk chains use the round length.',
    ]);
  });
});
