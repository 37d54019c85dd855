/**
 * Basalt's chain connector relaying to real lisk-sdk 6.1 chains, both ways round: a Basalt
 * sidechain to a lisk-sdk mainchain, and a Basalt mainchain to a lisk-sdk sidechain. The chains
 * are the interop-dev pair's (mainchain 04000000, sidechain 04000001; lisk-sdk runs lisk-peer's
 * interop/app-interop.js with forging enabled over RPC, Basalt holds all of its chain's validator
 * keys); they register each other with the pair's own registration transactions, then the CCUs
 * Basalt's connector builds, signs and posts must be accepted by lisk-sdk: Basalt's chain becomes
 * ACTIVE there with a certified height above 0, and the CCUs Basalt reports sent are in lisk's
 * chain.
 *
 * Needs the reference tools (`npm run test:interop`; skipped with the reason otherwise). lisk-sdk
 * 6.1.0 and @liskhq/lisk-framework-chain-connector-plugin 0.2.0 are installed into LISK_APP
 * when missing (app-interop.js loads the plugin; this test gives lisk no connector settings). Each node has
 * its own address: lisk-sdk 127.0.0.142, Basalt 127.0.0.143 (one pair at a time).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { copyFileSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTEROP_DEV_DIR } from '../support/interop-dev-records.js';
import { CHAIN_CONNECTOR_PASSWORD_ENV } from '../../src/plugins/chain-connector/connector-config.js';
import { freePort, INTEROP_TOOLS, LISK_PEER } from '../support/lisk-peer.js';
import { CLI_MAIN, ROOT, stopProcess, waitFor } from '../support/node-process.js';

const runFile = promisify(execFile);
const LISK_HOST = '127.0.0.142';
const BASALT_HOST = '127.0.0.143';
/**
 * Its own install folder: the other interop files install lisk-sdk into lisk-peer's default folder
 * through start.sh, possibly at the same time, and two npm installs must not share one folder.
 */
const LISK_APP = process.env.LISK_CONNECTOR_APP ?? '/tmp/lisk-connector-app';
const APP_INTEROP = join(LISK_PEER, 'interop', 'app-interop.js');
const CONNECTOR_PACKAGE = join(LISK_APP, 'node_modules', '@liskhq', 'lisk-framework-chain-connector-plugin');

const reason = existsSync(APP_INTEROP) ? undefined : `no lisk-peer interop app in ${INTEROP_TOOLS}`;
if (reason !== undefined) process.stdout.write(`chain connector interop test skipped: ${reason}\n`);

/**
 * lisk-sdk 6.1.0 with the tool's storage stand-in (as lisk-peer's start.sh installs them) and the
 * chain connector plugin 0.2.0 that app-interop.js loads, installed into the interop cache once.
 */
async function installLiskInterop(): Promise<void> {
  const npmInstall = (spec: string) => runFile('npm', ['install', '--no-audit', '--no-fund', spec], { cwd: LISK_APP, timeout: 600_000 });
  mkdirSync(LISK_APP, { recursive: true });
  // npm installs into the nearest folder with a package.json: make it this one.
  if (!existsSync(join(LISK_APP, 'package.json'))) writeFileSync(join(LISK_APP, 'package.json'), '{"private":true}\n');
  if (!existsSync(join(LISK_APP, 'node_modules', 'lisk-sdk'))) await npmInstall('lisk-sdk@6.1.0');
  if (!existsSync(join(LISK_APP, 'node_modules', '@liskhq', 'lisk-db', 'lib', 'smt.js'))) {
    await runFile(join(LISK_PEER, 'install-shim.sh'), [LISK_APP], { timeout: 120_000 });
  }
  if (!existsSync(CONNECTOR_PACKAGE)) await npmInstall('@liskhq/lisk-framework-chain-connector-plugin@0.2.0');
}

async function rpcAt<T>(host: string, port: number, method: string, params: Record<string, unknown> = {}): Promise<T> {
  const response = await fetch(`http://${host}:${port}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(10_000),
  });
  const answer = (await response.json()) as { result?: T; error?: { message: string } };
  if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result as T;
}

const pairFile = (side: string, file: string) => join(INTEROP_DEV_DIR, side, file);
const readJson = <T>(path: string) => JSON.parse(readFileSync(path, 'utf8')) as T;
const workloadTx = (side: string, command: string) =>
  readFileSync(pairFile(side, 'workload.ndjson'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { command: string; expect: string; txHex: string })
    .find((line) => line.command === command && line.expect === 'success')?.txHex as string;

interface Validator {
  address: string;
  generatorKey: string;
  generatorPrivateKey: string;
  blsKey: string;
  blsPrivateKey: string;
}

type Side = 'mainchain' | 'sidechain';
const CHAIN_ID: Record<Side, string> = { mainchain: '04000000', sidechain: '04000001' };
/** The registration each side's chain records for its partner: its own transaction of the pair. */
const REGISTRATION: Record<Side, string> = { mainchain: 'registerSidechain', sidechain: 'registerMainchain' };

describe.skipIf(reason !== undefined)('chain connector: Basalt relays to lisk-sdk', () => {
  let scratch = '';
  const started: ChildProcess[] = [];
  beforeAll(async () => {
    await installLiskInterop();
    scratch = mkdtempSync(join(tmpdir(), 'basalt-connector-lisk-'));
  }, 900_000);
  afterAll(async () => {
    for (const child of started.reverse()) await stopProcess(child, 'SIGINT');
    if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
  });

  /** Basalt on `basaltSide` relays to lisk-sdk on `liskSide`, which must accept its CCUs. */
  async function relayToLisk(basaltSide: Side, liskSide: Side): Promise<void> {
    const run = join(scratch, basaltSide);
    mkdirSync(run);
    // lisk-sdk from the pair's genesis, without connector settings of its own.
    const liskDir = join(run, 'lisk-chain');
    mkdirSync(liskDir);
    copyFileSync(pairFile(liskSide, 'genesis_block.blob'), join(liskDir, 'genesis_block.blob'));
    const liskConfig = readJson<Record<string, Record<string, unknown>>>(pairFile(liskSide, 'config.json'));
    const liskRpcPort = await freePort(LISK_HOST);
    const liskP2pPort = await freePort(LISK_HOST);
    writeFileSync(
      join(liskDir, 'config.json'),
      JSON.stringify({
        ...liskConfig,
        rpc: { ...liskConfig.rpc, host: LISK_HOST, allowedMethods: ['*'] },
        network: { ...liskConfig.network, host: LISK_HOST },
        plugins: {},
      }),
    );
    const liskLog = createWriteStream(join(run, 'lisk.log'));
    const lisk = spawn('timeout', ['600', process.execPath, APP_INTEROP], {
      env: {
        ...process.env,
        NODE_PATH: join(LISK_APP, 'node_modules'),
        INTEROP_DIR: liskDir,
        INTEROP_ROLE: liskSide === 'mainchain' ? 'm' : 's',
        LISK_PEER_DATA: join(run, 'lisk-data'),
        LISK_PEER_RPC_PORT: String(liskRpcPort),
        LISK_PEER_P2P_PORT: String(liskP2pPort),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(lisk);
    lisk.stdout?.pipe(liskLog);
    lisk.stderr?.pipe(liskLog);
    const liskCall = <T>(method: string, params?: Record<string, unknown>) => rpcAt<T>(LISK_HOST, liskRpcPort, method, params);
    await waitFor('lisk-sdk RPC', () => liskCall('system_getNodeInfo'), 120_000);
    // Forging on the lisk node with every validator's keys of its chain.
    for (const validator of readJson<{ validators: Validator[] }>(pairFile(liskSide, 'keys.json')).validators) {
      const { address, generatorKey, generatorPrivateKey, blsKey, blsPrivateKey } = validator;
      await liskCall('generator_setKeys', { address, type: 'plain', data: { generatorKey, generatorPrivateKey, blsKey, blsPrivateKey } });
      await liskCall('random_setHashOnion', { address });
      // The password only opens encrypted keys; these are plain.
      await liskCall('generator_updateStatus', {
        address,
        password: '',
        enable: true,
        height: 0,
        maxHeightGenerated: 0,
        maxHeightPrevoted: 0,
      });
    }

    // Basalt from the other genesis of the pair, with its connector towards lisk.
    const basaltData = join(run, 'basalt-data');
    const keysFile = join(run, 'basalt-keys.json');
    const basaltKeys = readJson<{ validators: Validator[] }>(pairFile(basaltSide, 'keys.json')).validators;
    writeFileSync(
      keysFile,
      JSON.stringify({
        keys: basaltKeys.map(({ address, generatorKey, generatorPrivateKey, blsKey, blsPrivateKey }) => ({
          address,
          plain: { generatorKey, generatorPrivateKey, blsKey, blsPrivateKey },
        })),
      }),
    );
    const basaltConfig = readJson<Record<string, Record<string, unknown>>>(pairFile(basaltSide, 'config.json'));
    const basaltRpcPort = await freePort(BASALT_HOST);
    const basaltConfigFile = join(run, 'basalt-config.json');
    writeFileSync(
      basaltConfigFile,
      JSON.stringify({
        ...basaltConfig,
        system: { ...basaltConfig.system, dataPath: basaltData },
        rpc: { modes: ['ipc', 'ws', 'http'], host: BASALT_HOST, port: basaltRpcPort, allowedMethods: ['*'] },
        network: { ...basaltConfig.network, host: BASALT_HOST, port: await freePort(BASALT_HOST), seedPeers: [] },
        genesis: { ...basaltConfig.genesis, block: { fromFile: pairFile(basaltSide, 'genesis_block.blob') } },
        generator: { keys: { fromFile: keysFile } },
        plugins: {
          chainConnector: {
            ...(basaltConfig.plugins as { chainConnector: Record<string, unknown> }).chainConnector,
            receivingChainWsURL: `ws://${LISK_HOST}:${liskRpcPort}/rpc-ws`,
          },
        },
      }),
    );
    const basaltLog = createWriteStream(join(run, 'basalt.log'));
    const basalt = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        CLI_MAIN,
        'start',
        '--data-path',
        basaltData,
        '--config',
        basaltConfigFile,
        '--genesis',
        pairFile(basaltSide, 'genesis_block.blob'),
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, [CHAIN_CONNECTOR_PASSWORD_ENV]: 'basalt-relayer' } },
    );
    started.push(basalt);
    basalt.stdout?.pipe(basaltLog);
    basalt.stderr?.pipe(basaltLog);
    const basaltCall = <T>(method: string, params?: Record<string, unknown>) => rpcAt<T>(BASALT_HOST, basaltRpcPort, method, params);
    await waitFor('Basalt RPC', () => basaltCall('system_getNodeInfo'), 120_000);

    // Registration both ways, with the pair's signed transactions.
    await liskCall('txpool_postTransaction', { transaction: workloadTx(liskSide, REGISTRATION[liskSide]) });
    await basaltCall('txpool_postTransaction', { transaction: workloadTx(basaltSide, REGISTRATION[basaltSide]) });

    // lisk-sdk takes Basalt's CCUs: Basalt's chain becomes ACTIVE there, with a certified height.
    const account = await waitFor(
      `the first certificate of Basalt's ${basaltSide} on lisk-sdk`,
      async () => {
        const found = await liskCall<{ status: number; lastCertificate: { height: number } }>('interoperability_getChainAccount', {
          chainID: CHAIN_ID[basaltSide],
        });
        return found.status === 1 && found.lastCertificate.height > 0 ? found : undefined;
      },
      360_000,
      { intervalMs: 2000, output: () => readFileSync(join(run, 'basalt.log'), 'utf8').slice(-4000) },
    );
    expect(account.lastCertificate.height).toBeGreaterThan(0);
    const sent = await basaltCall<{ id: string }[]>('chainConnector_getSentCCUs');
    expect(sent.length).toBeGreaterThan(0);
    const included = await Promise.all(sent.map((ccu) => liskCall('chain_getTransactionByID', { id: ccu.id }).catch(() => undefined)));
    expect(included.filter((transaction) => transaction !== undefined).length).toBeGreaterThan(0);
    for (const child of [basalt, lisk]) await stopProcess(child, 'SIGINT');
  }

  it('lisk-sdk accepts the CCUs a Basalt sidechain relays to its mainchain', { timeout: 600_000 }, () =>
    relayToLisk('sidechain', 'mainchain'),
  );

  it('lisk-sdk accepts the CCUs a Basalt mainchain relays to its sidechain', { timeout: 600_000 }, () =>
    relayToLisk('mainchain', 'sidechain'),
  );
});
