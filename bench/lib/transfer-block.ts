/**
 * A full block of token transfers, built and signed like a generator would: distinct senders,
 * real Ed25519 signatures under LSK_TX_, a signed header with correct transaction and asset
 * roots. Deterministic (keys come from fixed seeds), so every run measures the same bytes.
 *
 * "Full" means as many transfers as fit in `maxTransactionsSize` (15 KiB on the dev chain and on
 * Lisk mainnet): about 90 transfers, the largest valid block of this kind.
 */
import { BlockAssets } from '../../src/chain/block-assets.js';
import { BLOCK_VERSION, BlockHeader } from '../../src/chain/block-header.js';
import { Block } from '../../src/chain/block.js';
import { Transaction } from '../../src/chain/transaction.js';
import { codec } from '../../src/codec/index.js';
import {
  MESSAGE_TAG_BLOCK_HEADER,
  MESSAGE_TAG_TRANSACTION,
  addressFromPublicKey,
  keyPairFromSeed,
  sha256,
  signData,
  type Ed25519KeyPair,
} from '../../src/crypto/index.js';
import { merkleRoot } from '../../src/merkle/index.js';
import { transferParamsSchema, type TransferParams } from '../../src/modules/token/schemas.js';

export interface TransferBlockOptions {
  readonly chainID: Buffer;
  /** Token of the transfers, e.g. the chain's native token `chainID ‖ 00000000`. */
  readonly tokenID: Buffer;
  /** Upper bound of the summed encoded transaction sizes. */
  readonly maxTransactionsSize: number;
  /** Stop earlier than the size limit (default: no count limit). */
  readonly maxTransactions?: number;
  readonly height?: number;
}

/** A deterministic key pair for benchmark account `label`. */
export function benchKeyPair(label: string): Ed25519KeyPair {
  return keyPairFromSeed(sha256(Buffer.from(`basalt-bench:${label}`, 'utf8')));
}

/** A signed `token:transfer` of `amount` from `sender` to `recipientAddress`. */
export function signedTransfer(
  sender: Ed25519KeyPair,
  nonce: bigint,
  recipientAddress: Buffer,
  amount: bigint,
  options: Pick<TransferBlockOptions, 'chainID' | 'tokenID'>,
): Transaction {
  const params: TransferParams = { tokenID: options.tokenID, amount, recipientAddress, data: '' };
  const unsigned = new Transaction({
    module: 'token',
    command: 'transfer',
    nonce,
    fee: 10_000_000n,
    senderPublicKey: sender.publicKey,
    params: codec.encode(transferParamsSchema, params),
    signatures: [],
  });
  const signature = signData(MESSAGE_TAG_TRANSACTION, options.chainID, unsigned.signingBytes(), sender.privateKey);
  return unsigned.withSignatures([signature]);
}

/** The random module's seed-reveal asset, encoded ({seedReveal: 16 bytes}). */
function seedRevealAsset(height: number): Buffer {
  const seedReveal = sha256(Buffer.from(`basalt-bench:seed:${height}`)).subarray(0, 16);
  return Buffer.concat([Buffer.from([0x0a, seedReveal.length]), seedReveal]);
}

/** Builds and signs a full transfer block (see the file comment). */
export function buildTransferBlock(options: TransferBlockOptions): Block {
  const height = options.height ?? 1000;
  const transactions: Transaction[] = [];
  let size = 0;
  for (let i = 0; transactions.length < (options.maxTransactions ?? Infinity); i++) {
    const sender = benchKeyPair(`sender-${i}`);
    const recipient = addressFromPublicKey(benchKeyPair(`recipient-${i}`).publicKey);
    const tx = signedTransfer(sender, 0n, recipient, 100_000_000n + BigInt(i), options);
    if (size + tx.size > options.maxTransactionsSize) break;
    size += tx.size;
    transactions.push(tx);
  }

  const generator = benchKeyPair('generator');
  const assets = new BlockAssets([{ module: 'random', data: seedRevealAsset(height) }]);
  const unsignedHeader = new BlockHeader({
    version: BLOCK_VERSION,
    timestamp: 1_700_000_000 + height * 10,
    height,
    previousBlockID: sha256(Buffer.from(`basalt-bench:block:${height - 1}`)),
    generatorAddress: addressFromPublicKey(generator.publicKey),
    transactionRoot: merkleRoot(transactions.map((tx) => tx.id)),
    assetRoot: assets.root(),
    eventRoot: sha256(Buffer.from('basalt-bench:eventRoot')),
    stateRoot: sha256(Buffer.from('basalt-bench:stateRoot')),
    maxHeightPrevoted: height - 2,
    maxHeightGenerated: height - 103,
    impliesMaxPrevotes: true,
    validatorsHash: sha256(Buffer.from('basalt-bench:validatorsHash')),
    aggregateCommit: { height: 0, aggregationBits: Buffer.alloc(0), certificateSignature: Buffer.alloc(0) },
    signature: Buffer.alloc(0),
  });
  const signature = signData(MESSAGE_TAG_BLOCK_HEADER, options.chainID, unsignedHeader.signingBytes(), generator.privateKey);
  return new Block(unsignedHeader.with({ signature }), transactions, assets);
}
