/**
 * The keys of the validators this node generates for, as the operator hands them over: stored
 * encrypted keys unlocked with a password, and new keys checked before they are stored
 * (lisk-sdk v6.1.0 `framework/src/engine/generator/endpoint.ts`, `updateStatus` and `setKeys`).
 *
 * Every message is free of secrets: no password, passphrase or private key reaches an error.
 */
import { codec } from '../../codec/index.js';
import { decryptMessageWithPassword, encodeLisk32, type KeyDerivationFunction } from '../../crypto/index.js';
import { BasaltError, DecryptionError, InvalidParamsError, NotFoundError } from '../../errors.js';
import { keypairFromPlainKeys, type GeneratorKeypair } from './generator-keypair.js';
import {
  decodeEncryptedKeys,
  encodeEncryptedKeys,
  plainGeneratorKeysSchema,
  type GeneratorStore,
  type PlainGeneratorKeys,
  type StoredEncryptedKeys,
} from './generator-store.js';

/** lisk-sdk's message for a wrong password (the text of Node's GCM authentication failure). */
export const WRONG_PASSWORD_MESSAGE = 'Unsupported state or unable to authenticate data';

/** Keys handed to the node for one validator: plain, or an encrypted key object (stored without `mac`). */
export type NewGeneratorKeys =
  | { readonly type: 'plain'; readonly data: PlainGeneratorKeys }
  | { readonly type: 'encrypted'; readonly data: StoredEncryptedKeys };

/**
 * The plain keys of `address`, decrypting stored encrypted ones with `password`. Throws
 * NotFoundError when the node holds no keys for it, InvalidParamsError for a wrong password or
 * keys that do not decrypt to generator keys.
 */
export async function unlockGeneratorKeys(
  store: Pick<GeneratorStore, 'getKeys'>,
  address: Buffer,
  password: string,
): Promise<PlainGeneratorKeys> {
  const stored = store.getKeys(address);
  if (stored === undefined) throw new NotFoundError(`Generator with address: ${encodeLisk32(address)} does not have keys registered.`);
  if (stored.type === 'plain') return stored.data;
  const encrypted = decodeEncryptedKeys(stored.data);
  let plaintext: Buffer;
  try {
    plaintext = await decryptMessageWithPassword({ ...encrypted, kdf: encrypted.kdf as KeyDerivationFunction }, password);
  } catch (error) {
    if (error instanceof DecryptionError) throw new InvalidParamsError(WRONG_PASSWORD_MESSAGE);
    // FormatError (damaged stored object) keeps its own, secret-free message.
    if (error instanceof BasaltError) {
      throw new InvalidParamsError(`The stored encrypted keys of ${encodeLisk32(address)} cannot be decrypted: ${error.message}`);
    }
    throw error;
  }
  try {
    return codec.decode<PlainGeneratorKeys>(plainGeneratorKeysSchema, plaintext);
  } catch {
    throw new InvalidParamsError(`The decrypted keys of ${encodeLisk32(address)} are not generator keys.`);
  } finally {
    plaintext.fill(0);
  }
}

/** The keypair of unlocked keys; InvalidParamsError when their private halves do not give the public ones. */
export function unlockedKeypair(address: Buffer, keys: PlainGeneratorKeys): GeneratorKeypair {
  try {
    return keypairFromPlainKeys(address, keys);
  } catch (error) {
    throw new InvalidParamsError(`The keys of ${encodeLisk32(address)} are inconsistent: ${(error as Error).message}`);
  }
}

/**
 * Stores new keys for `address`, replacing any it had. Plain keys whose private halves do not
 * give the public ones are refused with InvalidParamsError (lisk-sdk stores them and fails later,
 * at generation); encrypted ones can only be checked once unlocked.
 */
export function storeGeneratorKeys(store: Pick<GeneratorStore, 'setKeys'>, address: Buffer, keys: NewGeneratorKeys): void {
  if (keys.type === 'plain') {
    try {
      keypairFromPlainKeys(address, keys.data);
    } catch (error) {
      throw new InvalidParamsError((error as Error).message);
    }
    store.setKeys(address, { type: 'plain', data: keys.data });
  } else {
    store.setKeys(address, { type: 'encrypted', data: encodeEncryptedKeys(keys.data) });
  }
}
