/**
 * What the genesis assets are computed from: the v3 state at the database tip (accounts,
 * unregistered addresses, delegate vote weights) and the generator keys found in the block and
 * transaction history, with the network's LSK token ID and the snapshot height.
 */
import type { V3Account, V3UnregisteredAddress, V3VoteWeights } from '../v3/v3-schemas.js';

export interface MigrationState {
  readonly snapshotHeight: number;
  /** The LSK token ID of the target network (8 bytes). */
  readonly tokenID: Buffer;
  /** Every v3 account with a 20-byte address, sorted by address bytes. */
  readonly accounts: readonly V3Account[];
  readonly unregisteredAddresses: readonly V3UnregisteredAddress[];
  readonly voteWeights: readonly V3VoteWeights[];
  /** Hex address → generator key (see generator-keys.ts). */
  readonly generatorKeys: ReadonlyMap<string, Buffer>;
}

/** Σ sentVotes.amount + Σ unlocking.amount: what v4 PoS holds locked for the account. */
export function posLockedAmount(account: V3Account): bigint {
  let sum = 0n;
  for (const vote of account.dpos.sentVotes) sum += vote.amount;
  for (const unlocking of account.dpos.unlocking) sum += unlocking.amount;
  return sum;
}

export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  return Buffer.compare(a, b);
}

export function isDelegateAccount(account: V3Account): boolean {
  return account.dpos.delegate.username !== '';
}
