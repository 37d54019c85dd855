/**
 * The devnet's keys, derived from its public development passphrases exactly as
 * `lisk-core keys:create` derives them (docs/protocol/keys.md), and written as a Lisk
 * keys.json so the node's generator (and Lisk Core) can load them unchanged.
 */
import {
  addressFromPublicKey,
  deriveLegacyValidatorKeys,
  deriveValidatorKeys,
  legacyKeyPairFromPassphrase,
  type ValidatorKeys,
} from '../../crypto/index.js';
import { keysFileEntry, type KeysFile } from '../../config/keys-file-entry.js';
import { legacyAddressOfPublicKey } from '../../modules/legacy/index.js';
import type { DevnetSpec } from './devnet-spec.js';

export interface DevnetLegacyAccount {
  /** The pre-v4 account key: SHA-256 of the passphrase as Ed25519 seed. */
  readonly publicKey: Buffer;
  /** 8-byte legacy address (the key `legacy:reclaimLSK` looks up). */
  readonly legacyAddress: Buffer;
  /** The v4 address reclaimed tokens go to. */
  readonly address: Buffer;
}

export interface DevnetKeys {
  /**
   * Validator n = account index n of the validator passphrase, in index order, except validator
   * spec.legacyValidatorIndex: the "legacy" entry of `keys:create --add-legacy` for that
   * passphrase (account and generator key = its legacy key, BLS key at index 99999).
   */
  readonly validators: readonly ValidatorKeys[];
  /** Funded accounts: account index n of the account passphrase (account key only matters). */
  readonly accounts: readonly ValidatorKeys[];
  readonly legacy: DevnetLegacyAccount;
}

/** Derives every devnet key (a few hundred milliseconds: BLS keys and proofs of possession). */
export function deriveDevnetKeys(spec: DevnetSpec): DevnetKeys {
  const validatorCount = spec.activeValidators + spec.standbyValidators;
  const derive = (passphrase: string, count: number) =>
    Array.from({ length: count }, (_, accountIndex) => deriveValidatorKeys(passphrase, { chainIndex: spec.keyChainIndex, accountIndex }));
  const legacyKey = legacyKeyPairFromPassphrase(spec.legacyPassphrase);
  const validators = Array.from({ length: validatorCount }, (_, index) =>
    index === spec.legacyValidatorIndex
      ? deriveLegacyValidatorKeys(spec.validatorPassphrase, spec.keyChainIndex)
      : deriveValidatorKeys(spec.validatorPassphrase, { chainIndex: spec.keyChainIndex, accountIndex: index }),
  );
  return {
    validators,
    accounts: derive(spec.accountPassphrase, spec.devAccounts),
    legacy: {
      publicKey: legacyKey.publicKey,
      legacyAddress: legacyAddressOfPublicKey(legacyKey.publicKey),
      address: addressFromPublicKey(legacyKey.publicKey),
    },
  };
}

/**
 * The dev validators' keys.json (`generator.keys.fromFile` of the devnet preset), the legacy
 * validator included: once it has registered these keys the node forges its slots too.
 */
export function devValidatorsKeysFile(keys: Pick<DevnetKeys, 'validators'>): KeysFile {
  return { keys: keys.validators.map((validator) => keysFileEntry(validator)) };
}
