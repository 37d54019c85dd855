/**
 * The devnet's genesis assets (module states at height 0), in the genesis assets file format:
 * built as decoded values, then turned into codec JSON with each module's own genesis schema,
 * so the file is exactly what `genesis:create` reads back.
 *
 * - pos: 7 init validators with equal self-stakes and 2 standby validators with smaller ones;
 *   every stake is its validator's own (the tokens are locked under `pos` in the token asset).
 *   As a migrated Lisk Core v4 mainchain has them (docs/protocol/legacy.md), every validator is
 *   banned and has the all-zero BLS key and proof of possession: with pos `useInvalidBLSKey`
 *   lisk-sdk registers every genesis validator without a BLS key (it cannot give some validators
 *   one and not others), and `legacy:registerKeys`, the only command that sets a BLS key later,
 *   lifts a ban and refuses a validator that is not banned. The generator key is the one the
 *   validator keeps: its dev generator key, or for the legacy validator its legacy account key
 *   (what the migration takes from the v3 blocks and what `keys:create --add-legacy` reuses).
 * - token: the validators, the funded dev accounts, the legacy key's v4 address (enough for the
 *   reclaim fee), and the legacy reserve, whose `legacy` lock equals the legacy accounts' total
 *   (lisk-core's legacy genesis rule).
 * - legacy: one pre-v4 account whose tokens can be reclaimed with `legacy:reclaimLSK`.
 * - interoperability: the mainchain's own name and nonce, no sidechains.
 */
import type { Schema } from '../../codec/index.js';
import { ValidationError } from '../../errors.js';
import { codec } from '../../codec/index.js';
import { addressFromPublicKey, type ValidatorKeys } from '../../crypto/index.js';
import { genesisInteroperabilitySchema } from '../../modules/interoperability/schemas.js';
import { ADDRESS_LEGACY_RESERVE, genesisLegacyStoreSchema } from '../../modules/legacy/index.js';
import { genesisAssetSchema as genesisPosSchema } from '../../modules/pos/schemas.js';
import { genesisTokenAssetSchema } from '../../modules/token/schemas.js';
import type { GenesisAssetsFile } from '../genesis-assets-file.js';
import type { DevnetKeys } from './devnet-keys.js';
import type { DevnetSpec } from './devnet-spec.js';

interface LockedBalance {
  module: string;
  amount: bigint;
}

export interface UserEntry {
  address: Buffer;
  tokenID: Buffer;
  availableBalance: bigint;
  lockedBalances: LockedBalance[];
}

const byAddress = (a: { address: Buffer }, b: { address: Buffer }): number => a.address.compare(b.address);

/** lisk-sdk's INVALID_BLS_KEY placeholder and the matching empty proof of possession. */
const ZERO_BLS_KEY = Buffer.alloc(48);
const ZERO_PROOF_OF_POSSESSION = Buffer.alloc(96);

/** The pos name of validator `index`. */
export function devnetValidatorName(spec: { readonly legacyValidatorIndex?: number }, index: number): string {
  return index === spec.legacyValidatorIndex ? 'basalt_dev_legacy' : `basalt_dev_${index}`;
}

export function devnetAsset(module: string, schema: Schema, value: object): GenesisAssetsFile['assets'][number] {
  return { module, data: codec.toJSON(schema, value), schema };
}

/** What a devnet's pos and token assets need of its spec (the mainchain and the sidechain devnet). */
export type DevnetStakesSpec = Pick<
  DevnetSpec,
  | 'activeValidators'
  | 'initRounds'
  | 'activeSelfStake'
  | 'standbySelfStake'
  | 'validatorBalance'
  | 'validatorCommission'
  | 'devAccountBalance'
>;

export interface DevnetValidator {
  readonly keys: ValidatorKeys;
  readonly address: Buffer;
  readonly name: string;
  readonly selfStake: bigint;
}

/** The validators with their addresses, pos names and self-stakes (init validators first). */
export function devnetValidators(
  spec: DevnetStakesSpec & { legacyValidatorIndex?: number },
  keys: readonly ValidatorKeys[],
): DevnetValidator[] {
  return keys.map((validator, index) => ({
    keys: validator,
    address: addressFromPublicKey(validator.publicKey),
    name: devnetValidatorName(spec, index),
    selfStake: index < spec.activeValidators ? spec.activeSelfStake : spec.standbySelfStake,
  }));
}

/**
 * The pos asset: every validator staking on itself, the init validators being the first
 * `activeValidators`. With `keysRegistered` each validator has its BLS key and proof of
 * possession and is eligible; without, it has lisk-sdk's zero placeholders and starts banned
 * (a migrated chain's validators, see the header).
 */
export function devnetPosValue(spec: DevnetStakesSpec, validators: readonly DevnetValidator[], options: { keysRegistered: boolean }) {
  const sorted = [...validators].sort(byAddress);
  return {
    validators: sorted.map((validator) => ({
      address: validator.address,
      name: validator.name,
      blsKey: options.keysRegistered ? validator.keys.blsKey : ZERO_BLS_KEY,
      proofOfPossession: options.keysRegistered ? validator.keys.blsProofOfPossession : ZERO_PROOF_OF_POSSESSION,
      generatorKey: validator.keys.generatorKey,
      lastGeneratedHeight: 0,
      isBanned: !options.keysRegistered,
      reportMisbehaviorHeights: [],
      consecutiveMissedBlocks: 0,
      commission: spec.validatorCommission,
      lastCommissionIncreaseHeight: 0,
      sharingCoefficients: [],
    })),
    stakers: sorted.map((validator) => ({
      address: validator.address,
      stakes: [{ validatorAddress: validator.address, amount: validator.selfStake, sharingCoefficients: [] }],
      pendingUnlocks: [],
    })),
    genesisData: {
      initRounds: spec.initRounds,
      initValidators: validators
        .slice(0, spec.activeValidators)
        .map((validator) => validator.address)
        .sort((a, b) => a.compare(b)),
    },
  };
}

/** Token users of a devnet: the validators (their self-stakes locked under pos) and the funded accounts. */
export function devnetUsers(
  spec: DevnetStakesSpec,
  validators: readonly DevnetValidator[],
  accounts: readonly ValidatorKeys[],
  tokenID: Buffer,
): UserEntry[] {
  return [
    ...validators.map((validator) => ({
      address: validator.address,
      tokenID,
      availableBalance: spec.validatorBalance,
      lockedBalances: [{ module: 'pos', amount: validator.selfStake }],
    })),
    ...accounts.map((account) => ({
      address: addressFromPublicKey(account.publicKey),
      tokenID,
      availableBalance: spec.devAccountBalance,
      lockedBalances: [],
    })),
  ];
}

/** The token asset of `users` (sorted by address) with the total supply of the one token. */
export function devnetTokenValue(users: readonly UserEntry[], tokenID: Buffer) {
  const totalSupply = users.reduce(
    (sum, user) => sum + user.availableBalance + user.lockedBalances.reduce((locked, entry) => locked + entry.amount, 0n),
    0n,
  );
  return {
    userSubstore: [...users].sort(byAddress),
    supplySubstore: [{ tokenID, totalSupply }],
    escrowSubstore: [],
    supportedTokensSubstore: [],
  };
}

/** The devnet genesis assets for a chain ID (the LSK token is chainID ‖ 00000000). */
export function devnetGenesisAssets(spec: DevnetSpec, keys: DevnetKeys, chainID: Buffer): GenesisAssetsFile {
  const validatorCount = spec.activeValidators + spec.standbyValidators;
  if (
    !Number.isInteger(spec.legacyValidatorIndex) ||
    spec.legacyValidatorIndex < spec.activeValidators ||
    spec.legacyValidatorIndex >= validatorCount
  ) {
    // See DevnetSpec.legacyValidatorIndex: an init validator without keys would miss its slots.
    throw new ValidationError([`.legacyValidatorIndex: must be a standby validator (${spec.activeValidators}..${validatorCount - 1})`]);
  }
  const tokenID = Buffer.concat([chainID, Buffer.alloc(4)]);
  const validators = devnetValidators(spec, keys.validators);
  const posValue = devnetPosValue(spec, validators, { keysRegistered: false });
  const users: UserEntry[] = [
    ...devnetUsers(spec, validators, keys.accounts, tokenID),
    { address: keys.legacy.address, tokenID, availableBalance: spec.legacyFeeBalance, lockedBalances: [] },
    { address: ADDRESS_LEGACY_RESERVE, tokenID, availableBalance: 0n, lockedBalances: [{ module: 'legacy', amount: spec.legacyBalance }] },
  ];
  const tokenValue = devnetTokenValue(users, tokenID);

  const legacyValue = { accounts: [{ address: keys.legacy.legacyAddress, balance: spec.legacyBalance }] };
  const interoperabilityValue = {
    ownChainName: 'lisk_mainchain',
    ownChainNonce: 0n,
    chainInfos: [],
    terminatedStateAccounts: [],
    terminatedOutboxAccounts: [],
  };

  // Sorted by module name, as they end up in the block.
  return {
    assets: [
      devnetAsset('interoperability', genesisInteroperabilitySchema, interoperabilityValue),
      devnetAsset('legacy', genesisLegacyStoreSchema, legacyValue),
      devnetAsset('pos', genesisPosSchema, posValue),
      devnetAsset('token', genesisTokenAssetSchema, tokenValue),
    ],
  };
}
