import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { open, type RootDatabase } from 'lmdb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  importLegacyBlocks,
  initLegacyBrackets,
  isBracketComplete,
  legacyBlockId,
  legacyBracket,
  LegacyChainStore,
  LegacyImportError,
  legacyTransactionId,
  legacyTransactionRoot,
  type V3BlockSource,
} from '../../../src/legacy-chain/index.js';
import { buildV3Chain, KILL_TEST_CHAIN, v3Header, v3Transfer } from '../../support/v3-legacy-chain.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const CHILD = join(ROOT, 'test', 'support', 'legacy-import-child.ts');

let dir: string;
let env: RootDatabase;
let store: LegacyChainStore;

const openStore = (): void => {
  env = open({ path: join(dir, 'basalt.lmdb'), maxDbs: 8 });
  store = new LegacyChainStore(env);
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'basalt-legacy-import-'));
  openStore();
});

afterEach(async () => {
  await env.close();
  rmSync(dir, { recursive: true, force: true });
});

const chain = buildV3Chain({ length: 40, transactionsAt: (height) => height % 3 });
const top = chain[chain.length - 1] as V3BlockSource;
const bracket = legacyBracket({ id: top.id, height: top.height }, 0);

/** `blocks` with the block at `height` replaced. */
const replaced = (blocks: readonly V3BlockSource[], height: number, block: V3BlockSource): V3BlockSource[] =>
  blocks.map((entry) => (entry.height === height ? block : entry));

async function failure(blocks: Iterable<V3BlockSource> | AsyncIterable<V3BlockSource>): Promise<LegacyImportError> {
  try {
    await importLegacyBlocks(store, blocks, bracket, { batchSize: 8 });
  } catch (error) {
    expect(error).toBeInstanceOf(LegacyImportError);
    return error as LegacyImportError;
  }
  throw new Error('the import did not fail');
}

describe('importLegacyBlocks', () => {
  it('stores every block by ID and height, the transactions by ID, and completes the bracket', async () => {
    const result = await importLegacyBlocks(store, chain, bracket, { batchSize: 8 });
    expect(result).toEqual({ imported: 40, skipped: 0, transactions: 39, alreadyComplete: false });
    for (const block of chain) {
      expect(store.blockIdAtHeight(block.height)).toEqual(block.id);
      const stored = store.blockById(block.id);
      expect(stored?.header).toEqual(block.header);
      expect(stored?.payload).toEqual(block.transactions);
      for (const tx of block.transactions) expect(store.transactionById(legacyTransactionId(tx))).toEqual(tx);
    }
    expect(store.bracketInfo(top.id)).toEqual({ startHeight: 0, snapshotBlockHeight: 39, lastBlockHeight: 0 });
    expect(store.importCursor(top.id)).toBeUndefined();
    expect(isBracketComplete(store, bracket)).toBe(true);
    expect(await importLegacyBlocks(store, chain, bracket)).toMatchObject({ imported: 0, alreadyComplete: true });
  });

  it('refuses a block whose ID is not the hash of its header', async () => {
    const bad = { ...(chain[20] as V3BlockSource), id: Buffer.alloc(32, 7) };
    const error = await failure(replaced(chain, 20, bad));
    expect(error).toMatchObject({ failure: 'block-id', height: 20, code: 'ERR_LEGACY_IMPORT' });
    // Whole batches before the bad block stay, with the progress that names their last block.
    expect(store.importCursor(top.id)?.height).toBe(15);
    expect(store.blockIdAtHeight(16)).toBeUndefined();
    expect(isBracketComplete(store, bracket)).toBe(false);
  });

  it('refuses a broken link', async () => {
    const source = chain[12] as V3BlockSource;
    const header = v3Header({
      height: 12,
      previousBlockID: Buffer.alloc(32, 1),
      transactionRoot: legacyTransactionRoot(source.transactions.map(legacyTransactionId)),
    });
    const error = await failure(replaced(chain, 12, { ...source, header, id: legacyBlockId(header) }));
    expect(error).toMatchObject({ failure: 'previous-block-id', height: 12 });
  });

  it('refuses a transaction root that does not match the transactions', async () => {
    const source = chain[14] as V3BlockSource;
    const error = await failure(replaced(chain, 14, { ...source, transactions: [...source.transactions, v3Transfer(999n)] }));
    expect(error).toMatchObject({ failure: 'transaction-root', height: 14 });
    expect(error.message).toContain('its transactions give the root');
  });

  it('refuses a gap in the heights', async () => {
    const error = await failure(chain.filter((block) => block.height !== 9));
    expect(error).toMatchObject({ failure: 'height', height: 10 });
  });

  it('refuses a source that does not start at the bracket start, or ends below the snapshot block', async () => {
    expect(await failure(chain.slice(1))).toMatchObject({ failure: 'start-height', height: 1 });
    expect(await failure(chain.slice(0, 30))).toMatchObject({ failure: 'incomplete', height: 29 });
  });

  it('refuses a chain whose block at the snapshot height is not the snapshot block', async () => {
    const other = buildV3Chain({ length: 40, transactionsAt: () => 1 });
    const error = await failure(other);
    expect(error).toMatchObject({ failure: 'snapshot-block', height: 39 });
    expect(isBracketComplete(store, bracket)).toBe(false);
  });

  it('refuses blocks above the snapshot height', async () => {
    const shortBracket = legacyBracket({ id: (chain[20] as V3BlockSource).id, height: 20 }, 0);
    await expect(importLegacyBlocks(store, chain.slice(0, 20), shortBracket)).rejects.toMatchObject({ failure: 'incomplete' });
    const longer = buildV3Chain({ length: 10 });
    const tallBracket = legacyBracket({ id: Buffer.alloc(32, 9), height: 5 }, 0);
    await expect(importLegacyBlocks(store, longer, tallBracket)).rejects.toMatchObject({ failure: 'snapshot-block', height: 5 });
  });

  it('resumes an interrupted import after a reopen, from the start or from where it stopped', async () => {
    async function* dying(): AsyncGenerator<V3BlockSource> {
      for (const block of chain) {
        if (block.height === 27) throw new Error('killed');
        yield block;
      }
    }
    await expect(importLegacyBlocks(store, dying(), bracket, { batchSize: 10 })).rejects.toThrow('killed');
    await env.close();
    openStore();
    expect(store.importCursor(top.id)).toEqual({ height: 19, id: (chain[19] as V3BlockSource).id });
    expect(store.blockIdAtHeight(20)).toBeUndefined();
    // A node started now must not count the unfinished bracket as complete.
    initLegacyBrackets(store, [bracket]);
    expect(isBracketComplete(store, bracket)).toBe(false);

    const fromStart = await importLegacyBlocks(store, chain, bracket, { batchSize: 10 });
    expect(fromStart).toMatchObject({ imported: 20, skipped: 20 });
    expect(isBracketComplete(store, bracket)).toBe(true);
  });

  it('resumes from the block after the last stored one, and refuses a source that no longer matches', async () => {
    await expect(importLegacyBlocks(store, chain.slice(0, 25), bracket, { batchSize: 10 })).rejects.toMatchObject({
      failure: 'incomplete',
    });
    expect(store.importCursor(top.id)?.height).toBe(24);
    const other = buildV3Chain({ length: 40, transactionsAt: () => 1 });
    await expect(importLegacyBlocks(store, other, bracket)).rejects.toMatchObject({ failure: 'resume', height: 24 });
    await expect(importLegacyBlocks(store, chain.slice(30), bracket)).rejects.toMatchObject({ failure: 'resume' });
    expect(await importLegacyBlocks(store, chain.slice(25), bracket)).toMatchObject({ imported: 15, skipped: 0 });
    expect(store.bracketInfo(top.id)?.lastBlockHeight).toBe(0);
  });
});

describe('importLegacyBlocks beside a legacy sync', () => {
  it('keeps the lowest height a sync recorded until the import reaches the snapshot block', async () => {
    store.setBracketInfo(top.id, { startHeight: 0, snapshotBlockHeight: 39, lastBlockHeight: 30 });
    await expect(importLegacyBlocks(store, chain.slice(0, 20), bracket, { batchSize: 8 })).rejects.toMatchObject({ failure: 'incomplete' });
    expect(store.bracketInfo(top.id)?.lastBlockHeight).toBe(30);
    await importLegacyBlocks(store, chain.slice(20), bracket);
    expect(store.bracketInfo(top.id)?.lastBlockHeight).toBe(0);
  });
});

describe('initLegacyBrackets', () => {
  it('records a new bracket as empty and marks a known one complete once its start block is stored', async () => {
    initLegacyBrackets(store, [bracket]);
    expect(store.bracketInfo(top.id)).toEqual({ startHeight: 0, snapshotBlockHeight: 39, lastBlockHeight: 39 });
    await importLegacyBlocks(store, chain, bracket);
    store.setBracketInfo(top.id, { startHeight: 0, snapshotBlockHeight: 39, lastBlockHeight: 39 });
    initLegacyBrackets(store, [{ ...bracket, startHeight: 5 }]);
    expect(store.bracketInfo(top.id)).toEqual({ startHeight: 5, snapshotBlockHeight: 39, lastBlockHeight: 5 });
  });
});

describe('importLegacyBlocks killed mid-import', () => {
  it('leaves whole batches that reopen consistent, and the next run resumes', async () => {
    await env.close();
    const envPath = join(dir, 'killed.lmdb');
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, envPath], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        // Killed while batches keep committing: somewhere inside a batch or its commit.
        if ((output.match(/committed/g) ?? []).length >= 8) child.kill('SIGKILL');
      });
      child.on('error', reject);
      child.on('close', () => resolve());
    });
    expect(output).not.toContain('done');

    const killedEnv = open({ path: envPath, maxDbs: 8 });
    try {
      const killedStore = new LegacyChainStore(killedEnv);
      const full = buildV3Chain(KILL_TEST_CHAIN);
      const killedTop = full.at(-1) as V3BlockSource;
      const cursor = killedStore.importCursor(killedTop.id);
      expect(cursor).toBeDefined();
      const reached = cursor?.height as number;
      expect(reached).toBeGreaterThanOrEqual(7 * 25 - 1);
      expect((reached + 1) % 25).toBe(0);
      // Everything up to the cursor is stored whole, nothing above it.
      for (const block of full.slice(0, reached + 1)) {
        expect(killedStore.blockById(block.id)).toEqual({ id: block.id, header: block.header, payload: block.transactions });
      }
      expect(killedStore.blockIdAtHeight(reached + 1)).toBeUndefined();
      const bracketOfKill = legacyBracket(killedTop, 0);
      expect(isBracketComplete(killedStore, bracketOfKill)).toBe(false);

      const result = await importLegacyBlocks(killedStore, full, bracketOfKill, { batchSize: 500 });
      expect(result).toMatchObject({ skipped: reached + 1, imported: full.length - reached - 1 });
      expect(isBracketComplete(killedStore, bracketOfKill)).toBe(true);
    } finally {
      await killedEnv.close();
      openStore();
    }
  }, 60_000);
});
