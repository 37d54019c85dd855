import { resolve } from 'node:path';
import { expandHome } from '../../config/config-paths.js';
import type { LegacyBracket, LegacyImportResult } from '../../legacy-chain/index.js';
import { MigrationError } from '../../migration/migration-error.js';
import { DataDirLock } from '../../runtime/data-dir-lock.js';
import { EXIT_OK, UsageError, type CliCommand, type CliIO } from '../command.js';
import { ProgressReporter } from '../progress.js';
import { integerFlag, parseFlagsOnly } from '../support/args.js';

const HELP = `Import the Lisk Core 3 block history (the blocks up to the migration's snapshot height) into a
Basalt node's legacy chain store, so that the node serves it (legacy_* endpoints, P2P
getLegacyBlocksFromId). Lisk Core 4 reads a copy of the v3 database (legacy.db); Basalt keeps the
v3 blocks in its own store instead, each one checked (ID, links, transaction root) on the way in.

Usage: basalt legacy:import --v3-db PATH --snapshot-height H --data-path DIR [--start-height S]

  --v3-db PATH           the v3 blockchain.db (or the data/backup checkpoint of Lisk Core 3.1),
                         opened read-only; blocks above the snapshot height are ignored
  --snapshot-height H    the migration's snapshot height: the last v3 block
  --data-path DIR        the Basalt node's data path (default ~/.basalt/<network> of basalt start)
  --start-height S       the lowest v3 height to keep (default the lowest the database holds, the
                         v3 genesis block's)

The node must not run on DIR meanwhile (its data directory lock is taken). An interrupted import
resumes where it stopped when run again; an import already complete reads nothing. It ends with
the bracket to list under legacy.brackets in the node's config.json, which the node needs to
serve the blocks.

Example:
  basalt legacy:import --v3-db ~/.lisk/lisk-core-v3/data/backup --snapshot-height 23390991 \\
    --data-path ~/.basalt/mainnet
`;

const FLAGS = {
  'v3-db': { type: 'string' },
  'snapshot-height': { type: 'string' },
  'data-path': { type: 'string' },
  'start-height': { type: 'string' },
} as const;

export interface V3HistoryImport {
  /** The v3 database the blocks are read from. */
  readonly v3DbPath: string;
  readonly snapshotHeight: number;
  /** The Basalt node's data path. */
  readonly dataPath: string;
  /** The lowest height kept; the database's lowest when absent. */
  readonly startHeight?: number;
  /** Where the progress line goes. */
  readonly progressOut: CliIO['stderr'];
}

/**
 * Imports the v3 history of a migration into the legacy chain store of `dataPath`: the bracket from
 * the start height to the snapshot block. Holds the data directory's lock meanwhile, so a running
 * node refuses it. Resumes an interrupted import from the last block it stored. Any failure is
 * MIGRATION_LEGACY_IMPORT, the migration's step where lisk-migrator copies legacy.db.
 */
export async function importV3History(run: V3HistoryImport): Promise<{ bracket: LegacyBracket; result: LegacyImportResult }> {
  // The v3 reader pulls in the RocksDB binding: loaded only when an import runs.
  const [{ readV3Blocks, readV3History }, { importLegacyBlocks, legacyBracket, openLegacyChainStore }] = await Promise.all([
    import('../../migration/v3/v3-blocks.js'),
    import('../../legacy-chain/index.js'),
  ]);
  try {
    const history = await readV3History(run.v3DbPath, run.snapshotHeight);
    const bracket = legacyBracket(history.snapshotBlock, run.startHeight ?? history.firstHeight);
    const lock = DataDirLock.acquire(run.dataPath);
    try {
      const opened = openLegacyChainStore(run.dataPath);
      try {
        // Resuming: the source starts at the block the earlier run stopped at, which is checked again.
        const from = opened.store.importCursor(history.snapshotBlock.id)?.height ?? bracket.startHeight;
        const progress = new ProgressReporter(run.progressOut, 'blocks', 5000, 'imported');
        let reported = 0;
        const result = await importLegacyBlocks(opened.store, readV3Blocks(run.v3DbPath, from, bracket.snapshotHeight), bracket, {
          onProgress: ({ height, imported }) => {
            progress.tick(height, imported - reported);
            reported = imported;
          },
        });
        if (!result.alreadyComplete) progress.done();
        return { bracket, result };
      } finally {
        await opened.close();
      }
    } finally {
      lock.release();
    }
  } catch (error) {
    throw new MigrationError(
      'MIGRATION_LEGACY_IMPORT',
      `Cannot import the Lisk Core v3 history from ${run.v3DbPath} into ${run.dataPath}: ${(error as Error).message}`,
      undefined,
      { cause: error },
    );
  }
}

/** The command line that runs the same import. */
export function legacyImportCommandLine(v3DbPath: string, snapshotHeight: number, dataPath: string): string {
  return `basalt legacy:import --v3-db ${v3DbPath} --snapshot-height ${snapshotHeight} --data-path ${dataPath}`;
}

export const legacyImportCommand: CliCommand = {
  name: 'legacy:import',
  summary: 'Import the Lisk Core 3 block history of a migration into a data directory (legacy blocks)',
  help: HELP,
  async run(argv: readonly string[], io: CliIO): Promise<number> {
    const values = parseFlagsOnly(argv, FLAGS);
    for (const name of ['v3-db', 'snapshot-height', 'data-path'] as const) {
      if (values[name] === undefined) throw new UsageError(`Missing required flag --${name}.`);
    }
    const snapshotHeight = integerFlag('snapshot-height', values['snapshot-height'], 0, 0xffff_fffe) as number;
    const startHeight = integerFlag('start-height', values['start-height'], 0, snapshotHeight);
    const dataPath = resolve(expandHome(values['data-path'] as string));
    const v3DbPath = resolve(expandHome(values['v3-db'] as string));
    const { bracket, result } = await importV3History({ v3DbPath, snapshotHeight, dataPath, startHeight, progressOut: io.stderr });
    io.stdout.write(
      result.alreadyComplete
        ? `The legacy chain store of ${dataPath} already holds heights ${bracket.startHeight} to ${bracket.snapshotHeight}.\n`
        : `Imported ${result.imported} v3 blocks (${result.transactions} transactions${result.skipped > 0 ? `, ${result.skipped} already stored` : ''}) into ${dataPath}: heights ${bracket.startHeight} to ${bracket.snapshotHeight}.\n`,
    );
    io.stdout.write(`Add this bracket to legacy.brackets in the node's config.json:\n${JSON.stringify(bracket)}\n`);
    return EXIT_OK;
  },
};
