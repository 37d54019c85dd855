import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Block } from '../../chain/block.js';
import { loadChainConfig } from '../../config/lisk-config.js';
import { DEFAULT_SIGNATURES_AHEAD } from '../../engine/block-executor.js';
import { InvalidBlockError } from '../../errors.js';
import { assembleNode } from '../../node.js';
import { EXIT_CHAIN_MISMATCH, EXIT_OK, UsageError, type CliCommand, type CliIO } from '../command.js';
import { ProgressReporter } from '../progress.js';
import { parseFlags } from '../support/args.js';

const HELP = `Replay a Lisk v6 chain from a file of blocks, validating and executing each block.

Usage: basalt blockchain:replay BLOCKS --genesis FILE --config FILE --data-path DIR

  BLOCKS           ndjson file, one block per line with field "blockHex" (and optionally
                   "height" and "id", which are checked), as fixtures/chains/*/blocks.ndjson
  --genesis FILE   the genesis block (binary, as genesis_block.blob)
  --config FILE    a Lisk-format config.json (genesis and module settings)
  --data-path DIR  where the LMDB store lives; an existing store continues from its tip

Ends with one JSON line {"height":N,"id":"…","stateRoot":"…"} on stdout and exit 0. At the first
block that disagrees with what Basalt computes it stops with exit 3 and names the height and the
field that differed; the store keeps every block before it.

Example:
  basalt blockchain:replay test/fixtures/chains/dev/blocks.ndjson \\
    --genesis test/fixtures/chains/dev/genesis_block.blob \\
    --config test/fixtures/chains/dev/config.json --data-path /tmp/basalt-dev
`;

const REPLAY_FLAGS = {
  genesis: { type: 'string' },
  config: { type: 'string' },
  'data-path': { type: 'string' },
} as const;

interface BlockLine {
  blockHex?: unknown;
  height?: unknown;
  id?: unknown;
}

export const replayCommand: CliCommand = {
  name: 'blockchain:replay',
  summary: 'Validate and apply a file of blocks (ndjson) onto a data directory',
  help: HELP,
  async run(argv: readonly string[], io: CliIO): Promise<number> {
    // Any number of positionals: the check below words the error for this command.
    const { values, positionals } = parseFlags(argv, REPLAY_FLAGS, Number.POSITIVE_INFINITY);
    const [blocksFile] = positionals;
    if (!blocksFile || positionals.length > 1) throw new UsageError('Expected exactly one BLOCKS file.');
    for (const [flag, value] of Object.entries({ genesis: values.genesis, config: values.config, 'data-path': values['data-path'] })) {
      if (!value) throw new UsageError(`--${flag} is required.`);
    }
    for (const file of [blocksFile, values.genesis as string, values.config as string]) {
      if (!existsSync(file)) throw new Error(`File not found: ${file}`);
    }

    const config = loadChainConfig(values.config as string);
    const genesisBlock = Block.fromBytes(readFileSync(values.genesis as string));
    // Replay is block processing at full speed: signatures go to the worker pool in batches.
    const node = await assembleNode({ dataPath: values['data-path'] as string, chainConfig: config, genesisBlock, workers: 'env' });
    const { chain } = node;
    try {
      const startHeight = chain.processor.tipHeader().height;
      const progress = new ProgressReporter(io.stderr, 'blocks');
      /** A line that disagrees with a block the store already has: the replay ends there. */
      let disagreement: { height: number; what: string } | undefined;
      /** The block last handed to the processor: an InvalidBlockError is always about it. */
      let applying = startHeight;
      const toApply = async function* (): AsyncGenerator<Block> {
        for await (const { block, upcoming } of readBlocksAhead(blocksFile, READ_AHEAD)) {
          const { height } = block.header;
          if (height <= startHeight) {
            const stored = chain.chainStore.getHeaderByHeight(height);
            if (stored && !stored.id.equals(block.header.id)) {
              disagreement = {
                height,
                what: `block ID: the store has ${stored.id.toString('hex')}, the file ${block.header.id.toString('hex')}`,
              };
              return;
            }
            continue;
          }
          // The next lines' signatures are verified while this block executes and commits.
          chain.processor.verifyAhead([block, ...upcoming]);
          applying = height;
          yield block;
        }
      };
      try {
        // Each block executes while the one before it is committed (ChainProcessor.processBlocks).
        await chain.processor.processBlocks(toApply(), (processed) => progress.tick(processed.block.header.height));
      } catch (error) {
        if (error instanceof InvalidBlockError) return mismatch(io, applying, `${error.reason}: ${error.message}`);
        throw error;
      }
      if (disagreement !== undefined) return mismatch(io, disagreement.height, disagreement.what);
      progress.done();
      const tip = chain.processor.tipHeader();
      io.stdout.write(`${JSON.stringify({ height: tip.height, id: tip.id.toString('hex'), stateRoot: tip.stateRoot.toString('hex') })}\n`);
      return EXIT_OK;
    } finally {
      await node.close();
    }
  },
};

function mismatch(io: CliIO, height: number, what: string): number {
  io.stderr.write(`\nMismatch at height ${height}: ${what}\n`);
  return EXIT_CHAIN_MISMATCH;
}

/**
 * Lines read ahead of the block being applied, for their signatures to be checked meanwhile: as
 * many as the executor verifies ahead at once; the rest of the file stays on disk.
 */
const READ_AHEAD = DEFAULT_SIGNATURES_AHEAD;

/**
 * The file's blocks in order, each with the blocks of the next lines already parsed (up to
 * `ahead`). A line that does not parse ends the look-ahead there, and its error is thrown only
 * when its turn comes, after every block before it was handed out, as reading line by line does.
 */
async function* readBlocksAhead(file: string, ahead: number): AsyncGenerator<{ block: Block; upcoming: Block[] }> {
  const window: (() => Block)[] = [];
  const parsed = (lineNumber: number, line: string): (() => Block) => {
    try {
      const block = parseBlockLine(line, lineNumber);
      return () => block;
    } catch (error) {
      return () => {
        throw error;
      };
    }
  };
  const handOut = (): { block: Block; upcoming: Block[] } => {
    const block = (window.shift() as () => Block)();
    const upcoming: Block[] = [];
    for (const next of window) {
      try {
        upcoming.push(next());
      } catch {
        break;
      }
    }
    return { block, upcoming };
  };
  for await (const { lineNumber, line } of readLines(file)) {
    window.push(parsed(lineNumber, line));
    if (window.length > ahead) yield handOut();
  }
  while (window.length > 0) yield handOut();
}

async function* readLines(file: string): AsyncGenerator<{ lineNumber: number; line: string }> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber += 1;
    if (line.trim() !== '') yield { lineNumber, line };
  }
}

function parseBlockLine(line: string, lineNumber: number): Block {
  let parsed: BlockLine;
  try {
    parsed = JSON.parse(line) as BlockLine;
  } catch {
    throw new Error(`Line ${lineNumber} of the blocks file is not JSON.`);
  }
  if (typeof parsed.blockHex !== 'string' || !/^([0-9a-f]{2})+$/i.test(parsed.blockHex)) {
    throw new Error(`Line ${lineNumber} of the blocks file has no valid "blockHex".`);
  }
  const block = Block.fromBytes(Buffer.from(parsed.blockHex, 'hex'));
  if (typeof parsed.height === 'number' && parsed.height !== block.header.height) {
    throw new Error(`Line ${lineNumber}: "height" ${parsed.height} does not match the block's height ${block.header.height}.`);
  }
  if (typeof parsed.id === 'string' && parsed.id !== block.header.id.toString('hex')) {
    throw new InvalidBlockError(
      'schema',
      `block ID ${block.header.id.toString('hex')} differs from the file's ${parsed.id}`,
      block.header.height,
    );
  }
  return block;
}
