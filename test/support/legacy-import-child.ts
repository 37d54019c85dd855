/**
 * Child process for the legacy import's kill test: imports a synthetic v3 chain into the LMDB
 * environment at argv[2] in small batches, slowly, printing `committed <height>` after each
 * batch, until the parent kills it.
 */
import { open } from 'lmdb';
import { importLegacyBlocks, legacyBracket, LegacyChainStore, type V3BlockSource } from '../../src/legacy-chain/index.js';
import { buildV3Chain, KILL_TEST_CHAIN } from './v3-legacy-chain.js';

const [, , envPath] = process.argv;
if (envPath === undefined) throw new Error('usage: legacy-import-child.ts <LMDB path>');
const chain = buildV3Chain(KILL_TEST_CHAIN);
const top = chain.at(-1) as V3BlockSource;
const store = new LegacyChainStore(open({ path: envPath, maxDbs: 8 }));
async function* slowly(): AsyncGenerator<V3BlockSource> {
  for (const block of chain) {
    if (block.height % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 2));
    yield block;
  }
}
await importLegacyBlocks(store, slowly(), legacyBracket(top, 0), {
  batchSize: 25,
  onProgress: ({ height }) => process.stdout.write(`committed ${height}\n`),
});
process.stdout.write('done\n');
