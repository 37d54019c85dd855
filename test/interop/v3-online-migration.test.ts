/**
 * `basalt migrate` in online mode against a real Lisk Core 3.0.3 node (the lisk-v3-peer tool),
 * restarted on the h309 devnet data directory of the migration fixtures: it forges on from 309
 * with 10-s blocks. The migration (`--unsafe-skip-v3-checks`: 3.0.3 has no backup height;
 * `--unsafe-skip-finality-wait`: this single-node devnet never finalizes) captures the forging
 * status when the snapshot block arrives, waits for the node to stop, and reads its live
 * database, which by then ends above the snapshot height: `--rollback-to-snapshot` undoes those
 * blocks with Lisk Core 3's own state diffs. Then legacy:import takes the v3 history from the same
 * database. About a minute, plus about 20 s to install lisk-core 3.0.3 the first time.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/cli.js';
import { readTipHeight } from '../../src/migration/v3/v3-chain.js';
import { V3Database } from '../../src/migration/v3/v3-database.js';
import { freePort, INTEROP_TOOLS } from '../support/lisk-peer.js';
import { MIGRATION_FIXTURES } from '../unit/migration/migration-fixtures.js';

const run = promisify(execFile);
const V3_PEER = join(INTEROP_TOOLS, 'lisk-v3-peer');
/** Where lisk-core 3.0.3 is installed (the tool's default); each run gets its own data dir beside it. */
const INSTALL = process.env.LISK_V3_DIR ?? '/tmp/lisk-v3';
const TARBALL = join(MIGRATION_FIXTURES, 'dev', 'lisk-core-3.0.3-devnet-h309.tgz');
const present = existsSync(join(V3_PEER, 'start.sh')) && existsSync(TARBALL);
if (!present) {
  process.stdout.write(`v3 online migration interop test skipped: needs ${V3_PEER} and ${TARBALL}\n`);
}

const scratch = mkdtempSync(join(tmpdir(), 'basalt-v3-online-'));
/** The v3 node's LISK_V3_DIR: its data dir, pid file and log, with lisk-core linked in. */
const v3Dir = join(scratch, 'lisk-v3');
const v3Env = (ports: Record<string, number>): NodeJS.ProcessEnv => ({
  ...process.env,
  LISK_V3_DIR: v3Dir,
  HTTP_PORT: String(ports.http),
  WS_PORT: String(ports.ws),
  P2P_PORT: String(ports.p2p),
});
let ports: Record<string, number> = {};

async function stopV3(): Promise<void> {
  if (existsSync(join(v3Dir, 'node.pid'))) await run('bash', [join(V3_PEER, 'stop.sh')], { env: v3Env(ports), timeout: 60_000 });
}

afterAll(async () => {
  await stopV3().catch(() => undefined);
  rmSync(scratch, { recursive: true, force: true });
});

async function v3Api<T>(path: string): Promise<T> {
  const response = await fetch(`http://127.0.0.1:${ports.http}/api/${path}`);
  return ((await response.json()) as { data: T }).data;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!present)('basalt migrate online against a running Lisk Core 3.0.3 node', () => {
  beforeAll(async () => {
    if (!existsSync(join(INSTALL, 'node_modules', '.bin', 'lisk-core'))) {
      await run('bash', [join(V3_PEER, 'install.sh')], { env: { ...process.env, LISK_V3_DIR: INSTALL }, timeout: 600_000 });
    }
    mkdirSync(v3Dir, { recursive: true });
    symlinkSync(join(INSTALL, 'node_modules'), join(v3Dir, 'node_modules'));
    await run('tar', ['xzf', TARBALL, '-C', v3Dir]);
    ports = { http: await freePort('127.0.0.1'), ws: await freePort('127.0.0.1'), p2p: await freePort('127.0.0.1') };
    // start.sh returns once the HTTP API answers; forging resumes at 310.
    await run('bash', [join(V3_PEER, 'start.sh')], { env: v3Env(ports), timeout: 180_000 });
  }, 700_000);

  it('captures the forging status at the snapshot block, then migrates the stopped node rolled back to it', async () => {
    const { height } = await v3Api<{ height: number }>('node/info');
    // Above 309 (round r - 2 = 2 has its vote weights), and a block the migration will see arrive.
    const snapshotHeight = Math.max(312, height + 2);
    const output = join(scratch, 'output');
    const captured = { stdout: '', stderr: '' };
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    stdout.on('data', (chunk) => (captured.stdout += chunk));
    stderr.on('data', (chunk) => (captured.stderr += chunk));
    const migration = runCli(
      [
        'migrate',
        '-s',
        String(snapshotHeight),
        '-d',
        join(v3Dir, 'data'),
        '--lisk-core-v3-rpc-url',
        `ws://127.0.0.1:${ports.ws}/ws`,
        '--unsafe-skip-v3-checks',
        '--unsafe-skip-finality-wait',
        '-n',
        'mainnet',
        '-o',
        output,
        '--rollback-to-snapshot',
      ],
      { stdout, stderr },
    );

    // The migration asks for the node to stop once the snapshot block is there; let one more block
    // come first, so that the database ends above the snapshot height.
    for (let waited = 0; !captured.stdout.includes('Stop Lisk Core v3 now'); waited += 500) {
      if (waited > 120_000) throw new Error(`the migration did not reach the stop prompt:\n${captured.stdout}\n${captured.stderr}`);
      await sleep(500);
    }
    const [snapshotBlock] = await v3Api<{ header: { id: string; timestamp: number } }[]>(`blocks?height=${snapshotHeight}`);
    while ((await v3Api<{ height: number }>('node/info')).height <= snapshotHeight) await sleep(1000);
    await stopV3();
    const code = await migration;
    expect(captured.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('{'))).toEqual([]);
    expect(code).toBe(0);

    expect(captured.stdout).toContain(`Skipped check: snapshot height (${snapshotHeight} is not a multiple of the round length 103).`);
    expect(captured.stdout).toContain(`Warning: not waiting for height ${snapshotHeight} to be final (--unsafe-skip-finality-wait)`);
    expect(captured.stdout).toContain(`Captured the forging status of 103 delegate(s) at height ${snapshotHeight}.`);
    const forgingStatus = JSON.parse(readFileSync(join(output, 'forgingStatus.json'), 'utf8')) as { forging: boolean }[];
    expect(forgingStatus).toHaveLength(103);
    expect(forgingStatus.every((entry) => entry.forging)).toBe(true);

    const dbPath = join(v3Dir, 'data', 'data', 'blockchain.db');
    const db = await V3Database.open(dbPath);
    const tipHeight = await readTipHeight(db);
    await db.close();
    expect(tipHeight).toBeGreaterThan(snapshotHeight);

    const genesis = JSON.parse(readFileSync(join(output, 'genesis_block.json'), 'utf8'));
    expect(genesis.header).toMatchObject({
      height: snapshotHeight + 1,
      previousBlockID: snapshotBlock?.header.id,
      timestamp: (snapshotBlock?.header.timestamp as number) + 3600,
    });
    // The state is the snapshot's, not the tip's: no validator generated a block above the snapshot.
    const assets = JSON.parse(readFileSync(join(output, 'genesis_assets.json'), 'utf8')) as {
      assets: { module: string; data: { validators?: { lastGeneratedHeight: number }[] } }[];
    };
    const validators = assets.assets.find((asset) => asset.module === 'pos')?.data.validators ?? [];
    expect(Math.max(...validators.map((validator) => validator.lastGeneratedHeight))).toBe(snapshotHeight);

    const dataPath = join(scratch, 'basalt');
    const imported = await runCli(
      ['legacy:import', '--v3-db', dbPath, '--snapshot-height', String(snapshotHeight), '--data-path', dataPath],
      { stdout, stderr },
    );
    expect(imported).toBe(0);
    expect(captured.stdout).toContain(JSON.stringify({ startHeight: 0, snapshotHeight, snapshotBlockID: snapshotBlock?.header.id }));
  }, 300_000);
});
