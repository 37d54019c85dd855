import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { open } from 'lmdb';
import { ChainStore } from '../../chain/chain-store.js';
import { CHAIN_ENV_OPTIONS, chainEnvPath } from '../../chain/lmdb-environment.js';
import { ChainLinkError, linkedBlocks } from '../../chain/stored-chain.js';
import { expandHome } from '../../config/config-paths.js';
import { InvalidParamsError, NotFoundError } from '../../errors.js';
import { EXIT_OK, UsageError, type CliCommand, type CliIO } from '../command.js';
import { integerFlag, parseFlags } from '../support/args.js';
import { exportDataDirArchive } from '../support/data-dir-archive.js';
import { resolveDataPath } from '../support/data-path.js';

const HELP = `Write the blocks stored in a data directory to a file that blockchain:replay reads, or the
whole data directory to a .tar.gz that blockchain:import reads.

Usage: basalt blockchain:export [--output FILE] [--data-path DIR] [--from H] [--to H]
       basalt blockchain:export --format tar.gz [--output FILE|DIR] [--data-path DIR]

  -o, --output FILE    default ./blocks.ndjson, or ./blockchain.tar.gz for --format tar.gz (a
                       directory there means DIR/blockchain.tar.gz, as in Lisk Core); written
                       under a temporary name, then renamed
  -d, --data-path DIR  the node's data path (default ~/.basalt/devnet)        [LISK_DATA_PATH]
      --format F       ndjson or tar.gz. Without it, an --output ending in .tar.gz or .tgz
                       means tar.gz, and anything else ndjson
      --from H         first height (default: the genesis block's height; ndjson only)
      --to H           last height (default: the stored tip; ndjson only)

ndjson: one JSON line per block, heights ascending: {"height":N,"id":"…","blockHex":"…"} (the
format of fixtures/chains/*/blocks.ndjson). The genesis block is included by default:
blockchain:replay skips the heights its store already has but checks their IDs, so the first line
tells at once whether the replay uses the same genesis block. Use --from 1 to leave it out.
Ends with one JSON line {"from":N,"to":N,"blocks":N,"output":"…"} on stdout.

tar.gz: the data directory's store (basalt.lmdb, compacted) and, when present, its
config/config.json and config/genesis_block.blob, for blockchain:import on another machine. The
generator store (validator keys, signed heights) and keys files are left out, as Lisk Core leaves
out its generator database. The store is copied twice (a snapshot, then its compacted copy) into
a work directory beside the output before it is archived: that directory's filesystem needs room
for both. Ends with one JSON line
{"format":"tar.gz","height":N,"id":"…","stateRoot":"…","bytes":N,"output":"…"} on stdout: the
tip the archive holds and the archive's size.

The data directory is only read: a running node may keep running (the export reads one
consistent snapshot; ndjson checks that every block links to the one before it).

Examples:
  basalt blockchain:export --data-path ~/.basalt/devnet --output ./devnet.ndjson
  basalt blockchain:replay ./devnet.ndjson --data-path /tmp/replayed \\
    --genesis ~/.basalt/devnet/config/genesis_block.blob --config ~/.basalt/devnet/config/config.json
  basalt blockchain:export --data-path ~/.basalt/devnet --output ./devnet.tar.gz
  basalt blockchain:import ./devnet.tar.gz --data-path /srv/basalt
`;

/** Lines are buffered and written in chunks of about this many characters. */
const CHUNK_CHARS = 1 << 20;

/** Lisk Core's archive name, used when --output is absent or a directory. */
const ARCHIVE_NAME = 'blockchain.tar.gz';

type ExportFormat = 'ndjson' | 'tar.gz';

/** --format when given; else the output's suffix: .tar.gz or .tgz for an archive, ndjson otherwise. */
function exportFormat(format: string | undefined, output: string | undefined): ExportFormat {
  if (format === 'ndjson' || format === 'tar.gz') return format;
  if (format !== undefined) throw new UsageError(`--format must be ndjson or tar.gz, got "${format}".`);
  return output !== undefined && /\.(?:tar\.gz|tgz)$/.test(output) ? 'tar.gz' : 'ndjson';
}

export const exportCommand: CliCommand = {
  name: 'blockchain:export',
  summary: 'Write the stored blocks to an ndjson file in the replay format, or the data directory to a .tar.gz',
  help: HELP,
  async run(argv: readonly string[], io: CliIO): Promise<number> {
    const { values } = parseFlags(argv, {
      output: { type: 'string', short: 'o' },
      'data-path': { type: 'string', short: 'd' },
      format: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
    });
    const dataPath = resolveDataPath(values['data-path']);
    const format = exportFormat(values.format, values.output);
    if (format === 'tar.gz') {
      if (values.from !== undefined || values.to !== undefined) throw new UsageError('--from and --to apply to the ndjson format only.');
      return exportArchive(dataPath, values.output, io);
    }
    const output = resolve(expandHome(values.output ?? './blocks.ndjson'));
    const fromFlag = integerFlag('from', values.from, 0, 0xffff_ffff);
    const toFlag = integerFlag('to', values.to, 0, 0xffff_ffff);

    const storePath = chainEnvPath(dataPath);
    if (!existsSync(storePath)) throw new NotFoundError(`No Basalt chain store in ${dataPath} (expected ${storePath}).`);
    // Read-only, with the options the node opens it with: the node may be running.
    const env = open({ path: storePath, ...CHAIN_ENV_OPTIONS, readOnly: true });
    try {
      const chainStore = new ChainStore(env);
      if (chainStore.isEmpty()) throw new NotFoundError(`The chain store in ${dataPath} holds no block.`);
      const genesisHeight = chainStore.genesisHeight();
      const tipHeight = chainStore.tipHeight();
      const from = fromFlag ?? genesisHeight;
      const to = toFlag ?? tipHeight;
      if (from < genesisHeight) throw new InvalidParamsError(`--from ${from} is below the genesis height ${genesisHeight}.`);
      if (to > tipHeight) throw new InvalidParamsError(`--to ${to} is above the stored tip ${tipHeight}.`);
      if (from > to) throw new InvalidParamsError(`--from ${from} is above --to ${to}.`);

      writeBlocks(chainStore, from, to, output);
      io.stdout.write(`${JSON.stringify({ from, to, blocks: to - from + 1, output })}\n`);
      return EXIT_OK;
    } finally {
      await env.close();
    }
  },
};

async function exportArchive(dataPath: string, outputFlag: string | undefined, io: CliIO): Promise<number> {
  const given = resolve(expandHome(outputFlag ?? `./${ARCHIVE_NAME}`));
  const output = existsSync(given) && statSync(given).isDirectory() ? join(given, ARCHIVE_NAME) : given;
  const { height, id, stateRoot, bytes } = await exportDataDirArchive(dataPath, output);
  io.stdout.write(`${JSON.stringify({ format: 'tar.gz', height, id, stateRoot, bytes, output })}\n`);
  return EXIT_OK;
}

/**
 * Writes heights `from`..`to` to `output` via a temporary file, so a failed export never leaves a
 * file that looks complete. The walk is synchronous (linkedBlocks says why).
 */
function writeBlocks(chainStore: ChainStore, from: number, to: number, output: string): void {
  mkdirSync(dirname(output), { recursive: true });
  const temporary = `${output}.${process.pid}.tmp`;
  try {
    const fd = openSync(temporary, 'w', 0o644);
    try {
      let chunk = '';
      for (const block of linkedBlocks(chainStore, from, to)) {
        const { height, id } = block.header;
        chunk += `${JSON.stringify({ height, id: id.toString('hex'), blockHex: block.bytes.toString('hex') })}\n`;
        if (chunk.length >= CHUNK_CHARS) {
          writeSync(fd, chunk);
          chunk = '';
        }
      }
      if (chunk.length > 0) writeSync(fd, chunk);
    } catch (error) {
      if (error instanceof ChainLinkError) throw new Error(`${error.message}: the chain changed during the export; run it again.`);
      throw error;
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, output);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
