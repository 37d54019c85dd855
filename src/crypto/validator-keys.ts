/**
 * The keys `lisk-core keys:create` derives for one validator from a passphrase
 * (LIP 0066; docs/protocol/keys.md): account key m/44'/134'/n', generator key
 * m/25519'/134'/<chainid>'/n', BLS key m/12381/134/<chainid>/n with its proof of possession.
 * <chainid> is the small integer of the CLI's --chainid flag (0 mainnet, 1 testnet, 4 in the
 * devnet examples), not the uint32 of the 4-byte chain ID that LIP 0066 describes.
 */
import { lisk32FromPublicKey } from './address.js';
import { mnemonicToSeed } from './bip39.js';
import { blsPublicKeyFromSecretKey } from './bls.js';
import { popProve } from './bls-pop.js';
import { blsSecretKeyFromBip39Seed } from './eip2333.js';
import { ed25519KeyPairFromBip39Seed } from './ed25519-derivation.js';
import { legacyKeyPairFromPassphrase } from './legacy-keys.js';

export interface ValidatorKeyIndexes {
  /** The --chainid integer inserted into the generator and BLS paths. */
  readonly chainIndex: number;
  /** n: the account index (offset + i in keys:create). */
  readonly accountIndex: number;
}

/** One entry of keys.json, as bytes (field names follow the file). */
export interface ValidatorKeys {
  readonly keyPath: string;
  readonly address: string;
  readonly publicKey: Buffer;
  readonly privateKey: Buffer;
  readonly generatorKeyPath: string;
  readonly generatorKey: Buffer;
  readonly generatorPrivateKey: Buffer;
  readonly blsKeyPath: string;
  readonly blsKey: Buffer;
  readonly blsPrivateKey: Buffer;
  readonly blsProofOfPossession: Buffer;
}

/** The BLS index the CLI uses for the key that accompanies a legacy account (--add-legacy). */
export const LEGACY_BLS_ACCOUNT_INDEX = 99999;

function blsPart(bip39Seed: Buffer, blsKeyPath: string) {
  const blsPrivateKey = blsSecretKeyFromBip39Seed(bip39Seed, blsKeyPath);
  return {
    blsKeyPath,
    blsKey: blsPublicKeyFromSecretKey(blsPrivateKey),
    blsPrivateKey,
    blsProofOfPossession: popProve(blsPrivateKey),
  };
}

/** All keys of validator n, as keys:create writes them (lisk-commander keys/create.ts). */
export function deriveValidatorKeys(passphrase: string, indexes: ValidatorKeyIndexes): ValidatorKeys {
  const { chainIndex, accountIndex } = indexes;
  const seed = mnemonicToSeed(passphrase);
  const keyPath = `m/44'/134'/${accountIndex}'`;
  const generatorKeyPath = `m/25519'/134'/${chainIndex}'/${accountIndex}'`;
  const account = ed25519KeyPairFromBip39Seed(seed, keyPath);
  const generator = ed25519KeyPairFromBip39Seed(seed, generatorKeyPath);
  return {
    keyPath,
    address: lisk32FromPublicKey(account.publicKey),
    publicKey: account.publicKey,
    privateKey: account.privateKey,
    generatorKeyPath,
    generatorKey: generator.publicKey,
    generatorPrivateKey: generator.privateKey,
    ...blsPart(seed, `m/12381/134/${chainIndex}/${accountIndex}`),
  };
}

/**
 * The "legacy" entry of keys:create --add-legacy: the account key is
 * the legacy sha256(passphrase) key, reused as generator key; both paths read "legacy"; the BLS
 * key sits at index 99999.
 */
export function deriveLegacyValidatorKeys(passphrase: string, chainIndex: number): ValidatorKeys {
  const account = legacyKeyPairFromPassphrase(passphrase);
  return {
    keyPath: 'legacy',
    address: lisk32FromPublicKey(account.publicKey),
    publicKey: account.publicKey,
    privateKey: account.privateKey,
    generatorKeyPath: 'legacy',
    generatorKey: account.publicKey,
    generatorPrivateKey: account.privateKey,
    ...blsPart(mnemonicToSeed(passphrase), `m/12381/134/${chainIndex}/${LEGACY_BLS_ACCOUNT_INDEX}`),
  };
}
