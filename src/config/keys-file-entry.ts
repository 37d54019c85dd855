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

const hexOf = (length: number) => ({ type: 'string', format: 'hex', minLength: 2 * length, maxLength: 2 * length });

/**
 * The one JSON schema of a keys.json, for every reader: the node at start-up
 * (`generator.keys.fromFile`) and the keys:* commands. Keys must have their exact lengths and
 * every entry must carry `plain` or `encrypted`. Lisk's own files pass: their unencrypted
 * entries hold an empty `encrypted` object next to the plain keys, and members the schema does
 * not name (`generatorKeyPath`, `blsKeyPath`) are allowed.
 */
export const keysFileSchema = {
  type: 'object',
  required: ['keys'],
  properties: {
    keys: {
      type: 'array',
      items: {
        type: 'object',
        required: ['address'],
        properties: {
          address: { type: 'string', format: 'lisk32' },
          keyPath: { type: 'string' },
          publicKey: hexOf(32),
          privateKey: hexOf(64),
          plain: {
            type: 'object',
            required: ['generatorKey', 'generatorPrivateKey', 'blsKey', 'blsPrivateKey'],
            properties: {
              generatorKey: hexOf(32),
              generatorPrivateKey: hexOf(64),
              blsKey: hexOf(48),
              blsPrivateKey: hexOf(32),
              blsProofOfPossession: hexOf(96),
            },
          },
          encrypted: { type: 'object' },
        },
        anyOf: [{ required: ['plain'] }, { required: ['encrypted'] }],
      },
    },
  },
} as const;

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
