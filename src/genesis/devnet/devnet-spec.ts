/**
 * What Basalt's `devnet` genesis is made of. Everything in config/devnet/ except config.json is
 * generated from these values (write-devnet-files.ts), so the devnet is reproducible from source.
 *
 * THE PASSPHRASES BELOW ARE PUBLIC AND INSECURE. They exist so that anyone can run and script a
 * local chain; any account derived from them must be assumed to be controlled by everyone.
 * Each is the BIP-39 mnemonic (24 words) of the entropy SHA-256("<label>") for the label shown.
 *
 * The devnet is shaped like a migrated Lisk Core v4 mainchain in miniature (pos
 * `useInvalidBLSKey`): every genesis validator starts banned and without a BLS key, the
 * bootstrap transactions register the keys of all but the legacy validator, and the legacy
 * validator registers its own with `transaction:create legacy registerKeys`.
 */

export interface DevnetSpec {
  /** Genesis timestamp (Unix seconds), fixed so the block is reproducible. */
  readonly timestamp: number;
  /** The --chainid integer of the generator and BLS key paths (Lisk Core's devnet uses 4). */
  readonly keyChainIndex: number;
  readonly validatorPassphrase: string;
  readonly accountPassphrase: string;
  readonly legacyPassphrase: string;
  /** Validators 0..activeValidators-1 are the init (active) validators, the rest are standby. */
  readonly activeValidators: number;
  readonly standbyValidators: number;
  /**
   * The validator migrated from Lisk Core 3.x that still has to register its keys: its account
   * is the legacy key of the validator passphrase (SHA-256 of the passphrase as Ed25519 seed),
   * and it is left out of the bootstrap transactions. It must be a standby validator (index >=
   * activeValidators): lisk-sdk gives the init validators their slots during the init rounds
   * whether they are banned or not, so a key-less init validator would leave a slot of every
   * round empty; a banned standby validator has no slot until it registers (pos elects only
   * from the eligible-validators index, which a ban empties).
   */
  readonly legacyValidatorIndex: number;
  readonly initRounds: number;
  /** Beddows (1 LSK = 10^8 beddows). */
  readonly activeSelfStake: bigint;
  readonly standbySelfStake: bigint;
  readonly validatorBalance: bigint;
  readonly validatorCommission: number;
  readonly devAccounts: number;
  readonly devAccountBalance: bigint;
  readonly legacyBalance: bigint;
  /** Given to the legacy key's v4 address: a reclaim transaction pays its fee from there. */
  readonly legacyFeeBalance: bigint;
}

const LSK = 100_000_000n;

export const DEVNET_SPEC: DevnetSpec = {
  // 2025-01-01T00:00:00Z
  timestamp: 1_735_689_600,
  keyChainIndex: 4,
  // label "basalt devnet validators"
  validatorPassphrase:
    'cash rather pizza south catch ensure planet sorry method million affair nasty enter pottery smooth begin record issue olive pen digital laptop oppose report',
  // label "basalt devnet accounts"
  accountPassphrase:
    'balcony timber spider replace olympic innocent obvious slogan select tunnel health adjust setup fork scrub lion coconut wife ice color process access minute palace',
  // label "basalt devnet legacy account"
  legacyPassphrase:
    'admit snow cruel stable ring kangaroo skirt tumble brief beach wing label equip ghost episode already gloom step garlic coffee photo gentle ready omit',
  activeValidators: 7,
  standbyValidators: 2,
  legacyValidatorIndex: 8,
  initRounds: 3,
  // Weight 10 000 LSK each: the 7 active validators outrank the standby ones (2 000 LSK), which
  // are still above the pos minWeightStandby (1 000 LSK), so rounds have 7 + 2 validators.
  activeSelfStake: 10_000n * LSK,
  standbySelfStake: 2_000n * LSK,
  validatorBalance: 10_000n * LSK,
  validatorCommission: 1_000,
  devAccounts: 5,
  devAccountBalance: 1_000_000n * LSK,
  legacyBalance: 5_000n * LSK,
  legacyFeeBalance: 10n * LSK,
};
