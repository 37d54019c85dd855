/**
 * A real chain for the pool tests: the lisk-sdk 6.1 dev chain (test/fixtures/chains/dev) replayed
 * into a temporary LMDB store up to a chosen height, and real token transfers signed with the
 * dev validators' account keys (genesis-funded with 10,000 LSK each).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Block } from '../../../src/chain/block.js';
import { computeMinFee } from '../../../src/chain/min-fee.js';
import { Transaction } from '../../../src/chain/transaction.js';
import { codec } from '../../../src/codec/index.js';
import type { ChainConfig } from '../../../src/config/lisk-config.js';
import { decodeLisk32, MESSAGE_TAG_TRANSACTION, signData } from '../../../src/crypto/index.js';
import {
  StateMachinePoolVerifier,
  tipOf,
  TransactionPool,
  type RemovalReason,
  type TransactionPoolConfig,
  type TransactionPoolListener,
} from '../../../src/engine/txpool/index.js';
import { transferParamsSchema } from '../../../src/modules/token/schemas.js';
import { createChainForger, openChain, type OpenChain } from '../../../src/node.js';
import type { ProcessableTransactions } from '../../../src/engine/txpool/transaction-pool.js';
import { devValidatorKeypairs } from '../../support/dev-keys.js';
import { devBlockLines, devChainConfig, devGenesisBlock } from '../../support/dev-chain.js';
import { seedDevGenesis } from '../../support/dev-genesis-store.js';
import { loadJsonFixture } from '../../support/fixtures.js';
import { adoptGeneratorInfoOfChain } from '../../support/generator-info.js';

export const TOKEN_ID = Buffer.from('0400000000000000', 'hex');
export const MIN_FEE_PER_BYTE = 1000;

export interface DevAccount {
  readonly lisk32: string;
  readonly address: Buffer;
  readonly keyPath: string;
  readonly publicKey: Buffer;
  readonly privateKey: Buffer;
}

/** The account keys of the 103 dev validators (examples/pos-mainchain dev-validators.json). */
export function devAccounts(): DevAccount[] {
  const { keys } = loadJsonFixture<{ keys: { address: string; keyPath: string; publicKey: string; privateKey: string }[] }>(
    'genesis/pos-mainchain-default/dev-validators.json',
  );
  return keys.map((key) => ({
    lisk32: key.address,
    address: decodeLisk32(key.address),
    keyPath: key.keyPath,
    publicKey: Buffer.from(key.publicKey, 'hex'),
    privateKey: Buffer.from(key.privateKey, 'hex'),
  }));
}

export interface ReplayedChain {
  readonly chain: OpenChain;
  readonly config: ChainConfig;
  readonly chainID: Buffer;
  /** Unix seconds seen by block processing. */
  clock: number;
  /** The fixture block at `height` (not necessarily applied). */
  fixtureBlock(height: number): Block;
  /** Applies the fixture block at tip + 1. */
  applyNextFixtureBlock(): Promise<Block>;
  close(): Promise<void>;
}

/** Opens the dev chain in a temporary directory and applies its blocks 1..`height`. */
export async function openReplayedDevChain(height: number): Promise<ReplayedChain> {
  const dataPath = mkdtempSync(join(tmpdir(), 'basalt-txpool-'));
  const config = devChainConfig();
  const lines = devBlockLines();
  const fixtureBlock = (h: number): Block => Block.fromBytes(Buffer.from((lines[h] as { blockHex: string }).blockHex, 'hex'));
  const replayed: ReplayedChain = {
    chain: undefined as unknown as OpenChain,
    config,
    chainID: config.genesis.chainID,
    clock: 0,
    fixtureBlock,
    async applyNextFixtureBlock() {
      const block = fixtureBlock(this.chain.chainStore.tipHeight() + 1);
      this.clock = block.header.timestamp;
      await this.chain.processor.processBlock(block);
      return block;
    },
    async close() {
      await this.chain.close();
      rmSync(dataPath, { recursive: true, force: true });
    },
  };
  await seedDevGenesis(dataPath);
  (replayed as { chain: OpenChain }).chain = await openChain({
    dataPath,
    config,
    genesisBlock: devGenesisBlock(),
    now: () => replayed.clock,
  });
  while (replayed.chain.chainStore.tipHeight() < height) await replayed.applyNextFixtureBlock();
  return replayed;
}

export function accountNonce(chain: OpenChain, address: Buffer): bigint {
  return chain.modules.auth.method.getAuthAccount({ state: chain.stateDb.moduleReader }, address).nonce;
}

export function availableBalance(chain: OpenChain, address: Buffer): bigint {
  return chain.modules.token.method.getAvailableBalance({ state: chain.stateDb.moduleReader }, address, TOKEN_ID);
}

export interface TransferFields {
  readonly nonce: bigint;
  /** Fee priority (beddows per byte) the fee is set to exactly; default the chain minimum. */
  readonly priority?: number;
  /** An explicit fee instead of `priority`. */
  readonly fee?: bigint;
  readonly amount?: bigint;
  readonly recipient: Buffer;
  readonly data?: string;
}

/** A token transfer from `sender`, signed for `chainID` with the sender's account key. */
export function signedTransfer(sender: DevAccount, fields: TransferFields, chainID: Buffer): Transaction {
  const params = codec.encode(transferParamsSchema, {
    tokenID: TOKEN_ID,
    amount: fields.amount ?? 1_0000_0000n,
    recipientAddress: fields.recipient,
    data: fields.data ?? '',
  });
  const unsigned = { module: 'token', command: 'transfer', nonce: fields.nonce, senderPublicKey: sender.publicKey, params };
  // computeMinFee with minFeePerByte = p makes fee = p × size exactly, so the fee priority is p.
  const fee = fields.fee ?? computeMinFee(unsigned, { minFeePerByte: fields.priority ?? MIN_FEE_PER_BYTE });
  const transaction = new Transaction({ ...unsigned, fee, signatures: [] });
  return transaction.withSignatures([signData(MESSAGE_TAG_TRANSACTION, chainID, transaction.signingBytes(), sender.privateKey)]);
}

export interface PoolSetup {
  readonly pool: TransactionPool;
  readonly events: RecordedEvents;
  /** Milliseconds seen by the pool. */
  time: number;
}

export interface RecordedEvents {
  readonly added: Transaction[];
  readonly removed: { transaction: Transaction; reason: RemovalReason }[];
}

/** A pool over the replayed chain's tip, verifying with the chain's own state machine. */
export function newPool(replayed: ReplayedChain, config: Partial<TransactionPoolConfig> = {}): PoolSetup {
  const events: RecordedEvents = { added: [], removed: [] };
  const setup: PoolSetup = {
    pool: undefined as unknown as TransactionPool,
    events,
    time: 0,
  };
  const pool = new TransactionPool({
    config: { maxPayloadLength: replayed.config.genesis.maxTransactionsSize, ...config },
    verifier: new StateMachinePoolVerifier(replayed.chain.stateMachine),
    tip: tipOf(replayed.chain),
    now: () => setup.time,
  });
  const listener: TransactionPoolListener = {
    transactionAdded: (transaction) => events.added.push(transaction),
    transactionRemoved: (transaction, reason) => events.removed.push({ transaction, reason }),
  };
  pool.addListener(listener);
  (setup as { pool: TransactionPool }).pool = pool;
  return setup;
}

export function hexIds(transactions: readonly Transaction[]): string[] {
  return transactions.map((transaction) => transaction.id.toString('hex'));
}

/**
 * Produces and applies the next block with the dev validator whose slot follows the tip, taking
 * transactions from `candidates` through the real block generator. Generator info is seeded from
 * the stored headers (as an operator moving validators to a node would), so the first call must
 * come after the last block this node did not generate itself.
 */
export function blockProducer(replayed: ReplayedChain): (candidates: ProcessableTransactions) => Promise<Block> {
  const { chain, config } = replayed;
  const { generator, generatorStore } = createChainForger(chain, { genesisConfig: config.genesis });
  adoptGeneratorInfoOfChain(chain.chainStore, generatorStore);
  const keypairs = devValidatorKeypairs();
  return async (candidates) => {
    const tip = chain.processor.tipHeader();
    const timestamp = tip.timestamp + config.genesis.blockTime;
    const expected = chain.bft.generatorAtTimestamp(chain.stateDb.engineReader, tip.height + 1, timestamp);
    const keypair = keypairs.find((candidate) => candidate.address.equals(expected.address));
    if (!keypair) throw new Error('No dev key for the next slot');
    replayed.clock = timestamp;
    const { block } = await generator.generate(keypair, timestamp, candidates);
    await chain.processor.processBlock(block);
    return block;
  };
}
