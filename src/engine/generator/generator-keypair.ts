import { addressFromPublicKey, blsPublicKeyFromSecretKey, publicKeyFromPrivateKey } from '../../crypto/index.js';
import { BasaltError } from '../../errors.js';
import type { PlainGeneratorKeys } from './generator-store.js';

/** Generator keys that do not belong together: wrong lengths, or private keys not giving the public ones. */
export class GeneratorKeysError extends BasaltError {
  constructor(message: string) {
    super('ERR_GENERATOR_KEYS', message);
  }
}

/** The keys a local validator generates and certifies with. Never logged, never sent. */
export interface GeneratorKeypair {
  readonly address: Buffer;
  readonly generatorKey: Buffer;
  /** 64 bytes: Ed25519 seed ‖ public key. */
  readonly generatorPrivateKey: Buffer;
  readonly blsKey: Buffer;
  readonly blsSecretKey: Buffer;
}

/**
 * Checks that stored plain keys are consistent (the private keys give the public ones), so a
 * mistyped key file fails at start instead of producing blocks every other node rejects.
 */
export function keypairFromPlainKeys(address: Buffer, keys: PlainGeneratorKeys): GeneratorKeypair {
  if (keys.generatorPrivateKey.length !== 64 || keys.generatorKey.length !== 32) {
    throw new GeneratorKeysError(`Generator keys of ${address.toString('hex')} have wrong lengths.`);
  }
  if (!publicKeyFromPrivateKey(keys.generatorPrivateKey).equals(keys.generatorKey)) {
    throw new GeneratorKeysError(`The generator private key of ${address.toString('hex')} does not match its generator key.`);
  }
  if (keys.blsPrivateKey.length !== 32 || !blsPublicKeyFromSecretKey(keys.blsPrivateKey).equals(keys.blsKey)) {
    throw new GeneratorKeysError(`The BLS private key of ${address.toString('hex')} does not match its BLS key.`);
  }
  return {
    address,
    generatorKey: keys.generatorKey,
    generatorPrivateKey: keys.generatorPrivateKey,
    blsKey: keys.blsKey,
    blsSecretKey: keys.blsPrivateKey,
  };
}

/** The validator address a keys.json entry belongs to: the hash of its account public key. */
export function accountAddress(publicKey: Buffer): Buffer {
  return addressFromPublicKey(publicKey);
}
