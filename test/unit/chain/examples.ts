/**
 * The worked examples of docs/protocol/blocks-and-transactions.md as builders: the key (LIP 0066
 * test phrase 1 at m/44'/134'/0'), the token transfer and the header, so every chain unit test
 * starts from verified values.
 */
import { BlockAssets } from '../../../src/chain/block-assets.js';
import { BlockHeader, type BlockHeaderProps } from '../../../src/chain/block-header.js';
import { Block } from '../../../src/chain/block.js';
import { Transaction } from '../../../src/chain/transaction.js';
import { codec, type Schema } from '../../../src/codec/index.js';
import { EMPTY_HASH, MESSAGE_TAG_BLOCK_HEADER, MESSAGE_TAG_TRANSACTION, keyPairFromSeed, signData } from '../../../src/crypto/index.js';
import { merkleRoot } from '../../../src/merkle/index.js';

export const CHAIN_ID = Buffer.from('04000000', 'hex');

/** LIP 0066 vector: seed of "target cancel … patrol" at m/44'/134'/0'. */
export const KEY = keyPairFromSeed(Buffer.from('c465dfb15018d3aef0d94d411df048e240e87a3ec9cd6d422cea903bfc101f61', 'hex'));
export const ADDRESS = Buffer.from('ed629c34f72e276ba38be61b6f289f84627f2b81', 'hex');

/** Token transfer params (LIP 0051): tokenID bytes(8), amount uint64, recipient bytes(20), data string. */
export const transferParamsSchema: Schema = {
  $id: '/test/chain/transferParams',
  type: 'object',
  required: ['tokenID', 'amount', 'recipientAddress', 'data'],
  properties: {
    tokenID: { dataType: 'bytes', fieldNumber: 1, minLength: 8, maxLength: 8 },
    amount: { dataType: 'uint64', fieldNumber: 2 },
    recipientAddress: { dataType: 'bytes', fieldNumber: 3, format: 'lisk32' },
    data: { dataType: 'string', fieldNumber: 4, minLength: 0, maxLength: 64 },
  },
};

/** The example transfer, unsigned: 1 LSK to self, data "hi", nonce 0, fee 200000. */
export function unsignedTransfer(): Transaction {
  return new Transaction({
    module: 'token',
    command: 'transfer',
    nonce: 0n,
    fee: 200_000n,
    senderPublicKey: KEY.publicKey,
    params: codec.encode(transferParamsSchema, {
      tokenID: Buffer.from('0400000000000000', 'hex'),
      amount: 100_000_000n,
      recipientAddress: ADDRESS,
      data: 'hi',
    }),
    signatures: [],
  });
}

export function signedTransfer(): Transaction {
  const unsigned = unsignedTransfer();
  return unsigned.withSignatures([signData(MESSAGE_TAG_TRANSACTION, CHAIN_ID, unsigned.signingBytes(), KEY.privateKey)]);
}

/** The example header over one transaction (the example transfer), with an empty signature. */
export function unsignedHeaderProps(transactions: readonly Transaction[] = [signedTransfer()]): BlockHeaderProps {
  return {
    version: 2,
    timestamp: 1_700_000_010,
    height: 1,
    previousBlockID: Buffer.alloc(32, 1),
    generatorAddress: ADDRESS,
    transactionRoot: merkleRoot(transactions.map((tx) => tx.id)),
    assetRoot: EMPTY_HASH,
    eventRoot: EMPTY_HASH,
    stateRoot: Buffer.alloc(32, 2),
    maxHeightPrevoted: 0,
    maxHeightGenerated: 0,
    impliesMaxPrevotes: true,
    validatorsHash: Buffer.alloc(32, 3),
    aggregateCommit: { height: 0, aggregationBits: Buffer.alloc(0), certificateSignature: Buffer.alloc(0) },
    signature: Buffer.alloc(0),
  };
}

export function signHeader(header: BlockHeader): BlockHeader {
  const signature = signData(MESSAGE_TAG_BLOCK_HEADER, CHAIN_ID, header.signingBytes(), KEY.privateKey);
  return header.with({ signature });
}

/**
 * A valid non-genesis block: the given transactions and assets, with the header's roots computed
 * from them and the header signed.
 */
export function makeBlock(
  transactions: readonly Transaction[] = [signedTransfer()],
  assets: BlockAssets = new BlockAssets([{ module: 'random', data: Buffer.from(`0a10${'ab'.repeat(16)}`, 'hex') }]),
  overrides: Partial<BlockHeaderProps> = {},
): Block {
  const header = new BlockHeader({
    ...unsignedHeaderProps(transactions),
    assetRoot: assets.root(),
    ...overrides,
  });
  return new Block(signHeader(header), transactions, assets);
}
