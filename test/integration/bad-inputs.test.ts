/**
 * Bad files and settings given to the real `basalt` command (a process, real files): a truncated
 * genesis block, a config that is not JSON or has a wrong-typed key, a damaged generator keys file
 * (in the config, and to keys:import), a damaged legacy `forger_info.json`, a wrong password
 * (generator:enable, passphrase:decrypt), a data directory of another chain (with and without
 * --overwrite-config). Each ends with a message naming the problem and the stable exit code of
 * README "The `basalt` command"; no secret appears in any output; and every file involved hashes the same
 * before and after. An unknown config key is Lisk's leniency: accepted, with a warning naming it.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAIN_ENV_OPTIONS, chainEnvPath } from '../../src/chain/lmdb-environment.js';
import { EXIT_NODE_ERROR } from '../../src/cli/command.js';
import { TEST_ARGON2_MEMORY_ENV } from '../../src/cli/support/encryption-options.js';
import { encryptPassphraseV3 } from '../../src/crypto/passphrase-v3.js';
import { runBasalt, type CliResult } from '../support/cli.js';
import { ROOT, startBasaltNode, stopProcess, waitForHeight, type NodeProcess } from '../support/node-process.js';

const PASSPHRASE = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const PASSWORD = 'right-horse-battery-staple';
const WRONG_PASSWORD = 'wrong-horse-battery-staple';
const DEVNET_GENESIS = join(ROOT, 'config/devnet/genesis_block.blob');

/** SHA-256 of every file under `path` (lock files aside: an open, even read-only, may make one). */
function hashTree(path: string): Record<string, string> {
  const hashes: Record<string, string> = {};
  const visit = (current: string, prefix: string): void => {
    if (!existsSync(current)) return;
    if (statSync(current).isFile()) {
      hashes[prefix || '.'] = createHash('sha256').update(readFileSync(current)).digest('hex');
      return;
    }
    for (const name of readdirSync(current).sort()) {
      if (name.endsWith('-lock') || name.endsWith('.lock') || name === 'tmp') continue;
      visit(join(current, name), prefix === '' ? name : `${prefix}/${name}`);
    }
  };
  visit(path, '');
  return hashes;
}

describe('bad files and settings given to the basalt command', () => {
  let dir: string;
  /** Every case's figures: name, exit code, files checked. */
  const figures: { name: string; code: number | null; files: number }[] = [];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'basalt-bad-inputs-'));
  });
  afterAll(() => {
    console.log(
      `Bad inputs: ${figures.length} cases; ${figures.map((figure) => `${figure.name} → exit ${figure.code} (${figure.files} files unchanged)`).join('; ')}`,
    );
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * Runs `basalt ARGS`, expects exit code `code` and `message` on stderr, no secret anywhere in
   * the output, and the files under `watched` unchanged.
   */
  async function expectRefused(
    name: string,
    args: readonly string[],
    expected: { code: number; message: string | RegExp; watched: readonly string[]; env?: NodeJS.ProcessEnv; absent?: string },
  ): Promise<CliResult> {
    const before = expected.watched.map(hashTree);
    const result = await runBasalt(args, { env: expected.env });
    expect(result.code, `${name}:\n${result.stdout}\n${result.stderr}`).toBe(expected.code);
    expect(result.stderr).toMatch(expected.message);
    for (const secret of [PASSPHRASE, PASSWORD, WRONG_PASSWORD]) expect(`${result.stdout}${result.stderr}`).not.toContain(secret);
    const after = expected.watched.map(hashTree);
    expect(after, `${name}: files changed`).toEqual(before);
    if (expected.absent !== undefined) expect(existsSync(expected.absent), `${name}: ${expected.absent} was created`).toBe(false);
    figures.push({ name, code: result.code, files: before.reduce((sum, hashes) => sum + Object.keys(hashes).length, 0) });
    return result;
  }

  const write = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('refuses a truncated genesis block file', async () => {
    const truncated = join(dir, 'truncated-genesis.blob');
    writeFileSync(truncated, readFileSync(DEVNET_GENESIS).subarray(0, 1000));
    const dataPath = join(dir, 'truncated-genesis-data');
    await expectRefused(
      'truncated genesis block',
      ['start', '--data-path', dataPath, '--genesis', truncated, '--api-port', '0', '--port', '0'],
      {
        code: EXIT_NODE_ERROR,
        message: /is not a valid genesis block: Cannot decode/,
        watched: [truncated],
        absent: dataPath,
      },
    );
  });

  it('refuses a config that is not JSON, and one with a wrong-typed key', async () => {
    const notJson = write('not-json.json', '{"system": {');
    await expectRefused('config not JSON', ['start', '--data-path', join(dir, 'not-json-data'), '--config', notJson], {
      code: EXIT_NODE_ERROR,
      message: /Cannot read config file .*not-json\.json/,
      watched: [notJson],
      absent: join(dir, 'not-json-data'),
    });
    const wrongType = write('wrong-type.json', JSON.stringify({ system: { keepEventsForHeights: 'all' }, rpc: { port: 'http' } }));
    await expectRefused('config key of a wrong type', ['start', '--data-path', join(dir, 'wrong-type-data'), '--config', wrongType], {
      code: EXIT_NODE_ERROR,
      message: /Invalid config .*\n {2}\.system\.keepEventsForHeights: must be integer\n {2}\.rpc\.port: must be integer/,
      watched: [wrongType],
      absent: join(dir, 'wrong-type-data'),
    });
  });

  it('refuses a damaged generator keys file named by the config', async () => {
    const truncatedKeys = write('truncated-keys.json', '{"keys": [{"address": "lsk');
    const badEntry = write('bad-entry-keys.json', JSON.stringify({ keys: [{ address: 'lsk-not-an-address' }] }));
    for (const [name, keys, message] of [
      ['generator keys file not JSON', truncatedKeys, /generator\.keys\.fromFile: .*truncated-keys\.json: not a readable JSON file/],
      ['generator keys file with a bad entry', badEntry, /bad-entry-keys\.json is not a Lisk keys\.json file \(\.keys\[0\]\.address/],
    ] as const) {
      const config = write(`${name.replaceAll(' ', '-')}.json`, JSON.stringify({ generator: { keys: { fromFile: keys } } }));
      const dataPath = join(dir, `${name.replaceAll(' ', '-')}-data`);
      await expectRefused(name, ['start', '--data-path', dataPath, '--config', config, '--api-port', '0', '--port', '0'], {
        code: EXIT_NODE_ERROR,
        message,
        watched: [keys, config],
        absent: dataPath,
      });
    }
  });

  it('refuses a damaged forger_info.json of the legacy forging API', async () => {
    const core3 = write(
      'lisk-core-3-config.json',
      JSON.stringify({
        modules: {
          chain: { forging: { force: false, delegates: [] } },
          http_api: { access: { public: false, whiteList: ['127.0.0.1'] }, forging: { access: { whiteList: ['127.0.0.1'] } } },
        },
      }),
    );
    const config = write(
      'legacy-api.json',
      JSON.stringify({ legacyApi: { enabled: true, host: '127.0.0.130', port: 0, configFile: core3 } }),
    );
    for (const [name, damaged, message] of [
      ['forger_info.json not JSON', '{"forgerInfo": [ {"address": "lsk', /forger_info\.json is not valid JSON\./],
      [
        'forger_info.json with a bad entry',
        JSON.stringify({ forgerInfo: [{ address: 'nope', height: -1 }] }),
        /forger_info\.json: forgerInfo\[0\]/,
      ],
    ] as const) {
      const dataPath = join(dir, `${name.replaceAll(' ', '-')}-data`);
      mkdirSync(dataPath);
      const forgerInfo = join(dataPath, 'forger_info.json');
      writeFileSync(forgerInfo, damaged);
      await expectRefused(name, ['start', '--data-path', dataPath, '--config', config, '--api-port', '0', '--port', '0'], {
        code: EXIT_NODE_ERROR,
        message,
        watched: [forgerInfo, core3, config],
      });
    }
  });

  it('refuses a wrong password without showing a secret', async () => {
    const encrypted = write(
      'encrypted-passphrase.json',
      JSON.stringify({ encryptedPassphrase: encryptPassphraseV3(PASSPHRASE, PASSWORD, { iterations: 1000 }) }),
    );
    await expectRefused('passphrase:decrypt with a wrong password', ['passphrase:decrypt', '--file-path', encrypted], {
      code: EXIT_NODE_ERROR,
      message: /wrong password/i,
      watched: [encrypted],
      env: { BASALT_PASSWORD: WRONG_PASSWORD },
    });
  });

  describe('with a running devnet node', () => {
    let node: NodeProcess;
    let dataPath: string;
    let keysFile: string;
    let address: string;

    beforeAll(async () => {
      dataPath = join(dir, 'devnet');
      // An unknown key is accepted with a warning (lisk-sdk allows unknown keys there).
      const config = write('unknown-key.json', JSON.stringify({ system: { notASetting: 1 } }));
      // A store killed before its first commit (an environment without databases) is no other chain.
      mkdirSync(dataPath);
      await open({ path: chainEnvPath(dataPath), ...CHAIN_ENV_OPTIONS }).close();
      node = startBasaltNode(['--data-path', dataPath, '--config', config]);
      await waitForHeight((await node.ports()).rpc, 1, 60_000, { output: node.output });
      const created = await runBasalt(['keys:create', '--chainid', '4', '--offset', '7', '--output', join(dir, 'keys')], {
        env: { BASALT_PASSPHRASE: PASSPHRASE, BASALT_PASSWORD: PASSWORD, [TEST_ARGON2_MEMORY_ENV]: '64' },
      });
      expect(created.code, created.stderr).toBe(0);
      keysFile = join(dir, 'keys', 'keys.json');
      address = (JSON.parse(readFileSync(keysFile, 'utf8')) as { keys: { address: string }[] }).keys[0]?.address as string;
      const imported = await runBasalt(['keys:import', '--file-path', keysFile, '--data-path', dataPath]);
      expect(imported.code, imported.stderr).toBe(0);
    }, 120_000);
    afterAll(async () => {
      if (node) await stopProcess(node.child);
    });

    it('warned about the unknown config key', () => {
      expect(node.output()).toMatch(/\.system\.notASetting/);
    });

    it('keys:import refuses a damaged keys file', async () => {
      const damaged = write('damaged-keys.json', readFileSync(keysFile, 'utf8').slice(0, 200));
      await expectRefused('keys:import of a truncated keys file', ['keys:import', '--file-path', damaged, '--data-path', dataPath], {
        code: EXIT_NODE_ERROR,
        message: /damaged-keys\.json is not a readable JSON file/,
        watched: [damaged],
      });
    });

    it('generator:enable refuses a wrong password, and neither the command nor the node shows a secret', async () => {
      const result = await expectRefused(
        'generator:enable with a wrong password',
        [
          'generator:enable',
          address,
          '--height',
          '0',
          '--max-height-generated',
          '0',
          '--max-height-prevoted',
          '0',
          '--data-path',
          dataPath,
        ],
        // lisk-sdk's answer for a wrong password is Node's AES-GCM message, kept as it is (docs/protocol/keys.md).
        {
          code: EXIT_NODE_ERROR,
          message: /generator_updateStatus: Unsupported state or unable to authenticate data/,
          watched: [keysFile],
          env: { BASALT_PASSWORD: WRONG_PASSWORD },
        },
      );
      expect(result.stdout).toBe('');
      for (const secret of [PASSPHRASE, PASSWORD, WRONG_PASSWORD]) expect(node.output()).not.toContain(secret);
    });

    it('refuses the data directory of another chain, even with --overwrite-config, and keeps it as it was', async () => {
      expect(await stopProcess(node.child), node.output()).toBe(0);
      const other = ['--network', 'devnet-101', '--api-port', '0', '--port', '0'];
      await expectRefused('data directory of another chain', ['start', '--data-path', dataPath, ...other], {
        code: EXIT_NODE_ERROR,
        message: /already contains a different config \(its genesis block is [0-9a-f]{64}, the given one is [0-9a-f]{64}\)/,
        watched: [dataPath],
      });
      await expectRefused(
        'data directory of another chain, --overwrite-config',
        ['start', '--data-path', dataPath, '--overwrite-config', ...other],
        {
          code: EXIT_NODE_ERROR,
          message: /The data directory holds another chain \(genesis [0-9a-f]{64}\)\./,
          watched: [dataPath],
        },
      );
    });
  });
});
