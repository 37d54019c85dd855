/**
 * Script: regenerates config/devnet/ from devnet-spec.ts and config/devnet/config.json, and
 * config/devnet-sidechain/ from sidechain-devnet.ts and its config.json, and prints each genesis
 * block ID. Run `node --import tsx src/genesis/devnet/regenerate-devnet.ts`.
 */
import { Block } from '../../chain/block.js';
import { PRESETS_DIR } from '../../config/presets.js';
import { SIDECHAIN_DEVNET_NETWORK, writeSidechainDevnetFiles } from './sidechain-devnet.js';
import { type DevnetFiles, writeDevnetFiles } from './write-devnet-files.js';

const report = (dir: string, files: DevnetFiles): void => {
  const { header } = Block.fromBytes(files.get('genesis_block.blob') as Buffer);
  process.stdout.write(
    `${JSON.stringify({ dir, id: header.id.toString('hex'), stateRoot: header.stateRoot.toString('hex'), files: [...files.keys()] })}\n`,
  );
};

const mainchainDir = `${PRESETS_DIR}devnet`;
report(mainchainDir, await writeDevnetFiles(mainchainDir));
const sidechainDir = `${PRESETS_DIR}${SIDECHAIN_DEVNET_NETWORK}`;
report(sidechainDir, await writeSidechainDevnetFiles(sidechainDir));
