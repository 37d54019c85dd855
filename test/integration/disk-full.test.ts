/**
 * A full disk, for real: the node runs under a file size limit (RLIMIT_FSIZE, `ulimit -f`), so the
 * LMDB file cannot grow past it and a commit fails in the kernel exactly as on a full disk (lmdb-js
 * grows its map on demand, so MDB_MAP_FULL itself never comes: the file's growth is the limit).
 *
 * A devnet node producing blocks stops when its store takes no more writes: it logs the failure
 * with the code ERR_STORE_WRITE, exits with code 4, and loses nothing it committed (reopened, its
 * tip is the last block it logged as generated, with the state at that block's stateRoot). Started
 * again without the limit, it goes on producing. A replay of the dev chain under a limit does the
 * same and then finishes on the reference roots.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainEnvPath } from '../../src/chain/lmdb-environment.js';
import { prepareNodeConfig } from '../../src/config/resolve-node-config.js';
import { openChain } from '../../src/node.js';
import { runBasalt } from '../support/cli.js';
import { devBlockLines, devChainConfig, devFinalState, devGenesisBlock, devReplayArgs } from '../support/dev-chain.js';
import { seedDevGenesis } from '../support/dev-genesis-store.js';
import { startBasaltNode, stopProcess, waitForHeight } from '../support/node-process.js';

const STORE_WRITE_EXIT = 4;
const STOP_MESSAGE = 'The store could not commit a write: stopping the node';

/**
 * The JSON log records of a node's output. LMDB's own message about the failed write goes to
 * stderr without a line end, so a record may follow it on the same line.
 */
function logRecords(output: string): Record<string, unknown>[] {
  return output
    .split('\n')
    .map((line) => line.slice(line.indexOf('{"level"')))
    .filter((line) => line.startsWith('{"level"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const kib = (path: string): number => Math.ceil(statSync(path).size / 1024);

describe('disk full (a file size limit on the store)', () => {
  let workDir: string;
  beforeAll(() => {
    workDir = mkdtempSync(join(tmpdir(), 'basalt-disk-full-'));
  });
  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  it('a producing node stops with exit code 4, keeps every block it logged, and resumes with room', async () => {
    const dataPath = join(workDir, 'devnet');
    // A few blocks without a limit: the store's size after them sets the limit.
    const first = startBasaltNode(['--data-path', dataPath]);
    await waitForHeight((await first.ports()).rpc, 2, 60_000, { output: first.output });
    expect(await stopProcess(first.child), first.output()).toBe(0);
    const sizeKiB = kib(chainEnvPath(dataPath));
    // One more page (4 KiB) of growth, then the disk is "full".
    const limitKiB = sizeKiB + 4;

    const limited = startBasaltNode(['--data-path', dataPath, '--log', 'info'], {}, { fileSizeKiB: limitKiB });
    const code = await new Promise<number | null>((resolve) => limited.child.once('exit', (exitCode) => resolve(exitCode)));
    const output = limited.output();
    expect(code, output).toBe(STORE_WRITE_EXIT);
    const records = logRecords(output);
    const failure = records.find((record) => record.msg === STOP_MESSAGE);
    expect(failure?.code, output).toBe('ERR_STORE_WRITE');
    expect(output).toContain('Error: The store could not commit a write');
    const generated = records.filter((record) => record.msg === 'Generated block').map((record) => Number(record.height));
    expect(
      records.some((record) => record.msg === 'Node stopped'),
      output,
    ).toBe(true);

    // Nothing committed is lost: the tip is the last block logged as stored, and it is consistent.
    const plan = prepareNodeConfig({ dataPath });
    const reopened = await openChain({ dataPath, config: plan.chainConfig, genesisBlock: plan.genesisBlock });
    let tip: number;
    try {
      const header = reopened.processor.tipHeader();
      tip = header.height;
      if (generated.length > 0) expect(tip).toBe(generated[generated.length - 1]);
      expect(reopened.stateDb.root().equals(header.stateRoot)).toBe(true);
      for (let height = 1; height <= tip; height += 1) {
        const block = reopened.chainStore.getBlockByHeight(height);
        expect(block.header.previousBlockID.equals(reopened.chainStore.getBlockByHeight(height - 1).header.id)).toBe(true);
      }
    } finally {
      await reopened.close();
    }

    // With room again, the same data directory goes on.
    const resumed = startBasaltNode(['--data-path', dataPath]);
    const grown = await waitForHeight((await resumed.ports()).rpc, tip + 2, 60_000, { output: resumed.output });
    expect(await stopProcess(resumed.child), resumed.output()).toBe(0);
    console.log(
      `Disk full while producing: store ${sizeKiB} KiB, limit ${limitKiB} KiB; blocks stored under the limit ${generated.length} ` +
        `(last ${generated[generated.length - 1] ?? 'none'}); exit code ${code}; tip at reopen ${tip}; blocks lost 0; ` +
        `restarted without the limit to height ${grown}`,
    );
  }, 240_000);

  it('a replay stops with exit code 4 on a consistent store and finishes once there is room', async () => {
    const dataPath = join(workDir, 'replay');
    await seedDevGenesis(dataPath);
    const args = devReplayArgs(dataPath);
    // The dev chain's store grows to about 5 MB: a limit of 1 MiB over the genesis store (seeded by
    // the global setup) stops it midway.
    const limitKiB = kib(chainEnvPath(dataPath)) + 1024;
    const limited = await runBasalt(args, { fileSizeKiB: limitKiB });
    expect(limited.code, limited.stderr).toBe(STORE_WRITE_EXIT);
    expect(limited.stderr).toContain('Error: The store could not commit a write');
    const ids = devBlockLines().map((line) => line.id);
    const chain = await openChain({ dataPath, config: devChainConfig(), genesisBlock: devGenesisBlock() });
    let tip: number;
    try {
      const header = chain.processor.tipHeader();
      tip = header.height;
      expect(tip).toBeLessThan(ids.length - 1);
      for (let height = 0; height <= tip; height += 1)
        expect(chain.chainStore.getHeaderByHeight(height)?.id.toString('hex')).toBe(ids[height]);
      expect(chain.stateDb.root().equals(header.stateRoot)).toBe(true);
    } finally {
      await chain.close();
    }
    const finished = await runBasalt(args);
    expect(finished.code, finished.stderr).toBe(0);
    const final = devFinalState().tip;
    expect(JSON.parse(finished.stdout.trim())).toEqual({ height: final.height, id: final.id, stateRoot: final.stateRoot });
    console.log(
      `Disk full while replaying: limit ${limitKiB} KiB; stopped at height ${tip} of ${ids.length - 1} with exit code ${limited.code}; ` +
        `store consistent; the next run without the limit ended on the reference tip ${final.height}`,
    );
  }, 180_000);
});
