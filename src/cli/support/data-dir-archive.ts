/**
 * A data directory as one `.tar.gz`, the form Lisk Core v4 operators move nodes with (lisk-sdk
 * v6.1.0 `commander/src/bootstrapping/commands/blockchain/export.ts` and `import.ts`, which
 * archive `data/blockchain.db` and `data/state.db`). Basalt keeps the chain and the state in one
 * LMDB environment, so its archive holds that environment, `basalt.lmdb`, plus the node's copy
 * of its config and genesis block when the data directory has one:
 *
 *   basalt.lmdb                  a compacted copy of the environment, without the generator store
 *   config/config.json           (when present)
 *   config/genesis_block.blob    (when present)
 *
 * Lisk's archive leaves out the generator database (keys and the heights a validator signed);
 * Basalt's leaves out the same store, and never archives a keys file, pid file or socket.
 *
 * An archive is checked, not trusted, before it replaces anything: `importDataDirArchive` extracts
 * it beside the target, checks every block and recomputes the state root, and only then swaps the
 * stores by rename.
 */
import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import { ArchiveError } from '../../archive/archive-error.js';
import { extractTarGz, writeTarGz, type ExtractEntry, type TarSource } from '../../archive/tar.js';
import { Block } from '../../chain/block.js';
import type { BlockHeader } from '../../chain/block-header.js';
import { ChainStore } from '../../chain/chain-store.js';
import { CHAIN_ENV_OPTIONS, chainEnvPath } from '../../chain/lmdb-environment.js';
import { verifyStoredChain } from '../../chain/stored-chain.js';
import { dataDirConfigPaths } from '../../config/data-dir-config.js';
import { GENERATOR_DB_NAME } from '../../engine/generator/generator-store.js';
import { forgetTreeSnapshot } from '../../state/state-db.js';
import { BasaltError, NotFoundError, StoreError } from '../../errors.js';
import { DataDirLock } from '../../runtime/data-dir-lock.js';
import { StateDb } from '../../state/state-db.js';

/** The store's name in the archive: its name in a data directory. */
const STORE_ENTRY = 'basalt.lmdb';
const CONFIG_ENTRY = 'config/config.json';
const GENESIS_ENTRY = 'config/genesis_block.blob';

/** The largest file each entry may hold: the store cannot outgrow its map; the rest are small. */
const ENTRY_LIMITS: ReadonlyMap<string, number> = new Map([
  [STORE_ENTRY, CHAIN_ENV_OPTIONS.mapSize],
  [CONFIG_ENTRY, 16 * 2 ** 20],
  [GENESIS_ENTRY, 1024 * 2 ** 20],
]);
/** The work directory of an import, inside the target data directory. */
const WORK_PREFIX = '.import-';
const BINARY_DB = { keyEncoding: 'binary', encoding: 'binary' } as const;
const DIRECTORY_ENTRIES: ReadonlySet<string> = new Set(['.', 'config']);

export type DataDirImportErrorCode =
  /** The target data directory has a chain store and --force was not given. */
  | 'ERR_IMPORT_TARGET_EXISTS'
  /** A block of the archived store is missing, incomplete, or does not link to its parent. */
  | 'ERR_IMPORT_CHAIN'
  /** The archived state entries do not give the tip's stateRoot. */
  | 'ERR_IMPORT_STATE'
  /** The archived chain starts from another genesis block than the target's config. */
  | 'ERR_IMPORT_GENESIS';

/** Why an archive was not imported, after it was read: its chain, its state, or the target. */
export class DataDirImportError extends BasaltError {
  declare readonly code: DataDirImportErrorCode;

  /** `cause`: the store's own error behind a damaged chain or state. */
  constructor(code: DataDirImportErrorCode, message: string, cause?: unknown) {
    super(code, message, cause === undefined ? undefined : { cause });
  }
}

/** The tip of an archived store. */
export interface ArchivedTip {
  readonly height: number;
  readonly id: string;
  readonly stateRoot: string;
}

const tipOf = (header: BlockHeader): ArchivedTip => ({
  height: header.height,
  id: header.id.toString('hex'),
  stateRoot: header.stateRoot.toString('hex'),
});

function removeEnvironment(path: string): void {
  rmSync(path, { force: true });
  rmSync(`${path}-lock`, { force: true });
}

/**
 * Writes the archive of `dataPath` to `output`, through a temporary name renamed at the end. The
 * node may be running: the store is copied by LMDB inside one read transaction (lmdb-js
 * `backup`, `mdb_env_copy2`), as `system.backup.height` does (src/chain/chain-backup.ts), into a
 * work directory beside `output`; the generator store is dropped from that copy, which is then
 * compacted into the archived file, so no page of it remains.
 */
export async function exportDataDirArchive(dataPath: string, output: string): Promise<ArchivedTip & { bytes: number }> {
  const storePath = chainEnvPath(dataPath);
  if (!existsSync(storePath)) throw new NotFoundError(`No Basalt chain store in ${dataPath} (expected ${storePath}).`);
  mkdirSync(dirname(output), { recursive: true });
  const work = mkdtempSync(join(dirname(output), '.basalt-export-'));
  const temporary = `${output}.${process.pid}.tmp`;
  try {
    const snapshot = join(work, 'snapshot.lmdb');
    const source = open({ path: storePath, ...CHAIN_ENV_OPTIONS, readOnly: true });
    try {
      await source.backup(snapshot, false);
    } finally {
      await source.close();
    }
    const archivedStore = join(work, STORE_ENTRY);
    const copy = open({ path: snapshot, ...CHAIN_ENV_OPTIONS });
    let tip: ArchivedTip;
    try {
      const chainStore = new ChainStore(copy);
      if (chainStore.isEmpty()) throw new NotFoundError(`The chain store in ${dataPath} holds no block.`);
      tip = tipOf(chainStore.getHeaderByHeight(chainStore.tipHeight()) as BlockHeader);
      copy.openDB(GENERATOR_DB_NAME, BINARY_DB).dropSync();
      forgetTreeSnapshot(copy);
      await copy.backup(archivedStore, true);
    } finally {
      await copy.close();
    }
    removeEnvironment(snapshot);

    const { configFile, genesisFile } = dataDirConfigPaths(dataPath);
    const sources: TarSource[] = [{ name: STORE_ENTRY, path: archivedStore }];
    const configSources = [
      { name: CONFIG_ENTRY, path: configFile },
      { name: GENESIS_ENTRY, path: genesisFile },
    ].filter(({ path }) => existsSync(path));
    if (configSources.length > 0) sources.push({ name: 'config' }, ...configSources);
    const bytes = await writeTarGz(temporary, sources);
    renameSync(temporary, output);
    return { ...tip, bytes };
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The entries an archive of ours may hold, each once and within its size. */
function admitOnlyDataDirEntries(archive: string): (entry: ExtractEntry) => void {
  const seen = new Set<string>();
  return ({ name, type, size }) => {
    if (type === 'directory' && DIRECTORY_ENTRIES.has(name)) return;
    const limit = type === 'file' ? ENTRY_LIMITS.get(name) : undefined;
    if (limit === undefined) {
      const hint = /^(?:\.\/)?(?:data\/)?(?:blockchain|state)\.db(?:\/|$)/.test(name)
        ? ' It looks like a Lisk Core archive: move a Lisk Core node with `basalt migrate`.'
        : '';
      throw new ArchiveError(
        'ERR_ARCHIVE_CONTENT',
        `${archive} is not a Basalt data directory archive: unexpected entry "${name}".${hint}`,
      );
    }
    if (seen.has(name)) throw new ArchiveError('ERR_ARCHIVE_CONTENT', `${archive} holds "${name}" twice.`);
    seen.add(name);
    if (size > limit)
      throw new ArchiveError('ERR_ARCHIVE_TOO_LARGE', `The archive entry "${name}" is ${size} bytes, above the ${limit} accepted.`);
  };
}

/** The stored genesis block's ID must be the one of the genesis block file at `path`, when it exists. */
function checkGenesisFile(chainStore: ChainStore, path: string, onMismatch: (message: string) => BasaltError): void {
  if (!existsSync(path)) return;
  const expected = Block.fromBytes(readFileSync(path)).header.id;
  const stored = (chainStore.getHeaderByHeight(chainStore.genesisHeight()) as BlockHeader).id;
  if (!stored.equals(expected)) {
    throw onMismatch(
      `The archived chain starts from genesis block ${stored.toString('hex')}; ${path} is genesis block ${expected.toString('hex')}.`,
    );
  }
}

/**
 * Checks the store extracted to `storePath`: (a) every block from genesis to tip whole and linked
 * (`verifyStoredChain`), (b) the state root recomputed from the stored state entries (StateDb
 * rebuilds its tree from them when it opens and refuses a store whose entries do not give the
 * committed root) equal to the tip's stateRoot, (c) the genesis block of the target's config and
 * of the archive's own config, when they exist. Returns the tip.
 */
async function verifyExtractedStore(storePath: string, genesisFiles: { target: string; archived: string }): Promise<ArchivedTip> {
  let env: RootDatabase;
  try {
    env = open({ path: storePath, ...CHAIN_ENV_OPTIONS });
  } catch (error) {
    throw new ArchiveError('ERR_ARCHIVE_CONTENT', `The archived ${STORE_ENTRY} is not an LMDB store: ${(error as Error).message}`, {
      cause: error,
    });
  }
  try {
    const chainStore = new ChainStore(env);
    let tip: BlockHeader;
    try {
      tip = verifyStoredChain(chainStore);
    } catch (error) {
      throw new DataDirImportError('ERR_IMPORT_CHAIN', `The archived chain is damaged: ${(error as Error).message}`, error);
    }
    checkGenesisFile(
      chainStore,
      genesisFiles.target,
      (message) => new DataDirImportError('ERR_IMPORT_GENESIS', `${message} Refusing another chain.`),
    );
    checkGenesisFile(chainStore, genesisFiles.archived, (message) => new ArchiveError('ERR_ARCHIVE_CONTENT', message));
    let root: Buffer;
    try {
      root = new StateDb(env).root();
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      throw new DataDirImportError('ERR_IMPORT_STATE', `The archived state is damaged: ${error.message}`, error);
    }
    if (!root.equals(tip.stateRoot)) {
      throw new DataDirImportError(
        'ERR_IMPORT_STATE',
        `The archived state has root ${root.toString('hex')}, the tip (height ${tip.height}) has stateRoot ${tip.stateRoot.toString('hex')}.`,
      );
    }
    return tipOf(tip);
  } finally {
    await env.close();
  }
}

/**
 * Keeps the generator store of the store being replaced (a validator's keys, and the heights it
 * signed, which keep it from signing a contradicting header): the archive has none.
 */
async function carryGeneratorStore(from: string, to: string): Promise<void> {
  const previous = open({ path: from, ...CHAIN_ENV_OPTIONS, readOnly: true });
  try {
    // Read-only, a database that was never created opens as undefined: nothing to keep then.
    const source = previous.openDB<Buffer, Buffer>(GENERATOR_DB_NAME, BINARY_DB) as Database<Buffer, Buffer> | undefined;
    if (source === undefined) return;
    const next = open({ path: to, ...CHAIN_ENV_OPTIONS });
    try {
      const target = next.openDB<Buffer, Buffer>(GENERATOR_DB_NAME, BINARY_DB);
      next.transactionSync(() => {
        for (const { key, value } of source.getRange()) target.putSync(key, value);
      });
    } finally {
      await next.close();
    }
  } finally {
    await previous.close();
  }
}

export interface ImportResult extends ArchivedTip {
  /** Whether a chain store was replaced (--force). */
  readonly replaced: boolean;
}

/**
 * Imports the archive `archive` into `dataPath`. Refuses a data directory with a chain store
 * unless `force`, and one a running node holds. The archive is extracted into a work directory
 * inside `dataPath` (so the final move is a rename on one filesystem) and verified there; only
 * then does the new store replace the old one, in one rename, while a second name of the old one
 * in the work directory keeps it until the work directory is removed. A failure at any step before
 * that leaves the data directory as it was (less the work directory, removed).
 * The config and genesis block of the archive are installed when the data directory has none.
 */
export async function importDataDirArchive(archive: string, dataPath: string, force: boolean): Promise<ImportResult> {
  const storePath = chainEnvPath(dataPath);
  const replaced = existsSync(storePath);
  if (replaced && !force) {
    throw new DataDirImportError('ERR_IMPORT_TARGET_EXISTS', `There is already a chain store at ${storePath}. Use --force to replace it.`);
  }
  if (!existsSync(archive)) throw new NotFoundError(`No archive at ${archive}.`);
  const lock = DataDirLock.acquire(dataPath);
  // Work directories of an import that was killed: only copies, never the data directory's store.
  for (const name of readdirSync(dataPath))
    if (name.startsWith(WORK_PREFIX)) rmSync(join(dataPath, name), { recursive: true, force: true });
  const work = mkdtempSync(join(dataPath, WORK_PREFIX));
  try {
    await extractTarGz(archive, work, { links: 'refuse', admit: admitOnlyDataDirEntries(archive) });
    const extracted = join(work, STORE_ENTRY);
    if (!existsSync(extracted))
      throw new ArchiveError('ERR_ARCHIVE_CONTENT', `${archive} holds no ${STORE_ENTRY}: it is not a Basalt data directory archive.`);
    const target = dataDirConfigPaths(dataPath);
    const tip = await verifyExtractedStore(extracted, { target: target.genesisFile, archived: join(work, GENESIS_ENTRY) });

    if (replaced) {
      await carryGeneratorStore(storePath, extracted);
      // The old store keeps a second name in the work directory until the new one has its place.
      linkSync(storePath, join(work, 'replaced.lmdb'));
    }
    // One rename replaces the file: at every moment the data directory holds the old store or the new one.
    renameSync(extracted, storePath);
    // The old environment's reader table; no process has it open (the data directory lock says so).
    rmSync(`${storePath}-lock`, { force: true });
    if (!existsSync(target.configFile) && existsSync(join(work, CONFIG_ENTRY))) {
      mkdirSync(target.dir, { recursive: true, mode: 0o700 });
      if (existsSync(join(work, GENESIS_ENTRY)) && !existsSync(target.genesisFile))
        renameSync(join(work, GENESIS_ENTRY), target.genesisFile);
      // The config last: a data directory with a config but no genesis block would not start.
      renameSync(join(work, CONFIG_ENTRY), target.configFile);
    }
    return { ...tip, replaced };
  } finally {
    rmSync(work, { recursive: true, force: true });
    lock.release();
  }
}
