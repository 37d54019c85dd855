/** The dev chain fixture (test/fixtures/chains/dev): real blocks produced by lisk-sdk 6.1. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const DEV_CHAIN_DIR = fileURLToPath(new URL('../../test/fixtures/chains/dev/', import.meta.url));
export const DEV_BLOCKS_FILE = `${DEV_CHAIN_DIR}blocks.ndjson`;
export const DEV_GENESIS_FILE = `${DEV_CHAIN_DIR}genesis_block.blob`;
export const DEV_CONFIG_FILE = `${DEV_CHAIN_DIR}config.json`;

export interface DevBlock {
  readonly height: number;
  readonly bytes: Buffer;
  /** The block's JSON form as the fixture stores it (RPC shape), re-serialised. */
  readonly json: string;
  readonly transactionCount: number;
}

interface BlockLine {
  height: number;
  blockHex: string;
  blockJson: { transactions: unknown[] };
}

/** Every block of the dev chain, genesis (height 0) first. */
export function readDevBlocks(): DevBlock[] {
  return readFileSync(DEV_BLOCKS_FILE, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const parsed = JSON.parse(line) as BlockLine;
      return {
        height: parsed.height,
        bytes: Buffer.from(parsed.blockHex, 'hex'),
        json: JSON.stringify(parsed.blockJson),
        transactionCount: parsed.blockJson.transactions.length,
      };
    });
}

/** The largest block by encoded size among `blocks` (first one on a tie). */
export function largestBlock(blocks: readonly DevBlock[]): DevBlock {
  if (blocks.length === 0) throw new Error('No blocks.');
  return blocks.reduce((best, block) => (block.bytes.length > best.bytes.length ? block : best));
}
