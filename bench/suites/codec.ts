/**
 * Block codec: decode (bytes → Block with header, transactions, assets) and encode (Block
 * objects → bytes, nothing cached) of the largest dev-chain block, the largest dev-chain block
 * with transactions, and a full synthetic block of token transfers. JSON.parse / JSON.stringify
 * of the same block's JSON form are the reference points: what a JSON-based node would pay.
 */
import { BlockHeader } from '../../src/chain/block-header.js';
import { Block } from '../../src/chain/block.js';
import { Transaction } from '../../src/chain/transaction.js';
import { loadChainConfig } from '../../src/config/lisk-config.js';
import { DEV_CONFIG_FILE, largestBlock, readDevBlocks } from '../lib/dev-chain.js';
import type { Measurement } from '../lib/figure.js';
import { interleavedMsPerOp } from '../lib/measure.js';
import type { Suite } from '../lib/suite.js';
import { buildTransferBlock } from '../lib/transfer-block.js';

interface CodecCase {
  readonly label: string;
  readonly bytes: Buffer;
  readonly json: string;
}

function kilobytes(bytes: number): string {
  return `${(bytes / 1000).toFixed(1)} KB`;
}

/** A fresh copy of a decoded block: same values, no cached encodings, so `.bytes` re-encodes all. */
function uncachedCopy(block: Block): Block {
  return new Block(
    new BlockHeader(block.header.props()),
    block.transactions.map((tx) => new Transaction(tx)),
    block.assets,
  );
}

function codecCases(): CodecCase[] {
  const devBlocks = readDevBlocks();
  const largest = largestBlock(devBlocks);
  const largestWithTransactions = largestBlock(devBlocks.filter((b) => b.transactionCount > 0));
  const { genesis } = loadChainConfig(DEV_CONFIG_FILE);
  const transfers = buildTransferBlock({
    chainID: genesis.chainID,
    tokenID: Buffer.concat([genesis.chainID, Buffer.alloc(4)]),
    maxTransactionsSize: genesis.maxTransactionsSize,
  });
  const describe = (height: number, txCount: number, bytes: Buffer) =>
    height === 0 ? `genesis, ${kilobytes(bytes.length)}` : `#${height}, ${txCount} tx, ${kilobytes(bytes.length)}`;
  return [
    { label: `dev ${describe(largest.height, largest.transactionCount, largest.bytes)}`, bytes: largest.bytes, json: largest.json },
    {
      label: `dev ${describe(largestWithTransactions.height, largestWithTransactions.transactionCount, largestWithTransactions.bytes)}`,
      bytes: largestWithTransactions.bytes,
      json: largestWithTransactions.json,
    },
    {
      label: `${transfers.transactions.length} transfers, ${kilobytes(transfers.bytes.length)}`,
      bytes: transfers.bytes,
      json: JSON.stringify(transfers.toJSON()),
    },
  ];
}

async function measureCase(c: CodecCase): Promise<Measurement[]> {
  const decoded = Block.fromBytes(c.bytes);
  // A benchmark of a wrong encoder is worthless: check the round trip once before timing it.
  if (!uncachedCopy(decoded).bytes.equals(c.bytes)) throw new Error(`Codec round trip differs for ${c.label}.`);
  const parsed: unknown = JSON.parse(c.json);

  const names = {
    decode: `codec decode ${c.label}`,
    parse: `JSON.parse ${c.label}`,
    encode: `codec encode ${c.label}`,
    stringify: `JSON.stringify ${c.label}`,
  };
  const [decode = NaN, parse = NaN, encode = NaN, stringify = NaN] = await interleavedMsPerOp([
    { name: names.decode, fn: () => Block.fromBytes(c.bytes) },
    { name: names.parse, fn: () => JSON.parse(c.json) },
    { name: names.encode, fn: () => uncachedCopy(decoded).bytes },
    { name: names.stringify, fn: () => JSON.stringify(parsed) },
  ]);
  const micros = (ms: number) => ms * 1000;
  return [
    { name: names.decode, value: micros(decode), unit: 'µs/op', baseline: names.parse },
    { name: names.parse, value: micros(parse), unit: 'µs/op' },
    { name: names.encode, value: micros(encode), unit: 'µs/op', baseline: names.stringify },
    { name: names.stringify, value: micros(stringify), unit: 'µs/op' },
  ];
}

export const codecSuite: Suite = {
  name: 'codec',
  summary: 'block encode/decode vs JSON.stringify/JSON.parse of the same block',
  async run(progress) {
    const results: Measurement[] = [];
    for (const c of codecCases()) {
      progress(`codec: ${c.label}`);
      results.push(...(await measureCase(c)));
    }
    return results;
  },
};
