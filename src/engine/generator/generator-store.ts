import type { Database, RootDatabase } from 'lmdb';
import { codec, type Schema } from '../../codec/index.js';

/** What a validator last generated (lisk-sdk previouslyGeneratedInfo). */
export interface GeneratedInfo {
  readonly height: number;
  readonly maxHeightPrevoted: number;
  readonly maxHeightGenerated: number;
}

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

export const generatedInfoSchema: Schema = {
  $id: '/node/generator/previously_generated_info',
  type: 'object',
  required: ['height', 'maxHeightPrevoted', 'maxHeightGenerated'],
  properties: {
    height: { dataType: 'uint32', fieldNumber: 1 },
    maxHeightPrevoted: { dataType: 'uint32', fieldNumber: 2 },
    maxHeightGenerated: { dataType: 'uint32', fieldNumber: 3 },
  },
};

export const plainGeneratorKeysSchema: Schema = {
  $id: '/generator/plainGeneratorKeys',
  type: 'object',
  required: ['generatorKey', 'generatorPrivateKey', 'blsKey', 'blsPrivateKey'],
  properties: {
    generatorKey: { dataType: 'bytes', fieldNumber: 1 },
    generatorPrivateKey: { dataType: 'bytes', fieldNumber: 2 },
    blsKey: { dataType: 'bytes', fieldNumber: 3 },
    blsPrivateKey: { dataType: 'bytes', fieldNumber: 4 },
  },
};

const storedKeysSchema: Schema = {
  $id: '/generator/generatorKeysSchema',
  type: 'object',
  required: ['type', 'data'],
  properties: { type: { dataType: 'string', fieldNumber: 1 }, data: { dataType: 'bytes', fieldNumber: 2 } },
};

/** lisk-sdk generator.db key prefixes: generated info and keys, each followed by the address. */
const INFO_PREFIX = Buffer.from([0, 0, 0, 0]);
const KEYS_PREFIX = Buffer.from([0, 0, 0, 1]);

/**
 * The generator's off-chain data (lisk-sdk generator.db, cli_migration.md §1.6): per validator
 * address the last generated info, which keeps the node from signing contradicting headers
 * after a restart, and the generator keys. Written in its own small LMDB transactions, durably.
 */
export class GeneratorStore {
  private readonly db: Database<Buffer, Buffer>;

  constructor(private readonly env: RootDatabase) {
    this.db = env.openDB<Buffer, Buffer>('generator', { keyEncoding: 'binary', encoding: 'binary' });
  }

  getInfo(address: Buffer): GeneratedInfo | undefined {
    const raw = this.db.getBinary(Buffer.concat([INFO_PREFIX, address]));
    return raw ? codec.decode<GeneratedInfo>(generatedInfoSchema, raw) : undefined;
  }

  setInfo(address: Buffer, info: GeneratedInfo): void {
    this.env.transactionSync(() => {
      this.db.putSync(Buffer.concat([INFO_PREFIX, address]), codec.encode(generatedInfoSchema, info));
    });
  }

  /** Every stored info record, by address order (lisk-sdk getGeneratedInfo). */
  allInfo(): { address: Buffer; info: GeneratedInfo }[] {
    return this.range(INFO_PREFIX).map(({ address, value }) => ({ address, info: codec.decode<GeneratedInfo>(generatedInfoSchema, value) }));
  }

  getKeys(address: Buffer): StoredGeneratorKeys | undefined {
    const raw = this.db.getBinary(Buffer.concat([KEYS_PREFIX, address]));
    return raw ? decodeStoredKeys(raw) : undefined;
  }

  setKeys(address: Buffer, keys: StoredGeneratorKeys): void {
    const data = keys.type === 'plain' ? codec.encode(plainGeneratorKeysSchema, keys.data) : keys.data;
    this.env.transactionSync(() => {
      this.db.putSync(Buffer.concat([KEYS_PREFIX, address]), codec.encode(storedKeysSchema, { type: keys.type, data }));
    });
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
  throw new Error(`Unknown generator key type ${JSON.stringify(type)} in the generator store.`);
}
