import type { Database, RootDatabase } from 'lmdb';
import { codec, objectField, objectSchema, type Schema } from '../../codec/index.js';
import { StoreError } from '../../errors.js';
import { writeTransaction } from '../../state/write-transaction.js';

/** What a validator last generated (lisk-sdk previouslyGeneratedInfo). */
export interface GeneratedInfo {
  readonly height: number;
  readonly maxHeightPrevoted: number;
  readonly maxHeightGenerated: number;
}

/**
 * A validator's stored keys: plain keys, or the storage bytes of an encrypted key object
 * (`encodeEncryptedKeys` / `decodeEncryptedKeys`).
 */
export type StoredGeneratorKeys =
  | { readonly type: 'plain'; readonly data: PlainGeneratorKeys }
  | { readonly type: 'encrypted'; readonly data: Buffer };

export interface PlainGeneratorKeys {
  readonly generatorKey: Buffer;
  /** 64 bytes: Ed25519 seed ‖ public key. */
  readonly generatorPrivateKey: Buffer;
  readonly blsKey: Buffer;
  readonly blsPrivateKey: Buffer;
}

export const ZERO_GENERATED_INFO: GeneratedInfo = { height: 0, maxHeightPrevoted: 0, maxHeightGenerated: 0 };

export const generatedInfoSchema: Schema = objectSchema('/node/generator/previously_generated_info', {
  height: { dataType: 'uint32', fieldNumber: 1 },
  maxHeightPrevoted: { dataType: 'uint32', fieldNumber: 2 },
  maxHeightGenerated: { dataType: 'uint32', fieldNumber: 3 },
});

export const plainGeneratorKeysSchema: Schema = objectSchema('/generator/plainGeneratorKeys', {
  generatorKey: { dataType: 'bytes', fieldNumber: 1 },
  generatorPrivateKey: { dataType: 'bytes', fieldNumber: 2 },
  blsKey: { dataType: 'bytes', fieldNumber: 3 },
  blsPrivateKey: { dataType: 'bytes', fieldNumber: 4 },
});

/**
 * How the node stores an encrypted key object (lisk-sdk generator `encryptedMessageSchema`;
 * docs/protocol/keys.md): the EncryptedMessageObject with its hex values kept as
 * strings and WITHOUT `mac` (the SDK drops it here; decryption never needs it).
 */
export const encryptedMessageStorageSchema: Schema = objectSchema('/generator/encryptedMessage', {
  version: { dataType: 'string', fieldNumber: 1 },
  ciphertext: { dataType: 'string', fieldNumber: 2 },
  kdf: { dataType: 'string', fieldNumber: 3 },
  kdfparams: objectField(4, {
    parallelism: { dataType: 'uint32', fieldNumber: 1 },
    iterations: { dataType: 'uint32', fieldNumber: 2 },
    memorySize: { dataType: 'uint32', fieldNumber: 3 },
    salt: { dataType: 'string', fieldNumber: 4 },
  }),
  cipher: { dataType: 'string', fieldNumber: 5 },
  cipherparams: objectField(6, {
    iv: { dataType: 'string', fieldNumber: 1 },
    tag: { dataType: 'string', fieldNumber: 2 },
  }),
});

const hexString = { type: 'string', format: 'hex' } as const;
const uint32 = { type: 'integer', minimum: 0, maximum: 0xffff_ffff } as const;

/**
 * JSON schema of an encrypted key object as `generator_setKeys` and keys files carry it
 * (lisk-sdk setKeysRequestSchema's encrypted branch, with the `memorySize` typo of its schema
 * fixed and every member the storage needs required). `mac` may be present and is ignored.
 */
export const encryptedKeysJsonSchema = {
  type: 'object',
  required: ['version', 'ciphertext', 'kdf', 'kdfparams', 'cipher', 'cipherparams'],
  properties: {
    version: { type: 'string' },
    ciphertext: hexString,
    mac: { type: 'string' },
    kdf: { type: 'string', enum: ['argon2id', 'PBKDF2'] },
    kdfparams: {
      type: 'object',
      required: ['parallelism', 'iterations', 'memorySize', 'salt'],
      properties: { parallelism: uint32, iterations: uint32, memorySize: uint32, salt: hexString },
    },
    cipher: { type: 'string', enum: ['aes-128-gcm'] },
    cipherparams: {
      type: 'object',
      required: ['iv', 'tag'],
      properties: { iv: hexString, tag: hexString },
    },
  },
} as const;

/** JSON schema of plain generator keys as hex (lisk-sdk setKeysRequestSchema's plain branch). */
export const plainKeysJsonSchema = {
  type: 'object',
  required: ['generatorKey', 'generatorPrivateKey', 'blsKey', 'blsPrivateKey'],
  properties: {
    generatorKey: { type: 'string', format: 'hex', minLength: 64, maxLength: 64 },
    generatorPrivateKey: { type: 'string', format: 'hex', minLength: 128, maxLength: 128 },
    blsKey: { type: 'string', format: 'hex', minLength: 96, maxLength: 96 },
    blsPrivateKey: { type: 'string', format: 'hex', minLength: 64, maxLength: 64 },
  },
} as const;

/** An encrypted key object as stored (no `mac`), field order of the storage schema. */
export interface StoredEncryptedKeys {
  readonly version: string;
  readonly ciphertext: string;
  readonly kdf: string;
  readonly kdfparams: { readonly parallelism: number; readonly iterations: number; readonly memorySize: number; readonly salt: string };
  readonly cipher: string;
  readonly cipherparams: { readonly iv: string; readonly tag: string };
}

/**
 * The storage bytes of an encrypted key object. Members the schema does
 * not know (`mac`) are dropped, as lisk-sdk's codec drops them.
 */
export function encodeEncryptedKeys(encrypted: StoredEncryptedKeys): Buffer {
  const { version, ciphertext, kdf, kdfparams, cipher, cipherparams } = encrypted;
  return codec.encode(encryptedMessageStorageSchema, {
    version,
    ciphertext,
    kdf,
    kdfparams: {
      parallelism: kdfparams.parallelism,
      iterations: kdfparams.iterations,
      memorySize: kdfparams.memorySize,
      salt: kdfparams.salt,
    },
    cipher,
    cipherparams: { iv: cipherparams.iv, tag: cipherparams.tag },
  });
}

/** The encrypted key object stored as `bytes` (inverse of encodeEncryptedKeys). */
export function decodeEncryptedKeys(bytes: Uint8Array): StoredEncryptedKeys {
  return codec.decode<StoredEncryptedKeys>(encryptedMessageStorageSchema, bytes);
}

const storedKeysSchema: Schema = {
  $id: '/generator/generatorKeysSchema',
  type: 'object',
  required: ['type', 'data'],
  properties: { type: { dataType: 'string', fieldNumber: 1 }, data: { dataType: 'bytes', fieldNumber: 2 } },
};

/** The named database of the node's LMDB environment that holds the generator store. */
export const GENERATOR_DB_NAME = 'generator';

/** lisk-sdk generator.db key prefixes: generated info and keys, each followed by the address. */
const INFO_PREFIX = Buffer.from([0, 0, 0, 0]);
const KEYS_PREFIX = Buffer.from([0, 0, 0, 1]);

/**
 * The generator's off-chain data (lisk-sdk generator.db): per validator
 * address the last generated info, which keeps the node from signing contradicting headers
 * after a restart, and the generator keys. Written in its own small LMDB transactions, durably.
 */
export class GeneratorStore {
  private readonly db: Database<Buffer, Buffer>;

  constructor(private readonly env: RootDatabase) {
    this.db = env.openDB<Buffer, Buffer>(GENERATOR_DB_NAME, { keyEncoding: 'binary', encoding: 'binary' });
  }

  getInfo(address: Buffer): GeneratedInfo | undefined {
    const raw = this.db.getBinary(Buffer.concat([INFO_PREFIX, address]));
    return raw ? codec.decode<GeneratedInfo>(generatedInfoSchema, raw) : undefined;
  }

  setInfo(address: Buffer, info: GeneratedInfo): void {
    writeTransaction(this.env, () => {
      this.db.putSync(Buffer.concat([INFO_PREFIX, address]), codec.encode(generatedInfoSchema, info));
    });
  }

  /** Every stored info record, by address order (lisk-sdk getGeneratedInfo). */
  allInfo(): { address: Buffer; info: GeneratedInfo }[] {
    return this.range(INFO_PREFIX).map(({ address, value }) => ({
      address,
      info: codec.decode<GeneratedInfo>(generatedInfoSchema, value),
    }));
  }

  getKeys(address: Buffer): StoredGeneratorKeys | undefined {
    const raw = this.db.getBinary(Buffer.concat([KEYS_PREFIX, address]));
    return raw ? decodeStoredKeys(raw) : undefined;
  }

  setKeys(address: Buffer, keys: StoredGeneratorKeys): void {
    const data = keys.type === 'plain' ? codec.encode(plainGeneratorKeysSchema, keys.data) : keys.data;
    writeTransaction(this.env, () => {
      this.db.putSync(Buffer.concat([KEYS_PREFIX, address]), codec.encode(storedKeysSchema, { type: keys.type, data }));
    });
  }

  hasKeys(address: Buffer): boolean {
    return this.db.getBinary(Buffer.concat([KEYS_PREFIX, address])) !== undefined;
  }

  allKeys(): { address: Buffer; keys: StoredGeneratorKeys }[] {
    return this.range(KEYS_PREFIX).map(({ address, value }) => ({ address, keys: decodeStoredKeys(value) }));
  }

  private range(prefix: Buffer): { address: Buffer; value: Buffer }[] {
    const end = Buffer.concat([prefix, Buffer.alloc(21, 0xff)]);
    return [...this.db.getRange({ start: prefix, end })].map(({ key, value }) => ({ address: key.subarray(prefix.length), value }));
  }
}

function decodeStoredKeys(raw: Buffer): StoredGeneratorKeys {
  const { type, data } = codec.decode<{ type: string; data: Buffer }>(storedKeysSchema, raw);
  if (type === 'plain') return { type, data: codec.decode<PlainGeneratorKeys>(plainGeneratorKeysSchema, data) };
  if (type === 'encrypted') return { type, data };
  throw new StoreError(`Unknown generator key type ${JSON.stringify(type)} in the generator store.`);
}
