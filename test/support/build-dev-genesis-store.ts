/**
 * Child process of the global setup (dev-genesis-store.ts): executes the dev chain's genesis
 * block into `<store>.building`, then renames it to `<store>`, so that a test never sees a half
 * written store. On failure it writes the error to `<store>.failed` instead.
 *
 * Usage: node --import tsx test/support/build-dev-genesis-store.ts <store>
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { openChain } from '../../src/node.js';
import { devChainConfig, devGenesisBlock } from './dev-chain.js';
import { failureFile } from './dev-genesis-store.js';

const storePath = process.argv[2];
if (storePath === undefined) throw new Error('usage: build-dev-genesis-store.ts <store>');
const building = `${storePath}.building`;
try {
  rmSync(building, { recursive: true, force: true });
  const chain = await openChain({ dataPath: building, config: devChainConfig(), genesisBlock: devGenesisBlock() });
  await chain.close();
  renameSync(building, storePath);
} catch (error) {
  writeFileSync(failureFile(storePath), (error as Error).stack ?? String(error));
  process.exitCode = 1;
}
