import { resolve } from 'node:path';
import { ArchiveError } from '../../archive/archive-error.js';
import { expandHome } from '../../config/config-paths.js';
import { DataDirLockedError } from '../../runtime/data-dir-lock.js';
import { EXIT_CHAIN_MISMATCH, EXIT_NODE_ERROR, EXIT_OK, EXIT_USAGE, UsageError, type CliCommand, type CliIO } from '../command.js';
import { parseFlags } from '../support/args.js';
import { DataDirImportError, importDataDirArchive } from '../support/data-dir-archive.js';
import { resolveDataPath } from '../support/data-path.js';

const HELP = `Import a data directory archive written by \`blockchain:export --format tar.gz\`.

Usage: basalt blockchain:import FILE [--data-path DIR] [--force]

  FILE                 the .tar.gz archive
  -d, --data-path DIR  the node's data path (default ~/.basalt/devnet)        [LISK_DATA_PATH]
  -f, --force          replace the chain store the data directory already has

The archive is checked before it is used: it is extracted into a work directory inside the data
directory, every block from the genesis block to the tip must be stored whole and link to its
parent, the state root recomputed from the archived state must be the tip's stateRoot, and the
genesis block must be the one of the data directory's config/genesis_block.blob when there is one.
Only then does the archived store take the place of the old one, which is removed last; the old
store's generator store (validator keys and signed heights) is kept. The archive's config and
genesis block are installed when the data directory has none. The node must be stopped.

Ends with one JSON line {"height":N,"id":"…","stateRoot":"…","dataPath":"…","replaced":B} on
stdout. Errors name a stable code in parentheses. Exit codes: 1 usage, or a chain store is there
and --force is absent; 2 an archive that cannot be read or holds something else (ERR_ARCHIVE_*), a
running node; 3 a chain that fails the checks (ERR_IMPORT_CHAIN, ERR_IMPORT_STATE,
ERR_IMPORT_GENESIS). In every failure the data directory is left as it was.

Examples:
  basalt blockchain:import ./blockchain.tar.gz
  basalt blockchain:import ./blockchain.tar.gz --data-path /srv/basalt
  basalt blockchain:import ./blockchain.tar.gz --data-path /srv/basalt --force
`;

function exitCodeOf(error: DataDirImportError | ArchiveError | DataDirLockedError): number {
  if (error.code === 'ERR_IMPORT_TARGET_EXISTS') return EXIT_USAGE;
  if (error instanceof DataDirImportError) return EXIT_CHAIN_MISMATCH;
  return EXIT_NODE_ERROR;
}

export const importCommand: CliCommand = {
  name: 'blockchain:import',
  summary: 'Replace the data directory store with one from a blockchain:export .tar.gz, after checking it',
  help: HELP,
  async run(argv: readonly string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseFlags(
      argv,
      { 'data-path': { type: 'string', short: 'd' }, force: { type: 'boolean', short: 'f' } },
      1,
    );
    const [file] = positionals;
    if (file === undefined) throw new UsageError('The archive to import is missing.');
    const dataPath = resolveDataPath(values['data-path']);
    try {
      const { height, id, stateRoot, replaced } = await importDataDirArchive(resolve(expandHome(file)), dataPath, values.force === true);
      io.stdout.write(`${JSON.stringify({ height, id, stateRoot, dataPath, replaced })}\n`);
      return EXIT_OK;
    } catch (error) {
      if (!(error instanceof DataDirImportError || error instanceof ArchiveError || error instanceof DataDirLockedError)) throw error;
      io.stderr.write(`Error: ${error.message} (${error.code})\n`);
      return exitCodeOf(error);
    }
  },
};
