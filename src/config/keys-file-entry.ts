/**
 * The entries of Lisk's validator key file, `keys.json` (docs/protocol/keys.md), with members in
 * the order Lisk's tools write them: the format keys:create writes and the devnet's key file uses.
 */
import type { EncryptedMessageObject, ValidatorKeys } from '../crypto/index.js';

/** The `plain` section of an entry. */
export interface PlainKeysJSON {
  generatorKeyPath?: string;
  generatorKey: string;
  generatorPrivateKey: string;
  blsKeyPath?: string;
  blsKey: string;
  blsProofOfPossession?: string;
  blsPrivateKey: string;
}

/** One entry of `keys`. `encrypted` is `{}` when the file is not encrypted. */
export interface KeysFileEntry {
  address: string;
  keyPath?: string;
  publicKey?: string;
  privateKey?: string;
  plain?: PlainKeysJSON;
  encrypted?: Partial<EncryptedMessageObject>;
}

export interface KeysFile {
  keys: KeysFileEntry[];
}

/** An entry as keys:create writes it, from derived keys. */
export function keysFileEntry(keys: ValidatorKeys, encrypted?: EncryptedMessageObject): KeysFileEntry {
  return {
    address: keys.address,
    keyPath: keys.keyPath,
    publicKey: keys.publicKey.toString('hex'),
    privateKey: keys.privateKey.toString('hex'),
    plain: {
      generatorKeyPath: keys.generatorKeyPath,
      generatorKey: keys.generatorKey.toString('hex'),
      generatorPrivateKey: keys.generatorPrivateKey.toString('hex'),
      blsKeyPath: keys.blsKeyPath,
      blsKey: keys.blsKey.toString('hex'),
      blsProofOfPossession: keys.blsProofOfPossession.toString('hex'),
      blsPrivateKey: keys.blsPrivateKey.toString('hex'),
    },
    encrypted: encrypted ?? {},
  };
}
