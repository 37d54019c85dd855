/**
 * The reads of a Lisk Core 3 blockchain.db the migration needs: the tip, block headers by
 * height, and paged scans of every account (decoded with the v3 schema) and of the public keys
 * in every block header and transaction. Accounts, unregistered addresses and vote weights are the state at the database tip.
 */
import { MigrationError } from '../migration-error.js';
import type { V3Database } from './v3-database.js';
import { heightBytes, logicalV3Key, V3_PREFIX, v3Key, v3Range } from './v3-keys.js';
import { v3HeaderGeneratorKey, v3TransactionSenderKey } from './v3-record-fields.js';
import {
  type V3Account,
  type V3BlockHeader,
  type V3UnregisteredAddress,
  type V3VoteWeights,
  v3AccountSchema,
  v3BlockHeaderSchema,
  v3UnregisteredAddressesSchema,
  v3VoteWeightsSchema,
} from './v3-schemas.js';

/** lisk-migrator's default `--page-size`. */
export const DEFAULT_PAGE_SIZE = 100_000;

const ADDRESS_LENGTH = 20;
const ID_LENGTH = 32;
const HEIGHT_LENGTH = 4;

/**
 * The height of the highest block in the database. A RocksDB database without any
 * `blocks:height:` key is not a Lisk Core 3 blockchain.db.
 */
export async function readTipHeight(db: V3Database): Promise<number> {
  return readEdgeHeight(db, true);
}

/**
 * The height of the lowest block in the database: the v3 genesis block's (Lisk Core 3 keeps every
 * block from its genesis block on), where the legacy history of a migrated chain starts.
 */
export async function readFirstHeight(db: V3Database): Promise<number> {
  return readEdgeHeight(db, false);
}

async function readEdgeHeight(db: V3Database, highest: boolean): Promise<number> {
  const edge = await db.first(v3Range(V3_PREFIX.blocksHeight, HEIGHT_LENGTH), highest);
  if (edge === undefined) {
    throw new MigrationError(
      'MIGRATION_DB_FOREIGN',
      `${db.path} is not a Lisk Core v3 blockchain database (it has no blocks:height: keys).`,
    );
  }
  const suffix = logicalV3Key(edge.key).subarray(V3_PREFIX.blocksHeight.length);
  if (suffix.length !== HEIGHT_LENGTH) {
    throw new MigrationError('MIGRATION_DB_CORRUPT', `${db.path} has a malformed height key ${logicalV3Key(edge.key).toString('hex')}.`);
  }
  return suffix.readUInt32BE(0);
}

/** The id stored for `height`, or undefined. */
export async function readBlockIDAtHeight(db: V3Database, height: number): Promise<Buffer | undefined> {
  return db.get(v3Key(V3_PREFIX.blocksHeight, heightBytes(height)));
}

/** The stored (encoded) header of block `id`, or undefined. */
export async function readEncodedHeader(db: V3Database, id: Buffer): Promise<Buffer | undefined> {
  return db.get(v3Key(V3_PREFIX.blocksID, id));
}

/**
 * The header of the block at `height` (lisk-migrator `getBlockHeaderByHeight`): a missing key
 * fails with the migrator's `Specified key <hex key> does not exist`, naming the logical key.
 */
export async function readBlockHeaderAtHeight(
  db: V3Database,
  height: number,
): Promise<{ readonly id: Buffer; readonly header: V3BlockHeader }> {
  const heightKey = v3Key(V3_PREFIX.blocksHeight, heightBytes(height));
  const id = await db.get(heightKey);
  if (id === undefined) throw missingKey(heightKey);
  const headerKey = v3Key(V3_PREFIX.blocksID, id);
  const encoded = await db.get(headerKey);
  if (encoded === undefined) throw missingKey(headerKey);
  return { id, header: db.decode<V3BlockHeader>(v3BlockHeaderSchema, encoded, headerKey) };
}

function missingKey(key: Buffer): MigrationError {
  return new MigrationError('MIGRATION_KEY_MISSING', `Specified key ${logicalV3Key(key).toString('hex')} does not exist`);
}

/** Visits every account with a 20-byte address, in key order; returns how many were visited. */
export async function scanAccounts(db: V3Database, pageSize: number, visit: (account: V3Account) => void): Promise<number> {
  let accounts = 0;
  await db.forEach(v3Range(V3_PREFIX.accountsAddress, ADDRESS_LENGTH), pageSize, ({ key, value }) => {
    const account = db.decode<V3Account>(v3AccountSchema, value, key);
    // lisk-migrator drops entries whose decoded address is not 20 bytes.
    if (account.address.length !== ADDRESS_LENGTH) return;
    accounts += 1;
    visit(account);
  });
  return accounts;
}

/**
 * Visits the generator key of every block header stored under `blocks:id:` (in id order, as
 * views into the read buffers: copy what is kept); returns the number of headers.
 */
export function scanBlockGeneratorKeys(db: V3Database, pageSize: number, visit: (generatorPublicKey: Buffer) => void): Promise<number> {
  return db.forEach(v3Range(V3_PREFIX.blocksID, ID_LENGTH), pageSize, ({ key, value }) => {
    visit(db.decodeWith(key, value, v3HeaderGeneratorKey));
  });
}

/** Visits the sender key of every transaction stored under `transactions:id:`, as above. */
export function scanTransactionSenderKeys(db: V3Database, pageSize: number, visit: (senderPublicKey: Buffer) => void): Promise<number> {
  return db.forEach(v3Range(V3_PREFIX.transactionsID, ID_LENGTH), pageSize, ({ key, value }) => {
    visit(db.decodeWith(key, value, v3TransactionSenderKey));
  });
}

/** `chain:unregisteredAddresses` in stored order; Lisk Core 3 writes it at genesis, so it must exist. */
export async function readUnregisteredAddresses(db: V3Database): Promise<readonly V3UnregisteredAddress[]> {
  const key = v3Key(V3_PREFIX.unregisteredAddresses);
  const stored = await db.getDecoded<{ unregisteredAddresses: V3UnregisteredAddress[] }>(key, v3UnregisteredAddressesSchema);
  if (stored === undefined) throw missingKey(key);
  return stored.unregisteredAddresses;
}

/** `chain:dpos:delegateVoteWeights`: the stored lists, one per round; Lisk Core 3 writes it at genesis. */
export async function readVoteWeights(db: V3Database): Promise<readonly V3VoteWeights[]> {
  const key = v3Key(V3_PREFIX.delegateVoteWeights);
  const stored = await db.getDecoded<{ voteWeights: V3VoteWeights[] }>(key, v3VoteWeightsSchema);
  if (stored === undefined) throw missingKey(key);
  return stored.voteWeights;
}
