/**
 * A Basalt mainchain and a Basalt sidechain relaying to each other, on one machine:
 *
 *   npm run interop:pair                          until Ctrl-C, data in ~/.basalt/interop-pair
 *   npm run interop:pair -- --reduced --fresh     stops (exit 0) once LSK sent across arrived
 *   npm run interop:pair -- --data-root /tmp/p --mainchain-host 127.0.0.140 --sidechain-host 127.0.0.141
 *
 * The two chains start from the genesis blocks of the interop-dev pair
 * (test/fixtures/chains/interop-dev: a lisk-sdk 6.1 mainchain 04000000 and its sidechain 04000001),
 * each node holding all of its chain's validator keys, so each produces and certifies alone. Then:
 *
 *   1. registration both ways, with the pair's own signed transactions: registerSidechain on the
 *      mainchain, registerMainchain (signed by the sidechain's validators) on the sidechain;
 *   2. a chain connector on each node (the built-in plugin, `plugins.chainConnector` with the pair's
 *      relayer keys) relays certificates and messages: the script prints the CCUs each chain
 *      includes (the partner's lastCertificate and chainConnector_getSentCCUs);
 *   3. once the sidechain is ACTIVE on the mainchain, a cross-chain transfer of 1000 LSK from the
 *      mainchain to an account of the sidechain: the script shows the mainchain's escrow for the
 *      sidechain and the recipient's LSK balance on the sidechain when the message arrived.
 *
 * Each node has its own loopback address (P2P 7667, RPC 7887 on it) and logs to
 * <data-root>/<chain>.log.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CHAIN_CONNECTOR_PASSWORD_ENV } from '../src/plugins/chain-connector/connector-config.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const PAIR = join(ROOT, 'test', 'fixtures', 'chains', 'interop-dev');
const RPC_PORT = 7887;
const P2P_PORT = 7667;
const RELAYER_PASSWORD = 'basalt-relayer';
const LSK = '0400000000000000';

const { values } = parseArgs({
  options: {
    'data-root': { type: 'string', default: join(homedir(), '.basalt', 'interop-pair') },
    'mainchain-host': { type: 'string', default: '127.0.0.140' },
    'sidechain-host': { type: 'string', default: '127.0.0.141' },
    reduced: { type: 'boolean', default: false },
    fresh: { type: 'boolean', default: false },
    'timeout-seconds': { type: 'string', default: '600' },
    log: { type: 'string', default: 'info' },
  },
});

type Side = 'mainchain' | 'sidechain';
const SIDES: readonly Side[] = ['mainchain', 'sidechain'];
const host: Record<Side, string> = { mainchain: values['mainchain-host'] as string, sidechain: values['sidechain-host'] as string };
const partner = (side: Side): Side => (side === 'mainchain' ? 'sidechain' : 'mainchain');
const dataRoot = values['data-root'] as string;
const deadline = Date.now() + Number(values['timeout-seconds']) * 1000;

if (!existsSync(join(PAIR, 'mainchain', 'genesis_block.blob'))) {
  console.error(`The interop-dev pair is missing (${PAIR}): it holds the genesis blocks and keys this script runs on.`);
  process.exit(2);
}

interface WorkloadLine {
  seq: number;
  module: string;
  command: string;
  txHex: string;
  expect: string;
  params: Record<string, unknown>;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const workload = (side: Side): WorkloadLine[] =>
  readFileSync(join(PAIR, side, 'workload.ndjson'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as WorkloadLine);

const chainID: Record<Side, string> = { mainchain: '04000000', sidechain: '04000001' };

/** Writes the node's config (the pair's, with this machine's addresses, keys and relayer) and starts it. */
function startNode(side: Side): ChildProcess {
  const dir = join(dataRoot, side);
  mkdirSync(dir, { recursive: true });
  const keys = readJson<{ validators: Record<string, string>[] }>(join(PAIR, side, 'keys.json'));
  const keysFile = join(dataRoot, `${side}-keys.json`);
  writeFileSync(
    keysFile,
    JSON.stringify({
      keys: keys.validators.map((v) => ({
        address: v.address,
        plain: {
          generatorKey: v.generatorKey,
          generatorPrivateKey: v.generatorPrivateKey,
          blsKey: v.blsKey,
          blsPrivateKey: v.blsPrivateKey,
        },
      })),
    }),
    { mode: 0o600 },
  );
  const pairConfig = readJson<Record<string, Record<string, unknown>>>(join(PAIR, side, 'config.json'));
  const connector = (pairConfig.plugins as { chainConnector: Record<string, unknown> }).chainConnector;
  const config = {
    ...pairConfig,
    system: { ...pairConfig.system, dataPath: dir, logLevel: values.log },
    rpc: { modes: ['ipc', 'ws', 'http'], host: host[side], port: RPC_PORT, allowedMethods: ['*'] },
    network: { ...pairConfig.network, host: host[side], port: P2P_PORT, seedPeers: [] },
    genesis: { ...pairConfig.genesis, block: { fromFile: join(PAIR, side, 'genesis_block.blob') } },
    generator: { keys: { fromFile: keysFile } },
    plugins: {
      chainConnector: {
        ...connector,
        receivingChainWsURL: `ws://${host[partner(side)]}:${RPC_PORT}/rpc-ws`,
      },
    },
  };
  const configFile = join(dataRoot, `${side}-config.json`);
  writeFileSync(configFile, JSON.stringify(config, null, 2));
  const log = createWriteStream(join(dataRoot, `${side}.log`), { flags: 'a' });
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(ROOT, 'src/cli/main.ts'),
      'start',
      '--data-path',
      dir,
      '--config',
      configFile,
      '--genesis',
      join(PAIR, side, 'genesis_block.blob'),
      '--log',
      values.log as string,
    ],
    // The relayer key's password is never written to a config: the connector reads it from the environment.
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, [CHAIN_CONNECTOR_PASSWORD_ENV]: RELAYER_PASSWORD } },
  );
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`${side} exited (${signal ?? code}); see ${join(dataRoot, `${side}.log`)}`);
      stop(1);
    }
  });
  console.log(`${side} ${chainID[side]}: RPC http://${host[side]}:${RPC_PORT}/rpc, data ${dir}`);
  return child;
}

async function call<T>(side: Side, method: string, params: Record<string, unknown> = {}): Promise<T> {
  const response = await fetch(`http://${host[side]}:${RPC_PORT}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(5000),
  });
  const answer = (await response.json()) as { result?: T; error?: { message: string } };
  if (answer.error) throw new Error(`${side} ${method}: ${answer.error.message}`);
  return answer.result as T;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every second until it answers something, or fails at the deadline. */
async function until<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    if (stopping) throw new Error(`stopped while waiting for ${what}`);
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(1000);
  }
}

interface ChainAccount {
  status: number;
  lastCertificate: { height: number };
}

let stopping = false;
const children: ChildProcess[] = [];
function stop(code: number): void {
  if (stopping) return;
  stopping = true;
  process.exitCode = code;
  for (const child of children) child.kill('SIGINT');
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

async function run(): Promise<void> {
  if (values.fresh) rmSync(dataRoot, { recursive: true, force: true });
  mkdirSync(dataRoot, { recursive: true });
  for (const side of SIDES) children.push(startNode(side));
  for (const side of SIDES) await until(`${side} RPC`, () => call(side, 'system_getNodeInfo'));

  // 1. Registration both ways.
  const registerSidechain = workload('mainchain').find(
    (line) => line.command === 'registerSidechain' && line.expect === 'success',
  ) as WorkloadLine;
  const registerMainchain = workload('sidechain').find(
    (line) => line.command === 'registerMainchain' && line.expect === 'success',
  ) as WorkloadLine;
  for (const [side, line] of [
    ['mainchain', registerSidechain],
    ['sidechain', registerMainchain],
  ] as const) {
    const account = await call<ChainAccount | undefined>(side, 'interoperability_getChainAccount', {
      chainID: chainID[partner(side)],
    }).catch(() => undefined);
    if (account === undefined) await call(side, 'txpool_postTransaction', { transaction: line.txHex });
    const registered = await until(`${partner(side)} registered on ${side}`, () =>
      call<ChainAccount>(side, 'interoperability_getChainAccount', { chainID: chainID[partner(side)] }),
    );
    console.log(`${side}: ${partner(side)} registered (status ${registered.status})`);
  }

  // 2. CCUs both ways: the partner's certificate moves on each chain.
  for (const side of SIDES) {
    const account = await until(`a CCU from ${partner(side)} on ${side}`, async () => {
      const found = await call<ChainAccount>(side, 'interoperability_getChainAccount', { chainID: chainID[partner(side)] });
      return found.lastCertificate.height > 0 ? found : undefined;
    });
    const sent = await call<unknown[]>(partner(side), 'chainConnector_getSentCCUs');
    console.log(
      `${side}: CCUs from ${partner(side)} included; its last certificate is at height ${account.lastCertificate.height} (${sent.length} sent by ${partner(side)}'s connector)`,
    );
  }

  // 3. 1000 LSK from the mainchain to an account on the sidechain, once the sidechain is ACTIVE there.
  const transfer = workload('mainchain').find((line) => line.command === 'transferCrossChain' && line.expect === 'success') as WorkloadLine;
  const recipient = transfer.params.recipientAddress as string;
  const balanceOn = async (side: Side) =>
    BigInt((await call<{ availableBalance: string }>(side, 'token_getBalance', { address: recipient, tokenID: LSK })).availableBalance);
  const before = await balanceOn('sidechain').catch(() => 0n);
  await until('the sidechain ACTIVE on the mainchain', async () => {
    const account = await call<ChainAccount>('mainchain', 'interoperability_getChainAccount', { chainID: chainID.sidechain });
    return account.status === 1 ? account : undefined;
  });
  await call('mainchain', 'txpool_postTransaction', { transaction: transfer.txHex }).catch((error: Error) =>
    console.log(`transfer: ${error.message}`),
  );
  const escrow = await until('the escrow on the mainchain', async () => {
    const { escrowedAmounts } = await call<{ escrowedAmounts: { escrowChainID: string; amount: string }[] }>(
      'mainchain',
      'token_getEscrowedAmounts',
    );
    return escrowedAmounts.find((entry) => entry.escrowChainID === chainID.sidechain && BigInt(entry.amount) > 0n);
  });
  console.log(`mainchain: ${escrow.amount} beddows of LSK escrowed for the sidechain`);
  const after = await until('the LSK on the sidechain', async () => {
    const balance = await balanceOn('sidechain');
    return balance > before ? balance : undefined;
  });
  console.log(`sidechain: ${recipient} holds ${after} beddows of LSK (was ${before}): the transfer arrived`);

  if (values.reduced) {
    console.log('interop pair: OK');
    stop(0);
    return;
  }
  console.log('Relaying until Ctrl-C.');
  const status = setInterval(async () => {
    const lines = await Promise.all(
      SIDES.map(async (side) => {
        const info = await call<{ height: number; finalizedHeight: number }>(side, 'system_getNodeInfo').catch(() => undefined);
        const account = await call<ChainAccount>(side, 'interoperability_getChainAccount', { chainID: chainID[partner(side)] }).catch(
          () => undefined,
        );
        return `${side}: height ${info?.height ?? '?'}, ${partner(side)} certified at ${account?.lastCertificate.height ?? '?'}`;
      }),
    );
    console.log(`${new Date().toISOString()}  ${lines.join(' | ')}`);
  }, 10_000);
  await Promise.all(children.map((child) => new Promise((resolve) => child.once('exit', resolve))));
  clearInterval(status);
}

run().catch((error: Error) => {
  console.error(`interop pair failed: ${error.message}`);
  stop(1);
});
