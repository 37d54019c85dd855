/**
 * A synthetic Lisk Core 3 chain for the legacy-chain tests: v3 headers and transactions encoded
 * with the v3 schemas, signed with real Ed25519 keys (Lisk Core 3 signs the network identifier
 * followed by the header or transaction without its signatures), IDs and transaction roots as v3
 * computes them. Deterministic: the same options give the same bytes.
 */
import { codec } from '../../src/codec/index.js';
import { keyPairFromSeed, sha256, signDigest } from '../../src/crypto/index.js';
import {
  legacyBlockHeaderSchema,
  legacyBlockId,
  legacyTransactionId,
  legacyTransactionRoot,
  legacyTransactionSchema,
  type V3BlockSource,
} from '../../src/legacy-chain/index.js';

const NETWORK_IDENTIFIER = sha256(Buffer.from('basalt legacy test network'));
const generator = keyPairFromSeed(sha256(Buffer.from('legacy generator')));
const sender = keyPairFromSeed(sha256(Buffer.from('legacy sender')));

export const V3_GENERATOR_PUBLIC_KEY = generator.publicKey;
export const V3_SENDER_PUBLIC_KEY = sender.publicKey;

/** A v3 token transfer (module 2, asset 0) with nonce `nonce`, signed by the test sender. */
export function v3Transfer(nonce: bigint): Buffer {
  const unsigned = {
    moduleID: 2,
    assetID: 0,
    nonce,
    fee: 10_000_000n,
    senderPublicKey: sender.publicKey,
    asset: Buffer.concat([Buffer.from([0x08]), Buffer.from([Number(nonce % 100n) + 1])]),
    signatures: [] as Buffer[],
  };
  const signingBytes = codec.encode(legacyTransactionSchema, unsigned);
  const signature = signDigest(Buffer.concat([NETWORK_IDENTIFIER, signingBytes]), sender.privateKey);
  return codec.encode(legacyTransactionSchema, { ...unsigned, signatures: [signature] });
}

export interface V3ChainOptions {
  /** Height of the first block (a v3 genesis block when it is the chain's first). */
  readonly startHeight?: number;
  readonly length: number;
  /** Transactions in the block at `height` (none by default). */
  readonly transactionsAt?: (height: number) => number;
}

/** Encodes a v3 header and signs it; `fields` override the computed ones (to build bad blocks). */
export function v3Header(fields: {
  readonly height: number;
  readonly previousBlockID: Buffer;
  readonly transactionRoot: Buffer;
  readonly timestamp?: number;
  readonly genesis?: boolean;
}): Buffer {
  const genesis = fields.genesis === true;
  const unsigned = {
    version: genesis ? 0 : 2,
    timestamp: fields.timestamp ?? 1_600_000_000 + fields.height * 10,
    height: fields.height,
    previousBlockID: fields.previousBlockID,
    transactionRoot: fields.transactionRoot,
    generatorPublicKey: genesis ? Buffer.alloc(0) : generator.publicKey,
    reward: genesis ? 0n : 500_000_000n,
    asset: genesis ? Buffer.from('0a00', 'hex') : Buffer.from([0x08, fields.height % 100, 0x10, 0x00, 0x1a, 0x00]),
    signature: Buffer.alloc(0),
  };
  if (genesis) return codec.encode(legacyBlockHeaderSchema, unsigned);
  const signingBytes = codec.encode(legacyBlockHeaderSchema, unsigned);
  const signature = signDigest(Buffer.concat([NETWORK_IDENTIFIER, signingBytes]), generator.privateKey);
  return codec.encode(legacyBlockHeaderSchema, { ...unsigned, signature });
}

/** The chain the legacy import's kill test imports in a child process and then resumes. */
export const KILL_TEST_CHAIN: V3ChainOptions = { length: 2000, transactionsAt: (height) => height % 3 };

/** A linked v3 chain; its first block is a genesis-style block (empty previousBlockID). */
export function buildV3Chain(options: V3ChainOptions): V3BlockSource[] {
  const start = options.startHeight ?? 0;
  const blocks: V3BlockSource[] = [];
  let nonce = 0n;
  let previousBlockID: Buffer = Buffer.alloc(0);
  for (let height = start; height < start + options.length; height += 1) {
    const count = height === start ? 0 : (options.transactionsAt?.(height) ?? 0);
    const transactions = Array.from({ length: count }, () => {
      nonce += 1n;
      return v3Transfer(nonce);
    });
    const header = v3Header({
      height,
      previousBlockID,
      transactionRoot: legacyTransactionRoot(transactions.map((tx) => legacyTransactionId(tx))),
      genesis: height === start,
    });
    const id = legacyBlockId(header);
    blocks.push({ id, height, header, transactions });
    previousBlockID = id;
  }
  return blocks;
}
