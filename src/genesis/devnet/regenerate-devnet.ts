/**
 * Script: regenerates config/devnet/ from devnet-spec.ts and config/devnet/config.json and
 * prints the genesis block ID. Run `node --import tsx src/genesis/devnet/regenerate-devnet.ts`.
 */
import { Block } from '../../chain/block.js';
import { PRESETS_DIR } from '../../config/presets.js';
import { writeDevnetFiles } from './write-devnet-files.js';

const dir = `${PRESETS_DIR}devnet`;
const files = await writeDevnetFiles(dir);
const { header } = Block.fromBytes(files.get('genesis_block.blob') as Buffer);
process.stdout.write(
  `${JSON.stringify({ dir, id: header.id.toString('hex'), stateRoot: header.stateRoot.toString('hex'), files: [...files.keys()] })}\n`,
);
