/**
 * Basalt's chain connector relaying to a real lisk-sdk 6.1 mainchain: a Basalt sidechain (the
 * interop-dev pair's sidechain genesis, 04000001, all its validator keys) and a lisk-sdk mainchain
 * (the pair's mainchain genesis, 04000000, lisk-peer's interop/app-interop.js, forging enabled over
 * RPC with the pair's keys) register each other with the pair's own registration transactions;
 * then the CCUs Basalt's connector builds, signs and posts to lisk-sdk must be accepted there:
 * lisk's chain account of the sidechain becomes ACTIVE with a certified height above 0, and the
 * CCUs Basalt reports sent are in lisk's chain.
 *
 * Needs the reference tools (`npm run test:interop`; skipped with the reason otherwise): lisk-sdk
 * 6.1.0 and @liskhq/lisk-framework-chain-connector-plugin 0.2.0 installed in LISK_PEER_APP
 * (app-interop.js loads the plugin; this test gives lisk no connector settings). Each node has
 * its own address: lisk-sdk 127.0.0.142, Basalt 127.0.0.143.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTEROP_DEV_DIR, interopDevPresent } from '../support/interop-dev-records.js';
import { freePort, INTEROP_TOOLS, LISK_PEER } from '../support/lisk-peer.js';
import { CLI_MAIN, ROOT, stopProcess, waitFor } from '../support/node-process.js';

const LISK_HOST = '127.0.0.142';
const BASALT_HOST = '127.0.0.143';
const LISK_APP = process.env.LISK_PEER_APP ?? '/tmp/lisk-peer';
const APP_INTEROP = join(LISK_PEER, 'interop', 'app-interop.js');
const CONNECTOR_PACKAGE = join(LISK_APP, 'node_modules', '@liskhq', 'lisk-framework-chain-connector-plugin');

function missing(): string | undefined {
  if (!interopDevPresent) return 'the interop-dev pair is not in test/fixtures/chains';
  if (!existsSync(APP_INTEROP)) return `no lisk-peer interop app in ${INTEROP_TOOLS}`;
  if (!existsSync(join(LISK_APP, 'node_modules', 'lisk-sdk')))
    return `no lisk-sdk installed in ${LISK_APP} (lisk-peer's start.sh installs it)`;
  if (!existsSync(CONNECTOR_PACKAGE)) {
    return `no @liskhq/lisk-framework-chain-connector-plugin in ${LISK_APP} (npm install @liskhq/lisk-framework-chain-connector-plugin@0.2.0 there)`;
  }
  return undefined;
}

const reason = missing();
if (reason !== undefined) process.stdout.write(`chain connector interop test skipped: ${reason}\n`);

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

describe.skipIf(reason !== undefined)('chain connector: Basalt sidechain -> lisk-sdk mainchain', () => {
  let scratch = '';
  const started: ChildProcess[] = [];
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'basalt-connector-lisk-'));
  });
  afterAll(async () => {
    for (const child of started.reverse()) await stopProcess(child, 'SIGINT');
    if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
  });

  it('lisk-sdk accepts the CCUs Basalt relays', { timeout: 600_000 }, async () => {
    // lisk-sdk mainchain from the pair's genesis, without connector settings of its own.
    const liskDir = join(scratch, 'lisk-chain');
    mkdirSync(liskDir);
    copyFileSync(pairFile('mainchain', 'genesis_block.blob'), join(liskDir, 'genesis_block.blob'));
    const liskConfig = readJson<Record<string, Record<string, unknown>>>(pairFile('mainchain', 'config.json'));
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
    const liskLog = createWriteStream(join(scratch, 'lisk.log'));
    const lisk = spawn('timeout', ['600', process.execPath, APP_INTEROP], {
      env: {
        ...process.env,
        NODE_PATH: join(LISK_APP, 'node_modules'),
        INTEROP_DIR: liskDir,
        INTEROP_ROLE: 'm',
        LISK_PEER_DATA: join(scratch, 'lisk-data'),
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
    // Forging on the lisk node with every mainchain validator's keys.
    for (const validator of readJson<{ validators: Validator[] }>(pairFile('mainchain', 'keys.json')).validators) {
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

    // Basalt sidechain from the pair's genesis, with its connector towards lisk.
    const basaltData = join(scratch, 'basalt-data');
    const keysFile = join(scratch, 'sidechain-keys.json');
    const sideKeys = readJson<{ validators: Validator[] }>(pairFile('sidechain', 'keys.json')).validators;
    writeFileSync(
      keysFile,
      JSON.stringify({
        keys: sideKeys.map(({ address, generatorKey, generatorPrivateKey, blsKey, blsPrivateKey }) => ({
          address,
          plain: { generatorKey, generatorPrivateKey, blsKey, blsPrivateKey },
        })),
      }),
    );
    const sideConfig = readJson<Record<string, Record<string, unknown>>>(pairFile('sidechain', 'config.json'));
    const basaltRpcPort = await freePort(BASALT_HOST);
    const basaltConfigFile = join(scratch, 'sidechain-config.json');
    writeFileSync(
      basaltConfigFile,
      JSON.stringify({
        ...sideConfig,
        system: { ...sideConfig.system, dataPath: basaltData },
        rpc: { modes: ['ipc', 'ws', 'http'], host: BASALT_HOST, port: basaltRpcPort, allowedMethods: ['*'] },
        network: { ...sideConfig.network, host: BASALT_HOST, port: await freePort(BASALT_HOST), seedPeers: [] },
        genesis: { ...sideConfig.genesis, block: { fromFile: pairFile('sidechain', 'genesis_block.blob') } },
        generator: { keys: { fromFile: keysFile } },
        plugins: {
          chainConnector: {
            ...(sideConfig.plugins as { chainConnector: Record<string, unknown> }).chainConnector,
            receivingChainWsURL: `ws://${LISK_HOST}:${liskRpcPort}/rpc-ws`,
            password: 'basalt-relayer',
          },
        },
      }),
    );
    const basaltLog = createWriteStream(join(scratch, 'basalt.log'));
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
        pairFile('sidechain', 'genesis_block.blob'),
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    started.push(basalt);
    basalt.stdout?.pipe(basaltLog);
    basalt.stderr?.pipe(basaltLog);
    const basaltCall = <T>(method: string, params?: Record<string, unknown>) => rpcAt<T>(BASALT_HOST, basaltRpcPort, method, params);
    await waitFor('Basalt RPC', () => basaltCall('system_getNodeInfo'), 120_000);

    // Registration both ways, with the pair's signed transactions.
    await liskCall('txpool_postTransaction', { transaction: workloadTx('mainchain', 'registerSidechain') });
    await basaltCall('txpool_postTransaction', { transaction: workloadTx('sidechain', 'registerMainchain') });

    // lisk-sdk takes Basalt's CCUs: the sidechain becomes ACTIVE there, with a certified height.
    const account = await waitFor(
      "the sidechain's first certificate on lisk-sdk",
      async () => {
        const found = await liskCall<{ status: number; lastCertificate: { height: number } }>('interoperability_getChainAccount', {
          chainID: '04000001',
        });
        return found.status === 1 && found.lastCertificate.height > 0 ? found : undefined;
      },
      360_000,
      { intervalMs: 2000, output: () => readFileSync(join(scratch, 'basalt.log'), 'utf8').slice(-4000) },
    );
    expect(account.lastCertificate.height).toBeGreaterThan(0);
    const sent = await basaltCall<{ id: string }[]>('chainConnector_getSentCCUs');
    expect(sent.length).toBeGreaterThan(0);
    const included = await Promise.all(sent.map((ccu) => liskCall('chain_getTransactionByID', { id: ccu.id }).catch(() => undefined)));
    expect(included.filter((transaction) => transaction !== undefined).length).toBeGreaterThan(0);
  });
});
