/**
 * A local multi-node devnet: N `basalt start` processes on the loopback addresses 127.0.0.<k+1>
 * ... 127.0.0.<k+N>, each with its own data directory, every node the seed of the others, and the
 * devnet validators' keys dealt out among them round-robin, so that every node generates in its
 * validators' slots and the blocks of all of them finalize. Lisk bans peers by IP, so each node
 * has an address of its own; P2P and RPC keep their default ports on it.
 *
 *   npm run devnet:cluster -- 3                       three nodes, data in ~/.basalt/devnet-cluster
 *   npm run devnet:cluster -- 3 --data-root /tmp/c --first-host 10 --fresh
 *
 * Logs go to <data-root>/node-<i>.log; a status line (height, finalized and certified heights,
 * peers) is printed every 10 s. Ctrl-C stops every node cleanly.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const P2P_PORT = 7667;
const RPC_PORT = 7887;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'data-root': { type: 'string', default: join(homedir(), '.basalt', 'devnet-cluster') },
    'first-host': { type: 'string', default: '0' },
    fresh: { type: 'boolean', default: false },
    log: { type: 'string', default: 'info' },
  },
});
const count = Number(positionals[0] ?? '3');
const firstHost = Number(values['first-host']);
if (!Number.isInteger(count) || count < 1 || count > 9) throw new Error('The node count must be between 1 and 9.');
if (!Number.isInteger(firstHost) || firstHost < 0 || firstHost + count > 254)
  throw new Error('--first-host must leave room for the nodes.');
const dataRoot = values['data-root'] as string;
if (values.fresh) rmSync(dataRoot, { recursive: true, force: true });
mkdirSync(dataRoot, { recursive: true });

const hostOf = (index: number): string => `127.0.0.${firstHost + index + 1}`;
const { keys } = JSON.parse(readFileSync(join(ROOT, 'config/devnet/dev-validators.json'), 'utf8')) as { keys: unknown[] };

const children: ChildProcess[] = [];
for (let index = 0; index < count; index += 1) {
  const dir = join(dataRoot, `node-${index + 1}`);
  mkdirSync(dir, { recursive: true });
  const keysFile = join(dataRoot, `node-${index + 1}-keys.json`);
  writeFileSync(keysFile, JSON.stringify({ keys: keys.filter((_, k) => k % count === index) }, null, 2), { mode: 0o600 });
  const configFile = join(dataRoot, `node-${index + 1}-config.json`);
  const seedPeers = Array.from({ length: count }, (_, other) => other)
    .filter((other) => other !== index)
    .map((other) => ({ ip: hostOf(other), port: P2P_PORT }));
  writeFileSync(
    configFile,
    JSON.stringify(
      {
        rpc: { host: hostOf(index), port: RPC_PORT },
        network: { host: hostOf(index), port: P2P_PORT, seedPeers },
        generator: { keys: { fromFile: keysFile } },
      },
      null,
      2,
    ),
  );
  const log = createWriteStream(join(dataRoot, `node-${index + 1}.log`), { flags: 'a' });
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'start', '--data-path', dir, '--config', configFile, '--log', values.log as string],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  child.on('exit', (code, signal) => console.log(`node ${index + 1} exited (${signal ?? code})`));
  children.push(child);
  console.log(`node ${index + 1}: RPC http://${hostOf(index)}:${RPC_PORT}/rpc, P2P ${hostOf(index)}:${P2P_PORT}, data ${dir}`);
}

interface Status {
  height: number;
  finalizedHeight: number;
}

async function call<T>(index: number, method: string): Promise<T | undefined> {
  try {
    const response = await fetch(`http://${hostOf(index)}:${RPC_PORT}/rpc`, {
      method: 'POST',
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method }),
      signal: AbortSignal.timeout(2000),
    });
    return ((await response.json()) as { result?: T }).result;
  } catch {
    return undefined;
  }
}

const status = setInterval(async () => {
  const lines = await Promise.all(
    children.map(async (_, index) => {
      const info = await call<Status>(index, 'system_getNodeInfo');
      const bft = await call<{ maxHeightCertified: number }>(index, 'consensus_getBFTHeights');
      const peers = await call<unknown[]>(index, 'network_getConnectedPeers');
      if (!info) return `node ${index + 1}: not answering`;
      return `node ${index + 1}: height ${info.height}, finalized ${info.finalizedHeight}, certified ${bft?.maxHeightCertified ?? '?'}, peers ${peers?.length ?? '?'}`;
    }),
  );
  console.log(`${new Date().toISOString()}  ${lines.join(' | ')}`);
}, 10_000);

let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  clearInterval(status);
  for (const child of children) child.kill('SIGINT');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
await Promise.all(children.map((child) => new Promise((resolve) => child.once('exit', resolve))));
clearInterval(status);
