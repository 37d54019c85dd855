import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { open } from 'lmdb';
import { ChainStore } from '../../chain/chain-store.js';
import { expandHome } from '../../config/config-paths.js';
import { InvalidParamsError, NotFoundError } from '../../errors.js';
import { EXIT_OK, type CliCommand, type CliIO } from '../command.js';
import { integerFlag, parseFlags } from '../support/args.js';
import { resolveDataPath } from '../support/data-path.js';

const HELP = `Write the blocks stored in a data directory to a file that blockchain:replay reads.

Usage: basalt blockchain:export [--output FILE] [--data-path DIR] [--from H] [--to H]

  -o, --output FILE    default ./blocks.ndjson; written under a temporary name, then renamed
  -d, --data-path DIR  the node's data path (default ~/.basalt/devnet)        [LISK_DATA_PATH]
      --from H         first height (default: the genesis block's height)
      --to H           last height (default: the stored tip)

One JSON line per block, heights ascending: {"height":N,"id":"…","blockHex":"…"} (the format of
fixtures/chains/*/blocks.ndjson). The genesis block is included by default: blockchain:replay
skips the heights its store already has but checks their IDs, so the first line tells at once
whether the replay uses the same genesis block. Use --from 1 to leave it out.

The data directory is only read: a running node may keep running (the export reads one
consistent snapshot and checks that every block links to the one before it). Ends with one JSON
line {"from":N,"to":N,"blocks":N,"output":"…"} on stdout.

Examples:
  basalt blockchain:export --data-path ~/.basalt/devnet --output ./devnet.ndjson
  basalt blockchain:replay ./devnet.ndjson --data-path /tmp/replayed \\
    --genesis ~/.basalt/devnet/config/genesis_block.blob --config ~/.basalt/devnet/config/config.json
`;

/** Lines are buffered and written in chunks of about this many characters. */
const CHUNK_CHARS = 1 << 20;

export const exportCommand: CliCommand = {
  name: 'blockchain:export',
  summary: 'Write the stored blocks to an ndjson file in the replay format',
  help: HELP,
  async run(argv: readonly string[], io: CliIO): Promise<number> {
    const { values } = parseFlags(argv, {
      output: { type: 'string', short: 'o' },
      'data-path': { type: 'string', short: 'd' },
      from: { type: 'string' },
      to: { type: 'string' },
    });
    const dataPath = resolveDataPath(values['data-path']);
    const output = resolve(expandHome(values.output ?? './blocks.ndjson'));
    const fromFlag = integerFlag('from', values.from, 0, 0xffff_ffff);
    const toFlag = integerFlag('to', values.to, 0, 0xffff_ffff);

    const storePath = join(dataPath, 'basalt.lmdb');
    if (!existsSync(storePath)) throw new NotFoundError(`No Basalt chain store in ${dataPath} (expected ${storePath}).`);
    // Read-only, with the options the node opens it with: the node may be running.
    const env = open({ path: storePath, readOnly: true, compression: false, maxDbs: 32, mapSize: 2 ** 34 });
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

/**
 * Writes heights `from`..`to` to `output` via a temporary file, so a failed export never leaves a
 * file that looks complete. The loop is synchronous on purpose: LMDB keeps one read snapshot for
 * the whole event turn, so a node that reverts its tip meanwhile cannot mix two branches in.
 */
function writeBlocks(chainStore: ChainStore, from: number, to: number, output: string): void {
  mkdirSync(dirname(output), { recursive: true });
  const temporary = `${output}.${process.pid}.tmp`;
  try {
    const fd = openSync(temporary, 'w', 0o644);
    try {
      let chunk = '';
      let previousId: Buffer | undefined;
      for (let height = from; height <= to; height += 1) {
        const block = chainStore.getBlockByHeight(height);
        const { id, previousBlockID } = block.header;
        if (previousId !== undefined && !previousBlockID.equals(previousId)) {
          throw new Error(`Block ${height} does not link to block ${height - 1}: the chain changed during the export; run it again.`);
        }
        previousId = id;
        chunk += `${JSON.stringify({ height, id: id.toString('hex'), blockHex: block.bytes.toString('hex') })}\n`;
        if (chunk.length >= CHUNK_CHARS) {
          writeSync(fd, chunk);
          chunk = '';
        }
      }
      if (chunk.length > 0) writeSync(fd, chunk);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, output);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
