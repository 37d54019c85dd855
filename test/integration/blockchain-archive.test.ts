/**
 * `blockchain:export --format tar.gz` and `blockchain:import`, with real LMDB stores and real
 * files: the dev chain's store goes through an archive into a fresh data directory and opens at
 * the same tip and state root; a running devnet node is archived without stopping it; and every
 * archive the import must refuse (tampered state or blocks, another chain, path traversal, links,
 * a cut file, foreign or oversized content, an existing store without --force) is refused with its
 * code, leaving the target as it was.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Block } from '../../src/chain/block.js';
import { CHAIN_ENV_OPTIONS } from '../../src/chain/lmdb-environment.js';
import { loadChainConfig } from '../../src/config/lisk-config.js';
import { openChain } from '../../src/node.js';
import { runBasalt } from '../support/cli.js';
import { devChainConfig, devFinalState, devGenesisBlock, devReplayArgs } from '../support/dev-chain.js';
import { ROOT, startBasaltNode, stopProcess, waitForHeight } from '../support/node-process.js';

const BINARY = { keyEncoding: 'binary', encoding: 'binary' } as const;

interface Summary {
  height: number;
  id: string;
  stateRoot: string;
}

const sha256 = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('basalt blockchain:export --format tar.gz and blockchain:import', () => {
  let workDir: string;
  let devData: string;
  let archive: string;

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'basalt-archive-'));
    devData = join(workDir, 'dev');
    const replayed = await runBasalt(devReplayArgs(devData));
    expect(replayed.code).toBe(0);
    archive = join(workDir, 'dev.tar.gz');
    const exported = await runBasalt(['blockchain:export', '-d', devData, '-o', archive]);
    expect(exported.stderr).toBe('');
    expect(exported.code).toBe(0);
  }, 180_000);

  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  /** Extracts `archive` with the system's tar, edits the store with `edit`, and archives it again. */
  function repacked(name: string, edit: (storePath: string) => void): string {
    const dir = join(workDir, `${name}-files`);
    mkdirSync(dir);
    execFileSync('tar', ['xzf', archive, '-C', dir]);
    edit(join(dir, 'basalt.lmdb'));
    const output = join(workDir, `${name}.tar.gz`);
    execFileSync('tar', ['czf', output, '-C', dir, 'basalt.lmdb']);
    return output;
  }

  /** Runs the import into a fresh directory and returns the result with what that directory holds afterwards. */
  async function importInto(name: string, file: string, args: readonly string[] = []) {
    const target = join(workDir, name);
    const result = await runBasalt(['blockchain:import', file, '--data-path', target, ...args]);
    return { ...result, target, left: existsSync(target) ? readdirSync(target) : [] };
  }

  it('exports the store as a .tar.gz that imports into a fresh data dir at the same tip and state root', async () => {
    const { height, id, stateRoot } = devFinalState().tip;
    const tip = { height, id, stateRoot };
    // The suffix chose the format; the summary names the archived tip.
    const exported = await runBasalt(['blockchain:export', '-d', devData, '-o', join(workDir, 'again.tgz')]);
    expect(exported.code).toBe(0);
    const summary = JSON.parse(exported.stdout) as Summary & { format: string; bytes: number; output: string };
    expect(summary).toEqual({
      format: 'tar.gz',
      height: tip.height,
      id: tip.id,
      stateRoot: tip.stateRoot,
      bytes: readFileSync(join(workDir, 'again.tgz')).length,
      output: join(workDir, 'again.tgz'),
    });
    // The system's tar reads it; only the store is archived (a replayed dir has no config copy).
    expect(execFileSync('tar', ['tzf', archive], { encoding: 'utf8' })).toBe('basalt.lmdb\n');
    expect(readdirSync(workDir).filter((name) => name.includes('.tmp') || name.startsWith('.basalt-export-'))).toEqual([]);

    const imported = await importInto('imported', archive);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(JSON.parse(imported.stdout)).toEqual({ ...tip, dataPath: imported.target, replaced: false });
    expect(imported.left).toEqual(['basalt.lmdb']);
    const chain = await openChain({ dataPath: imported.target, config: devChainConfig(), genesisBlock: devGenesisBlock() });
    try {
      const header = chain.processor.tipHeader();
      expect({ height: header.height, id: header.id.toString('hex'), stateRoot: chain.stateDb.root().toString('hex') }).toEqual(tip);
    } finally {
      await chain.close();
    }

    // Flags that do not go with the format are usage errors, and nothing is written.
    const badFormat = await runBasalt(['blockchain:export', '-d', devData, '--format', 'zip', '-o', join(workDir, 'x.zip')]);
    expect(badFormat.code).toBe(1);
    expect(badFormat.stderr).toContain('--format must be ndjson or tar.gz, got "zip"');
    const range = await runBasalt(['blockchain:export', '-d', devData, '-o', join(workDir, 'x.tar.gz'), '--from', '1']);
    expect(range.code).toBe(1);
    expect(range.stderr).toContain('--from and --to apply to the ndjson format only');
    expect(existsSync(join(workDir, 'x.zip')) || existsSync(join(workDir, 'x.tar.gz'))).toBe(false);

    // The same again with --force replaces the store, which ends the same.
    const again = await runBasalt(['blockchain:import', archive, '-d', imported.target, '--force']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ ...tip, replaced: true });
    expect(readdirSync(imported.target).filter((name) => name.startsWith('.import-'))).toEqual([]);
  }, 120_000);

  it('refuses to replace an existing store without --force, and leaves it untouched', async () => {
    const target = join(workDir, 'existing');
    cpSync(devData, target, { recursive: true });
    const before = sha256(join(target, 'basalt.lmdb'));
    const refused = await runBasalt(['blockchain:import', archive, '--data-path', target]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('(ERR_IMPORT_TARGET_EXISTS)');
    expect(sha256(join(target, 'basalt.lmdb'))).toBe(before);
    expect(readdirSync(target).sort()).toEqual(['basalt.lmdb', 'basalt.lmdb-lock']);
  });

  it('refuses an archive whose state entries were changed, or whose blocks are incomplete', async () => {
    const tamperedState = repacked('tampered-state', (storePath) => {
      const env = open({ path: storePath, ...CHAIN_ENV_OPTIONS });
      const values = env.openDB<Buffer, Buffer>('state.values', BINARY);
      const [first] = [...values.getRange({ limit: 1 })];
      if (first === undefined) throw new Error('the dev chain has state');
      const changed = Buffer.from(first.value);
      changed[changed.length - 1] = (changed[changed.length - 1] as number) ^ 1;
      values.putSync(first.key, changed);
      env.close();
    });
    // With --force on an existing store: the old one stays.
    const target = join(workDir, 'kept');
    cpSync(devData, target, { recursive: true });
    const before = sha256(join(target, 'basalt.lmdb'));
    const state = await runBasalt(['blockchain:import', tamperedState, '-d', target, '--force']);
    expect(state.code).toBe(3);
    expect(state.stderr).toContain('(ERR_IMPORT_STATE)');
    expect(sha256(join(target, 'basalt.lmdb'))).toBe(before);
    expect(readdirSync(target).sort()).toEqual(['basalt.lmdb', 'basalt.lmdb-lock']);

    const missingTransaction = repacked('tampered-chain', (storePath) => {
      const env = open({ path: storePath, ...CHAIN_ENV_OPTIONS });
      const transactions = env.openDB<Buffer, Buffer>('chain.transactions', BINARY);
      const [first] = [...transactions.getRange({ limit: 1 })];
      if (first === undefined) throw new Error('the dev chain has transactions');
      transactions.removeSync(first.key);
      env.close();
    });
    const chain = await importInto('tampered-chain', missingTransaction);
    expect(chain.code).toBe(3);
    expect(chain.stderr).toContain('(ERR_IMPORT_CHAIN)');
    expect(chain.left).toEqual([]);
  }, 60_000);

  it("refuses a chain from another genesis block than the target's config", async () => {
    const target = join(workDir, 'other-chain');
    mkdirSync(join(target, 'config'), { recursive: true });
    writeFileSync(join(target, 'config', 'genesis_block.blob'), readFileSync(join(ROOT, 'config/devnet-101/genesis_block.blob')));
    const result = await runBasalt(['blockchain:import', archive, '-d', target]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('(ERR_IMPORT_GENESIS)');
    expect(readdirSync(target)).toEqual(['config']);
  });

  it('refuses hostile and broken archives with their codes, writing nothing outside its work directory', async () => {
    const files = join(workDir, 'hostile');
    mkdirSync(join(files, 'inner'), { recursive: true });
    writeFileSync(join(files, 'evil'), 'outside');
    // GNU tar keeps "../evil" as it is with -P.
    const traversal = join(workDir, 'traversal.tar.gz');
    execFileSync('tar', ['czPf', traversal, '../evil'], { cwd: join(files, 'inner') });
    symlinkSync('/etc/passwd', join(files, 'basalt.lmdb'));
    const link = join(workDir, 'link.tar.gz');
    execFileSync('tar', ['czf', link, '-C', files, 'basalt.lmdb']);
    rmSync(join(files, 'basalt.lmdb'));
    mkdirSync(join(files, 'blockchain.db'));
    writeFileSync(join(files, 'blockchain.db', 'CURRENT'), 'MANIFEST-000001\n');
    const lisk = join(workDir, 'lisk.tar.gz');
    execFileSync('tar', ['czf', lisk, '-C', files, 'blockchain.db']);
    mkdirSync(join(files, 'config'));
    writeFileSync(join(files, 'config', 'config.json'), Buffer.alloc(17 * 2 ** 20, 0x20));
    const oversized = join(workDir, 'oversized.tar.gz');
    execFileSync('tar', ['czf', oversized, '-C', files, 'config/config.json']);
    const bytes = readFileSync(archive);
    const truncated = join(workDir, 'truncated.tar.gz');
    writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const notGzip = join(workDir, 'not-gzip.tar.gz');
    writeFileSync(notGzip, 'this is not an archive\n'.repeat(50));

    const cases: [string, string, string][] = [
      ['traversal', traversal, 'ERR_ARCHIVE_PATH'],
      ['link', link, 'ERR_ARCHIVE_LINK'],
      ['lisk', lisk, 'ERR_ARCHIVE_CONTENT'],
      ['oversized', oversized, 'ERR_ARCHIVE_TOO_LARGE'],
      ['truncated', truncated, 'ERR_ARCHIVE_TRUNCATED'],
      ['not-gzip', notGzip, 'ERR_ARCHIVE_CORRUPT'],
    ];
    for (const [name, file, code] of cases) {
      const result = await importInto(`refused-${name}`, file);
      expect({ name, code: result.code, stderr: result.stderr }).toEqual({ name, code: 2, stderr: expect.stringContaining(`(${code})`) });
      expect({ name, left: result.left }).toEqual({ name, left: [] });
    }
    // The traversal target (workDir/evil beside the refused data dir) was never written.
    expect(existsSync(join(workDir, 'evil'))).toBe(false);
    expect(readFileSync(join(files, 'evil'), 'utf8')).toBe('outside');
  }, 60_000);

  it('exports a running node, whose archive carries its config and no generator store', async () => {
    const dataPath = join(workDir, 'devnet');
    const node = startBasaltNode(['--data-path', dataPath]);
    let running: Summary & { output: string };
    try {
      const { rpc: port } = await node.ports();
      await waitForHeight(port, 3, 90_000, { output: node.output });
      // No --output suffix: --format chooses, and a directory means DIR/blockchain.tar.gz.
      const outDir = join(workDir, 'running-out');
      mkdirSync(outDir);
      const exported = await runBasalt(['blockchain:export', '-d', dataPath, '--format', 'tar.gz', '-o', outDir]);
      expect(exported.stderr).toBe('');
      expect(exported.code).toBe(0);
      running = JSON.parse(exported.stdout);
      expect(running.output).toBe(join(outDir, 'blockchain.tar.gz'));
      expect(running.height).toBeGreaterThanOrEqual(3);
      // The node holds its data directory: an import there is refused whatever the flags.
      const busy = await runBasalt(['blockchain:import', running.output, '-d', dataPath, '--force']);
      expect(busy.code).toBe(2);
      expect(busy.stderr).toContain('(ERR_DATA_DIR_LOCKED)');
    } finally {
      expect(await stopProcess(node.child)).toBe(0);
    }
    expect(execFileSync('tar', ['tzf', running.output], { encoding: 'utf8' }).split('\n').filter(Boolean)).toEqual([
      'basalt.lmdb',
      'config/',
      'config/config.json',
      'config/genesis_block.blob',
    ]);
    const files = join(workDir, 'running-files');
    mkdirSync(files);
    execFileSync('tar', ['xzf', running.output, '-C', files]);
    // The node's own store has a generator store (the heights its validators signed); the archive has none.
    const generatorStoreIn = async (storePath: string): Promise<boolean> => {
      const env = open({ path: storePath, ...CHAIN_ENV_OPTIONS, readOnly: true });
      try {
        return env.openDB('generator', BINARY) !== undefined;
      } finally {
        await env.close();
      }
    };
    expect(await generatorStoreIn(join(dataPath, 'basalt.lmdb'))).toBe(true);
    expect(await generatorStoreIn(join(files, 'basalt.lmdb'))).toBe(false);

    const imported = await importInto('running-imported', running.output);
    expect(imported.code).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ height: running.height, id: running.id, stateRoot: running.stateRoot });
    expect(imported.left.sort()).toEqual(['basalt.lmdb', 'config']);
    const chain = await openChain({
      dataPath: imported.target,
      config: loadChainConfig(join(imported.target, 'config', 'config.json')),
      genesisBlock: Block.fromBytes(readFileSync(join(imported.target, 'config', 'genesis_block.blob'))),
    });
    try {
      const header = chain.processor.tipHeader();
      expect({ height: header.height, id: header.id.toString('hex'), stateRoot: chain.stateDb.root().toString('hex') }).toEqual({
        height: running.height,
        id: running.id,
        stateRoot: running.stateRoot,
      });
    } finally {
      await chain.close();
    }
  }, 240_000);
});
