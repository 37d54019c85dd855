/**
 * Reads everything the genesis assets need from an open v3 blockchain.db: the accounts (page by
 * page, kept: every asset needs them), the unregistered addresses, the vote weights and the
 * generator keys (a streamed scan of every block header and transaction, of which only the keys
 * are kept).
 */
import type { V3Database } from '../v3/v3-database.js';
import { readUnregisteredAddresses, readVoteWeights, scanAccounts } from '../v3/v3-chain.js';
import type { V3Account } from '../v3/v3-schemas.js';
import { scanGeneratorKeys } from './generator-keys.js';
import { compareBytes, isDelegateAccount, type MigrationState } from './migration-state.js';

export interface ReadStateOptions {
  readonly snapshotHeight: number;
  readonly tokenID: Buffer;
  readonly pageSize: number;
  /** Told now and then how many entries (accounts, then blocks and transactions) were read. */
  readonly onEntriesRead?: (entries: number) => void;
}

export interface ReadMigrationState extends MigrationState {
  readonly blocks: number;
  readonly transactions: number;
}

export async function readMigrationState(db: V3Database, options: ReadStateOptions): Promise<ReadMigrationState> {
  const unregisteredAddresses = await readUnregisteredAddresses(db);
  const accounts: V3Account[] = [];
  await scanAccounts(db, options.pageSize, (account) => {
    accounts.push(account);
    if (accounts.length % 10_000 === 0) options.onEntriesRead?.(accounts.length);
  });
  options.onEntriesRead?.(accounts.length);
  // Keys are in address order already; the decoded address decides, as in lisk-migrator.
  accounts.sort((a, b) => compareBytes(a.address, b.address));
  const voteWeights = await readVoteWeights(db);
  const delegates = new Set(accounts.filter(isDelegateAccount).map((account) => account.address.toString('hex')));
  const scan = await scanGeneratorKeys(
    db,
    options.pageSize,
    (address) => delegates.has(address),
    (entries) => options.onEntriesRead?.(accounts.length + entries),
  );
  return {
    snapshotHeight: options.snapshotHeight,
    tokenID: options.tokenID,
    accounts,
    unregisteredAddresses,
    voteWeights,
    generatorKeys: scan.keys,
    blocks: scan.blocks,
    transactions: scan.transactions,
  };
}
