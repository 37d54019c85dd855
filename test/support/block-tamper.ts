/**
 * Helpers for the negative-path tests of block processing: blocks that are valid except for ONE
 * chosen defect, signed transactions from the dev chain's funded accounts, and a snapshot of
 * everything a node stores, to prove that a refused block left no trace.
 *
 * A tampered header is re-signed with the generator key it claims, so that the check under test
 * (a root, a slot, a BFT property, ...) refuses it and not the header signature.
 */
import { createHash } from 'node:crypto';
import type { Database, RootDatabase } from 'lmdb';
import type { BlockAsset } from '../../src/chain/block-assets.js';
import { BlockAssets } from '../../src/chain/block-assets.js';
import type { BlockHeaderProps } from '../../src/chain/block-header.js';
import { Block } from '../../src/chain/block.js';
import { encodeEvent } from '../../src/chain/event.js';
import { computeMinFee } from '../../src/chain/min-fee.js';
import { Transaction } from '../../src/chain/transaction.js';
import { codec } from '../../src/codec/index.js';
import { decodeLisk32, MESSAGE_TAG_BLOCK_HEADER, MESSAGE_TAG_TRANSACTION, signData } from '../../src/crypto/index.js';
import { merkleRoot } from '../../src/merkle/index.js';
import { transferParamsSchema } from '../../src/modules/token/schemas.js';
import type { OpenChain } from '../../src/node.js';
import type { StateReader } from '../../src/state/state-view.js';
import { loadJsonFixture } from './fixtures.js';

// ---------------------------------------------------------------------------------------------
// Tampering with blocks

/** Whoever signs a tampered header: the generator it names (or, on purpose, someone else). */
export interface HeaderSigner {
  /** 64 bytes: Ed25519 seed ‖ public key. */
  readonly generatorPrivateKey: Buffer;
}

/**
 * `block` with header fields replaced and the header signed again by `signer` (LSK_BH_ over the
 * signing bytes). Transactions and assets are kept as they are.
 */
export function tamperHeader(block: Block, changes: Partial<BlockHeaderProps>, signer: HeaderSigner, chainID: Buffer): Block {
  const unsigned = block.header.with({ ...changes, signature: Buffer.alloc(64) });
  const signature = signData(MESSAGE_TAG_BLOCK_HEADER, chainID, unsigned.signingBytes(), signer.generatorPrivateKey);
  return new Block(unsigned.with({ signature }), block.transactions, block.assets);
}

/** `block` with other transactions, a transactionRoot that matches them, and a fresh signature. */
export function withTransactions(block: Block, transactions: readonly Transaction[], signer: HeaderSigner, chainID: Buffer): Block {
  const transactionRoot = merkleRoot(transactions.map((tx) => tx.id));
  const resigned = tamperHeader(block, { transactionRoot }, signer, chainID);
  return new Block(resigned.header, transactions, block.assets);
}

/** `block` with other assets, an assetRoot that matches them, and a fresh signature. */
export function withAssets(block: Block, assets: readonly BlockAsset[], signer: HeaderSigner, chainID: Buffer): Block {
  const replaced = new BlockAssets(assets);
  const resigned = tamperHeader(block, { assetRoot: replaced.root() }, signer, chainID);
  return new Block(resigned.header, block.transactions, replaced);
}

/** A copy of `bytes` with the bits of one byte inverted. */
export function flipByte(bytes: Buffer, index = 0): Buffer {
  const copy = Buffer.from(bytes);
  copy[index] = (copy[index] as number) ^ 0xff;
  return copy;
}

// ---------------------------------------------------------------------------------------------
// What the node stores

/** Everything observable about a node's store; two equal snapshots mean nothing changed. */
export interface StoreSnapshot {
  readonly tipHeight: number;
  readonly tipId: string;
  readonly finalizedHeight: number;
  readonly stateRoot: string;
  /** SHA-256 over every module-state key/value (the stateRoot's data), and their count. */
  readonly moduleState: { readonly entries: number; readonly digest: string };
  /** SHA-256 over the engine state (BFT votes and parameters), and its entry count. */
  readonly engineState: { readonly entries: number; readonly digest: string };
  readonly bftHeights: { readonly maxHeightPrevoted: number; readonly maxHeightPrecommitted: number; readonly maxHeightCertified: number };
  /** SHA-256 over the encoded events stored for the tip block. */
  readonly tipEvents: { readonly count: number; readonly digest: string };
  /** Per named LMDB database of the environment: entry count and SHA-256 over all entries. */
  readonly databases: Readonly<Record<string, { readonly entries: number; readonly digest: string }>>;
}

/** Keys are at most a few dozen bytes; this bound is above every state key. */
const KEY_SPACE_END = Buffer.alloc(256, 0xff);

function digestEntries(entries: Iterable<{ key: Buffer; value: Buffer }>): { entries: number; digest: string } {
  const hash = createHash('sha256');
  let count = 0;
  for (const { key, value } of entries) {
    // Length prefixes keep (key, value) boundaries unambiguous.
    const lengths = Buffer.alloc(8);
    lengths.writeUInt32BE(key.length, 0);
    lengths.writeUInt32BE(value.length, 4);
    hash.update(lengths).update(key).update(value);
    count += 1;
  }
  return { entries: count, digest: hash.digest('hex') };
}

function readerDigest(reader: StateReader): { entries: number; digest: string } {
  return digestEntries(reader.iterate({ gte: Buffer.alloc(0), lte: KEY_SPACE_END }));
}

/** Every named database of the environment (LMDB lists them as the keys of its main database). */
function databaseDigests(env: RootDatabase): Record<string, { entries: number; digest: string }> {
  const result: Record<string, { entries: number; digest: string }> = {};
  for (const name of env.getKeys()) {
    const db: Database<Buffer, Buffer> = env.openDB<Buffer, Buffer>(String(name), { keyEncoding: 'binary', encoding: 'binary' });
    result[String(name)] = digestEntries(db.getRange({}) as Iterable<{ key: Buffer; value: Buffer }>);
  }
  return result;
}

/** A snapshot of `chain`'s whole store (see StoreSnapshot). */
export function snapshotStore(chain: OpenChain): StoreSnapshot {
  const tipHeight = chain.chainStore.tipHeight();
  const tip = chain.chainStore.getHeaderByHeight(tipHeight);
  if (!tip) throw new Error(`The tip header ${tipHeight} is missing.`);
  const events = chain.chainStore.getEvents(tipHeight) ?? [];
  const eventHash = createHash('sha256');
  for (const event of events) eventHash.update(encodeEvent(event));
  return {
    tipHeight,
    tipId: tip.id.toString('hex'),
    finalizedHeight: chain.chainStore.finalizedHeight(),
    stateRoot: chain.stateDb.root().toString('hex'),
    moduleState: readerDigest(chain.stateDb.moduleReader),
    engineState: readerDigest(chain.stateDb.engineReader),
    bftHeights: chain.bft.getHeights(chain.stateDb.engineReader),
    tipEvents: { count: events.length, digest: eventHash.digest('hex') },
    databases: databaseDigests(chain.env),
  };
}

// ---------------------------------------------------------------------------------------------
// Transactions from the dev chain's accounts

export interface DevAccount {
  readonly address: Buffer;
  readonly publicKey: Buffer;
  /** 64 bytes: Ed25519 seed ‖ public key. */
  readonly privateKey: Buffer;
}

/**
 * The account keys of the 103 dev validators (examples/pos-mainchain dev-validators.json): the
 * accounts of test/fixtures/chains/dev's validators, funded at genesis. Public test keys.
 */
export function devValidatorAccounts(): DevAccount[] {
  const { keys } = loadJsonFixture<{ keys: { address: string; publicKey: string; privateKey: string }[] }>(
    'genesis/pos-mainchain-default/dev-validators.json',
  );
  return keys.map((key) => ({
    address: decodeLisk32(key.address),
    publicKey: Buffer.from(key.publicKey, 'hex'),
    privateKey: Buffer.from(key.privateKey, 'hex'),
  }));
}

export interface UnsignedFields {
  readonly module: string;
  readonly command: string;
  readonly nonce: bigint;
  readonly senderPublicKey: Buffer;
  readonly params: Buffer;
  /** Default: the exact minimum fee (1000 beddows per byte) for the signature layout below. */
  readonly fee?: bigint;
}

/**
 * A transaction signed under LSK_TX_ by each private key of `signers` in order; `undefined`
 * leaves an empty signature (an optional multisignature member who did not sign).
 */
export function signTransaction(fields: UnsignedFields, signers: readonly (Buffer | undefined)[], chainID: Buffer): Transaction {
  const present = signers.filter((signer) => signer !== undefined).length;
  const fee = fields.fee ?? computeMinFee(fields, { numberOfSignatures: present, numberOfEmptySignatures: signers.length - present });
  const unsigned = new Transaction({ ...fields, fee, signatures: [] });
  const signingBytes = unsigned.signingBytes();
  return unsigned.withSignatures(
    signers.map((signer) => (signer === undefined ? Buffer.alloc(0) : signData(MESSAGE_TAG_TRANSACTION, chainID, signingBytes, signer))),
  );
}

/** Encoded `token:transfer` params. */
export function transferParams(tokenID: Buffer, recipient: Buffer, amount: bigint, data = ''): Buffer {
  return codec.encode(transferParamsSchema, { tokenID, amount, recipientAddress: recipient, data });
}
