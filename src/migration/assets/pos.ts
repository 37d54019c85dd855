/**
 * The PoS module's genesis asset (lisk-migrator `src/assets/pos.ts`): every v3 delegate as a
 * banned validator with placeholder BLS keys (they register real ones with the legacy module's
 * registerKeys), every voter as a staker, and the first validator set from the v3 vote weights
 * of round r − 2.
 */
import { encodeLisk32Address } from '../../codec/index.js';
import { MigrationError } from '../migration-error.js';
import { compareBytes, isDelegateAccount, type MigrationState } from './migration-state.js';

/** lisk-migrator POS_INIT_ROUNDS. */
export const POS_INIT_ROUNDS = 587;
/** The v3 round length and the number of v4 initial validators. */
const ROUND_LENGTH = 103;
const NUMBER_OF_INIT_VALIDATORS = 101;
/** Commission 100.00 %: validators lower it themselves after the migration. */
const INITIAL_COMMISSION = 10_000;
const INVALID_BLS_KEY = '00'.repeat(48);
const INVALID_PROOF_OF_POSSESSION = '00'.repeat(96);
/** The generator key of a delegate that never forged nor sent a transaction. */
const UNKNOWN_GENERATOR_KEY = 'ff'.repeat(32);

interface SharingCoefficient {
  readonly tokenID: string;
  readonly coefficient: string;
}

export interface PosValidatorEntry {
  readonly name: string;
  readonly blsKey: string;
  readonly proofOfPossession: string;
  readonly generatorKey: string;
  readonly lastGeneratedHeight: number;
  readonly isBanned: boolean;
  readonly reportMisbehaviorHeights: readonly number[];
  readonly consecutiveMissedBlocks: number;
  readonly lastCommissionIncreaseHeight: number;
  readonly commission: number;
  readonly sharingCoefficients: readonly SharingCoefficient[];
  readonly address: string;
}

export interface PosStakerEntry {
  readonly stakes: readonly {
    readonly amount: string;
    readonly sharingCoefficients: readonly SharingCoefficient[];
    readonly validatorAddress: string;
  }[];
  readonly pendingUnlocks: readonly { readonly validatorAddress: string; readonly amount: string; readonly unstakeHeight: number }[];
  readonly address: string;
}

export interface PosAssetData {
  readonly validators: readonly PosValidatorEntry[];
  readonly stakers: readonly PosStakerEntry[];
  readonly genesisData: { readonly initRounds: number; readonly initValidators: readonly string[] };
}

/**
 * Validators are banned whatever v3 said, and their v3 vote totals are not carried: v4 counts
 * stakes itself. Stakes are sorted by validator address; pending unlocks keep the stored v3
 * order (delegate, then newest unvote first), which v4 accepts at genesis.
 */
export function createPosAsset(state: MigrationState): PosAssetData {
  const sharingCoefficients = [{ tokenID: state.tokenID.toString('hex'), coefficient: '' }];
  const validators: PosValidatorEntry[] = [];
  const stakers: PosStakerEntry[] = [];
  for (const account of state.accounts) {
    const { delegate, sentVotes, unlocking } = account.dpos;
    const address = encodeLisk32Address(account.address);
    if (isDelegateAccount(account)) {
      validators.push({
        name: delegate.username,
        blsKey: INVALID_BLS_KEY,
        proofOfPossession: INVALID_PROOF_OF_POSSESSION,
        generatorKey: state.generatorKeys.get(account.address.toString('hex'))?.toString('hex') ?? UNKNOWN_GENERATOR_KEY,
        lastGeneratedHeight: delegate.lastForgedHeight,
        isBanned: true,
        reportMisbehaviorHeights: delegate.pomHeights,
        consecutiveMissedBlocks: delegate.consecutiveMissedBlocks,
        lastCommissionIncreaseHeight: state.snapshotHeight,
        commission: INITIAL_COMMISSION,
        sharingCoefficients,
        address,
      });
    }
    if (sentVotes.length > 0 || unlocking.length > 0) {
      stakers.push({
        stakes: [...sentVotes]
          .sort((a, b) => compareBytes(a.delegateAddress, b.delegateAddress))
          .map((vote) => ({
            amount: vote.amount.toString(),
            sharingCoefficients,
            validatorAddress: encodeLisk32Address(vote.delegateAddress),
          })),
        pendingUnlocks: unlocking.map((entry) => ({
          validatorAddress: encodeLisk32Address(entry.delegateAddress),
          amount: entry.amount.toString(),
          unstakeHeight: entry.unvoteHeight,
        })),
        address,
      });
    }
  }
  return { validators, stakers, genesisData: { initRounds: POS_INIT_ROUNDS, initValidators: initValidators(state) } };
}

/**
 * The first v4 validators: the v3 vote-weight list of round r − 2, r = ⌈snapshot / 103⌉, cut
 * to its first 101 delegates, in address order. lisk-migrator means to drop banned delegates
 * here but its lookup never matches, and v3 never lists banned delegates anyway: no filter.
 */
export function initValidators(state: MigrationState): string[] {
  const round = Math.ceil(state.snapshotHeight / ROUND_LENGTH) - 2;
  const list = state.voteWeights.find((entry) => entry.round === round);
  if (list === undefined || list.delegates.length === 0) {
    throw new MigrationError(
      'MIGRATION_VOTE_WEIGHTS_MISSING',
      `Delegate vote weights for round ${round} (r-2) unavailable, cannot proceed.`,
    );
  }
  return list.delegates
    .slice(0, NUMBER_OF_INIT_VALIDATORS)
    .map((delegate) => delegate.address)
    .sort(compareBytes)
    .map((address) => encodeLisk32Address(address));
}
