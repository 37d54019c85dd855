/**
 * Writes synthetic Lisk Core 3 databases in the real on-disk format (the RocksDB keys and lisk-codec
 * values Lisk Core 3.0 stores, see src/migration/v3/), for tests and benchmarks of the migration
 * that must run without the real databases of the migration oracle.
 *
 * Two levels: `V3DatabaseWriter` puts single records (accounts, blocks with their transactions,
 * the unregistered addresses, the vote weights, forger.db's previously forged list), batched;
 * `writeSyntheticV3Database` writes a whole chain from a few counts: delegates that forge in
 * turn, voters (with unvotes still locked), multisignature accounts, transactions spread over the
 * blocks, unregistered addresses and the vote-weight lists Lisk Core 3 keeps around the tip. It
 * writes 1M blocks, 200k accounts and 1M transactions in well under a minute.
 *
 * Free of vitest: bench/ imports it too.
 */
import { createRequire } from 'node:module';
import { codec } from '../../src/codec/index.js';
import { sha256 } from '../../src/crypto/index.js';
import { legacyTransactionRoot } from '../../src/legacy-chain/legacy-block.js';
import { heightBytes, V3_PREFIX, v3Key } from '../../src/migration/v3/v3-keys.js';
import {
  type V3Account,
  type V3BlockHeader,
  type V3PreviouslyForgedEntry,
  type V3Transaction,
  type V3UnregisteredAddress,
  type V3VoteWeights,
  v3AccountSchema,
  v3BlockHeaderSchema,
  v3PreviouslyForgedSchema,
  v3TransactionSchema,
  v3UnregisteredAddressesSchema,
  v3VoteWeightsSchema,
} from '../../src/migration/v3/v3-schemas.js';

interface WritableBatch {
  put(key: Buffer, value: Buffer): void;
  write(callback: (error?: Error | null) => void): void;
}

interface WritableRocksDatabase {
  open(options: { readonly createIfMissing: boolean; readonly errorIfExists: boolean }, callback: (error?: Error | null) => void): void;
  close(callback: (error?: Error | null) => void): void;
  batch(): WritableBatch;
}

const openRocksDatabase = createRequire(import.meta.url)('rocksdb') as (location: string) => WritableRocksDatabase;

/** Records per RocksDB write batch. */
const BATCH_SIZE = 20_000;
const LSK = 100_000_000n;
export const V3_ROUND_LENGTH = 103;

/** The address Lisk Core 3 derives from a public key: the first 20 bytes of its SHA-256. */
export function v3AddressOf(publicKey: Uint8Array): Buffer {
  return sha256(publicKey).subarray(0, 20);
}

/** A deterministic 32-byte "public key" (any 32 bytes serve: nothing verifies signatures here). */
export function syntheticPublicKey(label: string): Buffer {
  return sha256(Buffer.from(label, 'utf8'));
}

export type V3AccountInput = Partial<Omit<V3Account, 'address' | 'dpos'>> & {
  readonly address: Buffer;
  readonly dpos?: Partial<Omit<V3Account['dpos'], 'delegate'>> & { readonly delegate?: Partial<V3Account['dpos']['delegate']> };
};

/** A full v3 account from the given parts, every other field at Lisk Core 3's default. */
export function v3Account(input: V3AccountInput): V3Account {
  return {
    address: input.address,
    token: input.token ?? { balance: 0n },
    sequence: input.sequence ?? { nonce: 0n },
    keys: input.keys ?? { numberOfSignatures: 0, mandatoryKeys: [], optionalKeys: [] },
    dpos: {
      delegate: {
        username: '',
        pomHeights: [],
        consecutiveMissedBlocks: 0,
        lastForgedHeight: 0,
        isBanned: false,
        totalVotesReceived: 0n,
        ...input.dpos?.delegate,
      },
      sentVotes: input.dpos?.sentVotes ?? [],
      unlocking: input.dpos?.unlocking ?? [],
    },
  };
}

export interface V3BlockInput {
  readonly height: number;
  readonly generatorPublicKey: Buffer;
  readonly timestamp?: number;
  readonly previousBlockID?: Buffer;
  readonly transactions?: readonly V3Transaction[];
}

/** A v3 transfer-shaped transaction from `senderPublicKey` (the asset bytes are opaque here). */
export function v3Transaction(senderPublicKey: Buffer, nonce: bigint, asset: Buffer = Buffer.alloc(0)): V3Transaction {
  return { moduleID: 2, assetID: 0, nonce, fee: 10_000_000n, senderPublicKey, asset, signatures: [Buffer.alloc(64, 1)] };
}

/** Genesis timestamp of the synthetic chains, and their block time. */
export const V3_GENESIS_TIMESTAMP = 1_700_000_000;
export const V3_BLOCK_TIME = 10;

export class V3DatabaseWriter {
  private batch: WritableBatch;
  private pending = 0;
  private previousID: Buffer = Buffer.alloc(32);
  private writing: Promise<void> = Promise.resolve();

  private constructor(private readonly db: WritableRocksDatabase) {
    this.batch = db.batch();
  }

  /** Creates a new database at `path` (which must not hold one). */
  static async create(path: string): Promise<V3DatabaseWriter> {
    const db = openRocksDatabase(path);
    await new Promise<void>((resolve, reject) =>
      db.open({ createIfMissing: true, errorIfExists: true }, (error) => (error ? reject(error) : resolve())),
    );
    return new V3DatabaseWriter(db);
  }

  /** Opens an existing database for writing (tests that damage or extend one). */
  static async open(path: string): Promise<V3DatabaseWriter> {
    const db = openRocksDatabase(path);
    await new Promise<void>((resolve, reject) =>
      db.open({ createIfMissing: false, errorIfExists: false }, (error) => (error ? reject(error) : resolve())),
    );
    return new V3DatabaseWriter(db);
  }

  /** Puts one key (logical prefix + suffix bytes, encoded as Lisk Core 3 does) and value. */
  async put(prefix: string, suffix: Uint8Array, value: Buffer): Promise<void> {
    this.batch.put(v3Key(prefix, suffix), value);
    this.pending += 1;
    if (this.pending >= BATCH_SIZE) await this.flush();
  }

  async putAccount(account: V3Account): Promise<void> {
    await this.put(V3_PREFIX.accountsAddress, account.address, codec.encode(v3AccountSchema, account));
  }

  /**
   * Puts a block as lisk-chain 3.x saves it: header by id, id by height, each transaction by
   * id, and the block's transaction ids concatenated under `transactions:blockID:`. Blocks are
   * expected in height order: each one links to the previous one put. Returns the block id.
   */
  async putBlock(input: V3BlockInput): Promise<Buffer> {
    const transactions = input.transactions ?? [];
    const encodedTransactions = transactions.map((transaction) => codec.encode(v3TransactionSchema, transaction));
    const transactionIDs = encodedTransactions.map((bytes) => sha256(bytes));
    const header: V3BlockHeader = {
      version: 2,
      timestamp: input.timestamp ?? V3_GENESIS_TIMESTAMP + input.height * V3_BLOCK_TIME,
      height: input.height,
      previousBlockID: input.previousBlockID ?? (input.height === 0 ? Buffer.alloc(0) : this.previousID),
      // LIP 0032: the Merkle root of the transaction IDs, so the blocks pass a legacy import.
      transactionRoot: legacyTransactionRoot(transactionIDs),
      generatorPublicKey: input.generatorPublicKey,
      reward: 500_000_000n,
      asset: Buffer.alloc(0),
      signature: Buffer.alloc(64, 2),
    };
    const encodedHeader = codec.encode(v3BlockHeaderSchema, header);
    const id = sha256(encodedHeader);
    this.previousID = id;
    await this.put(V3_PREFIX.blocksID, id, encodedHeader);
    await this.put(V3_PREFIX.blocksHeight, heightBytes(input.height), id);
    for (let index = 0; index < encodedTransactions.length; index += 1) {
      await this.put(V3_PREFIX.transactionsID, transactionIDs[index] as Buffer, encodedTransactions[index] as Buffer);
    }
    if (transactionIDs.length > 0) await this.put(V3_PREFIX.transactionsBlockID, id, Buffer.concat(transactionIDs));
    return id;
  }

  async putUnregisteredAddresses(unregisteredAddresses: readonly V3UnregisteredAddress[]): Promise<void> {
    await this.put(
      V3_PREFIX.unregisteredAddresses,
      new Uint8Array(0),
      codec.encode(v3UnregisteredAddressesSchema, { unregisteredAddresses }),
    );
  }

  async putVoteWeights(voteWeights: readonly V3VoteWeights[]): Promise<void> {
    await this.put(V3_PREFIX.delegateVoteWeights, new Uint8Array(0), codec.encode(v3VoteWeightsSchema, { voteWeights }));
  }

  /** forger.db's record (write it into a database of its own). */
  async putPreviouslyForged(previouslyForgedInfo: readonly V3PreviouslyForgedEntry[]): Promise<void> {
    await this.put(V3_PREFIX.previouslyForged, new Uint8Array(0), codec.encode(v3PreviouslyForgedSchema, { previouslyForgedInfo }));
  }

  /**
   * Hands the pending batch to RocksDB. One batch is written while the next one fills: the
   * previous write is awaited before a new one starts.
   */
  async flush(): Promise<void> {
    if (this.pending === 0) return;
    const batch = this.batch;
    this.batch = this.db.batch();
    this.pending = 0;
    await this.writing;
    const writing = new Promise<void>((resolve, reject) => batch.write((error) => (error ? reject(error) : resolve())));
    // Awaited by the next flush or close; until then a failure must not count as unhandled.
    writing.catch(() => undefined);
    this.writing = writing;
  }

  async close(): Promise<void> {
    await this.flush();
    await this.writing;
    await new Promise<void>((resolve, reject) => this.db.close((error) => (error ? reject(error) : resolve())));
  }
}

export interface SyntheticV3Options {
  /** Heights 0 … blocks − 1; the tip is blocks − 1. */
  readonly blocks: number;
  /** Accounts in all, delegates included (at least `delegates`). */
  readonly accounts: number;
  readonly transactions: number;
  /** Registered delegates (default 103). The last `silentDelegates` of them never forge. */
  readonly delegates?: number;
  /** Delegates that forge no block (default 2): one of them sends a transaction, one does nothing. */
  readonly silentDelegates?: number;
  /** Unregistered (8-byte) addresses (default 10). */
  readonly unregisteredAddresses?: number;
}

export interface SyntheticV3Summary {
  readonly tipHeight: number;
  readonly delegates: readonly { readonly address: Buffer; readonly publicKey: Buffer; readonly username: string }[];
  /** Rounds that have a vote-weight list. */
  readonly voteWeightRounds: readonly number[];
}

/**
 * Writes a synthetic chain into a new database at `path`. Delegate i has the key
 * `syntheticPublicKey('delegate-i')`, votes 1000 LSK for itself, and forges the blocks of height
 * h with h mod (forging delegates) = i; account j votes for one or two delegates, every fifth
 * has an unvote still locked, every seventh is a 2-of-3 multisignature account. The vote
 * weights hold the lists Lisk Core 3 keeps near the tip (rounds R − 5 … R + 3, R the tip's
 * round), each listing every delegate by weight.
 */
export async function writeSyntheticV3Database(path: string, options: SyntheticV3Options): Promise<SyntheticV3Summary> {
  const delegateCount = options.delegates ?? 103;
  const silent = options.silentDelegates ?? 2;
  if (options.accounts < delegateCount) throw new Error('accounts must include the delegates');
  if (delegateCount <= silent) throw new Error('at least one delegate must forge');
  const writer = await V3DatabaseWriter.create(path);
  const tipHeight = options.blocks - 1;

  const delegates = Array.from({ length: delegateCount }, (_, index) => {
    const publicKey = syntheticPublicKey(`delegate-${index}`);
    return { address: v3AddressOf(publicKey), publicKey, username: `delegate_${index}` };
  });
  const selfVote = 1000n * LSK;
  const received = new Map<string, bigint>(delegates.map((delegate) => [delegate.address.toString('hex'), selfVote]));

  const voterKeys: Buffer[] = [];
  for (let index = delegateCount; index < options.accounts; index += 1) {
    const publicKey = syntheticPublicKey(`account-${index}`);
    voterKeys.push(publicKey);
    const first = delegates[index % delegateCount] as (typeof delegates)[number];
    const second = delegates[(index * 7 + 3) % delegateCount] as (typeof delegates)[number];
    const sentVotes = [{ delegateAddress: first.address, amount: 10n * LSK }];
    if (second !== first && index % 2 === 0) sentVotes.push({ delegateAddress: second.address, amount: 20n * LSK });
    for (const vote of sentVotes) {
      const key = vote.delegateAddress.toString('hex');
      received.set(key, (received.get(key) as bigint) + vote.amount);
    }
    const unlocking =
      index % 5 === 0 ? [{ delegateAddress: first.address, amount: 10n * LSK, unvoteHeight: Math.max(1, tipHeight - (index % 50)) }] : [];
    const keys =
      index % 7 === 0
        ? {
            numberOfSignatures: 2,
            mandatoryKeys: [syntheticPublicKey(`m-${index}`), publicKey],
            optionalKeys: [syntheticPublicKey(`o-${index}`)],
          }
        : undefined;
    await writer.putAccount(
      v3Account({
        address: v3AddressOf(publicKey),
        token: { balance: BigInt(index) * LSK },
        sequence: { nonce: BigInt(index % 3) },
        ...(keys === undefined ? {} : { keys }),
        dpos: { sentVotes: [...sentVotes].sort((a, b) => Buffer.compare(a.delegateAddress, b.delegateAddress)), unlocking },
      }),
    );
  }
  const forging = delegates.slice(0, delegateCount - silent);
  for (const [index, delegate] of delegates.entries()) {
    const forges = index < forging.length;
    await writer.putAccount(
      v3Account({
        address: delegate.address,
        token: { balance: 100n * LSK },
        dpos: {
          delegate: {
            username: delegate.username,
            lastForgedHeight: forges ? lastForgedHeight(index, forging.length, tipHeight) : 0,
            totalVotesReceived: received.get(delegate.address.toString('hex')) as bigint,
          },
          sentVotes: [{ delegateAddress: delegate.address, amount: selfVote }],
        },
      }),
    );
  }

  // Transactions: spread evenly over the blocks after genesis; the first silent delegate sends one.
  const senders = voterKeys.length > 0 ? voterKeys : forging.map((delegate) => delegate.publicKey);
  const perBlock = options.blocks > 1 ? options.transactions / (options.blocks - 1) : 0;
  let written = 0;
  for (let height = 0; height <= tipHeight; height += 1) {
    const due = height === 0 ? 0 : Math.min(options.transactions, Math.round(perBlock * height)) - written;
    const transactions: V3Transaction[] = [];
    for (let index = 0; index < due; index += 1) {
      const number = written + index;
      const sender =
        silent > 0 && number === 0 ? (delegates[forging.length] as (typeof delegates)[number]).publicKey : senders[number % senders.length];
      transactions.push(v3Transaction(sender as Buffer, BigInt(Math.floor(number / senders.length)), heightBytes(number)));
    }
    written += due;
    const generator = forging[height % forging.length] as (typeof forging)[number];
    await writer.putBlock({ height, generatorPublicKey: generator.publicKey, transactions });
  }

  const unregistered = Array.from({ length: options.unregisteredAddresses ?? 10 }, (_, index) => ({
    address: sha256(Buffer.from(`unregistered-${index}`)).subarray(0, 8),
    balance: BigInt(index + 1) * LSK,
  }));
  await writer.putUnregisteredAddresses(unregistered);

  const ranked = delegates
    .map((delegate) => ({ address: delegate.address, voteWeight: received.get(delegate.address.toString('hex')) as bigint }))
    .sort((a, b) => (a.voteWeight === b.voteWeight ? Buffer.compare(a.address, b.address) : a.voteWeight > b.voteWeight ? -1 : 1));
  const tipRound = Math.ceil(Math.max(tipHeight, 1) / V3_ROUND_LENGTH);
  const voteWeightRounds: number[] = [];
  for (let round = Math.max(1, tipRound - 5); round <= tipRound + 3; round += 1) voteWeightRounds.push(round);
  await writer.putVoteWeights(voteWeightRounds.map((round) => ({ round, delegates: ranked })));
  await writer.close();
  return { tipHeight, delegates, voteWeightRounds };
}

/** The last height ≤ tip that forging delegate `index` of `count` forged (heights ≥ 1). */
function lastForgedHeight(index: number, count: number, tipHeight: number): number {
  const last = tipHeight - ((((tipHeight - index) % count) + count) % count);
  return last >= 1 ? last : 0;
}
