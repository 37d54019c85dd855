/**
 * The PoS module's genesis asset (lisk-migrator `src/assets/pos.ts`): every v3 delegate as a
 * banned validator with placeholder BLS keys (they register real ones with the legacy module's
 * registerKeys), every voter as a staker, and the first validator set from the v3 vote weights
 * of round r − 2.
 */
import { codec, encodeLisk32Address } from '../../codec/index.js';
import { genesisAssetSchema as genesisPosSchema } from '../../modules/pos/schemas.js';
import { MigrationError } from '../migration-error.js';
import type { V3Account, V3VoteWeights } from '../v3/v3-schemas.js';
import { compareBytes, isDelegateAccount } from './account-rules.js';
import { ArrayFieldWriter, lengthDelimited, rootSchemaOf } from './array-field-writer.js';
import { ASSET_ARRAY_INDENT } from './asset-layout.js';

/** lisk-migrator POS_INIT_ROUNDS. */
export const POS_INIT_ROUNDS = 587;
/** The v3 round length and the number of v4 initial validators. */
const ROUND_LENGTH = 103;
const NUMBER_OF_INIT_VALIDATORS = 101;
/** Commission 100.00 %: validators lower it themselves after the migration. */
const INITIAL_COMMISSION = 10_000;
const INVALID_BLS_KEY = Buffer.alloc(48);
const INVALID_PROOF_OF_POSSESSION = Buffer.alloc(96);
/** The generator key of a delegate that never forged nor sent a transaction. */
const UNKNOWN_GENERATOR_KEY = Buffer.alloc(32, 0xff);
const EMPTY_COEFFICIENT = Buffer.alloc(0);

const members = (genesisPosSchema as { properties: Record<string, { items?: object }> }).properties;
const genesisDataSchema = rootSchemaOf('/migration/pos/genesisData', members.genesisData as object);

/**
 * Builds the PoS asset from accounts given in address order. Validators are banned whatever v3
 * said, and their v3 vote totals are not carried: v4 counts stakes itself. Stakes are sorted by
 * validator address; pending unlocks keep the stored v3 order (delegate, then newest unvote
 * first), which v4 accepts at genesis.
 */
export class PosAssetBuilder {
  readonly validators = new ArrayFieldWriter(1, members.validators?.items as object, ASSET_ARRAY_INDENT);
  readonly stakers = new ArrayFieldWriter(2, members.stakers?.items as object, ASSET_ARRAY_INDENT);
  private readonly coefficientsJson: readonly object[];
  private readonly coefficients: readonly object[];
  private readonly validatorAddresses = new Map<string, string>();

  constructor(
    tokenID: Buffer,
    private readonly snapshotHeight: number,
    private readonly generatorKeyOf: (address: Buffer) => Buffer | undefined,
  ) {
    this.coefficientsJson = [{ tokenID: tokenID.toString('hex'), coefficient: '' }];
    this.coefficients = [{ tokenID, coefficient: EMPTY_COEFFICIENT }];
  }

  /** `lisk32` is the account's address in lisk32 form. */
  addAccount(account: V3Account, lisk32: string): void {
    if (isDelegateAccount(account)) this.addValidator(account, lisk32);
    const { sentVotes, unlocking } = account.dpos;
    if (sentVotes.length === 0 && unlocking.length === 0) return;
    const stakes = [...sentVotes].sort((a, b) => compareBytes(a.delegateAddress, b.delegateAddress));
    this.stakers.add(
      {
        stakes: stakes.map((vote) => ({
          amount: vote.amount.toString(),
          sharingCoefficients: this.coefficientsJson,
          validatorAddress: this.validatorLisk32(vote.delegateAddress),
        })),
        pendingUnlocks: unlocking.map((entry) => ({
          validatorAddress: this.validatorLisk32(entry.delegateAddress),
          amount: entry.amount.toString(),
          unstakeHeight: entry.unvoteHeight,
        })),
        address: lisk32,
      },
      {
        address: account.address,
        stakes: stakes.map((vote) => ({
          validatorAddress: vote.delegateAddress,
          amount: vote.amount,
          sharingCoefficients: this.coefficients,
        })),
        pendingUnlocks: unlocking.map((entry) => ({
          validatorAddress: entry.delegateAddress,
          amount: entry.amount,
          unstakeHeight: entry.unvoteHeight,
        })),
      },
    );
  }

  /** The asset bytes and the JSON genesisData, after the last account. */
  finish(initValidators: readonly Buffer[]): { readonly bytes: Buffer; readonly genesisData: object } {
    const genesisData = { initRounds: POS_INIT_ROUNDS, initValidators: initValidators.map((address) => encodeLisk32Address(address)) };
    const bytes = Buffer.concat([
      this.validators.bytes(),
      this.stakers.bytes(),
      lengthDelimited(3, codec.encode(genesisDataSchema, { initRounds: POS_INIT_ROUNDS, initValidators })),
    ]);
    return { bytes, genesisData };
  }

  /** Votes name few addresses (the delegates) many times: each is encoded once. */
  private validatorLisk32(address: Buffer): string {
    const hex = address.toString('hex');
    let lisk32 = this.validatorAddresses.get(hex);
    if (lisk32 === undefined) {
      lisk32 = encodeLisk32Address(address);
      this.validatorAddresses.set(hex, lisk32);
    }
    return lisk32;
  }

  private addValidator(account: V3Account, lisk32: string): void {
    const { delegate } = account.dpos;
    const generatorKey = this.generatorKeyOf(account.address) ?? UNKNOWN_GENERATOR_KEY;
    this.validators.add(
      {
        name: delegate.username,
        blsKey: INVALID_BLS_KEY.toString('hex'),
        proofOfPossession: INVALID_PROOF_OF_POSSESSION.toString('hex'),
        generatorKey: generatorKey.toString('hex'),
        lastGeneratedHeight: delegate.lastForgedHeight,
        isBanned: true,
        reportMisbehaviorHeights: delegate.pomHeights,
        consecutiveMissedBlocks: delegate.consecutiveMissedBlocks,
        lastCommissionIncreaseHeight: this.snapshotHeight,
        commission: INITIAL_COMMISSION,
        sharingCoefficients: this.coefficientsJson,
        address: lisk32,
      },
      {
        address: account.address,
        name: delegate.username,
        blsKey: INVALID_BLS_KEY,
        proofOfPossession: INVALID_PROOF_OF_POSSESSION,
        generatorKey,
        lastGeneratedHeight: delegate.lastForgedHeight,
        isBanned: true,
        reportMisbehaviorHeights: delegate.pomHeights,
        consecutiveMissedBlocks: delegate.consecutiveMissedBlocks,
        commission: INITIAL_COMMISSION,
        lastCommissionIncreaseHeight: this.snapshotHeight,
        sharingCoefficients: this.coefficients,
      },
    );
  }
}

/**
 * The first v4 validators: the v3 vote-weight list of round r − 2, r = ⌈snapshot / 103⌉, cut
 * to its first 101 delegates, in address order. lisk-migrator means to drop banned delegates
 * here but its lookup never matches, and v3 never lists banned delegates anyway: no filter.
 * A missing or empty list is lisk-migrator's error.
 */
export function initValidatorAddresses(voteWeights: readonly V3VoteWeights[], snapshotHeight: number): Buffer[] {
  const round = Math.ceil(snapshotHeight / ROUND_LENGTH) - 2;
  const list = voteWeights.find((entry) => entry.round === round);
  if (list === undefined || list.delegates.length === 0) {
    throw new MigrationError(
      'MIGRATION_VOTE_WEIGHTS_MISSING',
      `Delegate vote weights for round ${round} (r-2) unavailable, cannot proceed.`,
    );
  }
  return list.delegates
    .slice(0, NUMBER_OF_INIT_VALIDATORS)
    .map((delegate) => delegate.address)
    .sort(compareBytes);
}
