/**
 * The engine's `generator` namespace (lisk-sdk 6.1 engine/generator/endpoint.ts;
 * docs/protocol/cli.md): the block-generation status of the validators whose keys this node holds,
 * their keys, and the switch that enables block generation for one of them. Every method is
 * sensitive: the dispatcher answers -32002 unless `rpc.allowedMethods` names `generator` or the
 * method.
 *
 * Errors keep lisk-sdk's messages. Where lisk-sdk answers -32600 for everything, Basalt answers
 * -32001 (NotFoundError) for an address without keys and -32602 (InvalidParamsError) for a
 * request it refuses (wrong password, node not synced, status mismatch).
 *
 * No password, passphrase or private key ever reaches a log line or an error message here.
 */
import type { BlockHeader } from '../../chain/block-header.js';
import type { ChainStore } from '../../chain/chain-store.js';
import { codec } from '../../codec/index.js';
import { decodeLisk32, decryptMessageWithPassword, encodeLisk32, type KeyDerivationFunction } from '../../crypto/index.js';
import { keypairFromPlainKeys, type GeneratorKeypair } from '../../engine/generator/generator-keypair.js';
import {
  decodeEncryptedKeys,
  encodeEncryptedKeys,
  encryptedKeysJsonSchema,
  plainGeneratorKeysSchema,
  plainKeysJsonSchema,
  type GeneratedInfo,
  type GeneratorStore,
  type PlainGeneratorKeys,
  type StoredEncryptedKeys,
} from '../../engine/generator/generator-store.js';
import { BasaltError, DecryptionError, InvalidParamsError, NotFoundError, StoreError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { RpcMethod } from '../registry.js';

/** The part of the Forger the endpoints drive (enabled keypairs live there). */
export interface GeneratorSwitch {
  enable(keypair: GeneratorKeypair): void;
  disable(address: Buffer): void;
  enabledKeypair(address: Buffer): GeneratorKeypair | undefined;
}

export interface GeneratorEndpointsOptions {
  readonly store: GeneratorStore;
  readonly forger: GeneratorSwitch;
  readonly chainStore: Pick<ChainStore, 'tipHeight' | 'finalizedHeight' | 'genesisHeight' | 'getHeaderByHeight'>;
  /** Seconds per slot (genesis.blockTime), for estimateSafeStatus. */
  readonly blockTime: number;
  /** True while the node is catching up with the network; a syncing node refuses to enable. */
  readonly syncing?: () => boolean;
  readonly logger: Logger;
}

const lisk32Address = { type: 'string', format: 'lisk32' } as const;
const heightAtLeastZero = { type: 'integer', minimum: 0 } as const;

export const setStatusRequestSchema = {
  type: 'object',
  required: ['address', 'height', 'maxHeightGenerated', 'maxHeightPrevoted'],
  properties: {
    address: lisk32Address,
    height: heightAtLeastZero,
    maxHeightGenerated: heightAtLeastZero,
    maxHeightPrevoted: heightAtLeastZero,
  },
} as const;

export const updateStatusRequestSchema = {
  type: 'object',
  required: ['address', 'password', 'enable', 'height', 'maxHeightGenerated', 'maxHeightPrevoted'],
  properties: {
    address: lisk32Address,
    password: { type: 'string' },
    enable: { type: 'boolean' },
    height: { type: 'integer' },
    maxHeightGenerated: { type: 'integer' },
    maxHeightPrevoted: { type: 'integer' },
  },
} as const;

export const setKeysRequestSchema = {
  type: 'object',
  required: ['address', 'type', 'data'],
  properties: { address: lisk32Address },
  oneOf: [
    { type: 'object', properties: { type: { const: 'plain' }, data: plainKeysJsonSchema } },
    { type: 'object', properties: { type: { const: 'encrypted' }, data: encryptedKeysJsonSchema } },
  ],
} as const;

const addressRequestSchema = { type: 'object', required: ['address'], properties: { address: lisk32Address } } as const;
const estimateSafeStatusRequestSchema = {
  type: 'object',
  required: ['timeShutdown'],
  properties: { timeShutdown: { type: 'integer' } },
} as const;

/** lisk-sdk's message for a wrong password (the text of Node's GCM authentication failure). */
export const WRONG_PASSWORD_MESSAGE = 'Unsupported state or unable to authenticate data';
export const NOT_SYNCED_MESSAGE = 'Failed to enable forging as the node is not synced to the network.';
export const STATUS_MISMATCH_MESSAGE = 'Request does not match last generated information.';
export const NO_STATUS_MESSAGE = 'Last generated information does not exist.';

const SECONDS_PER_MONTH = 60 * 60 * 24 * 30;

/** A type, not an interface: the dispatcher's validated params (a record) then convert to it directly. */
type StatusParams = {
  readonly address: string;
  readonly height: number;
  readonly maxHeightGenerated: number;
  readonly maxHeightPrevoted: number;
};

const infoOf = (params: StatusParams): GeneratedInfo => ({
  height: params.height,
  maxHeightPrevoted: params.maxHeightPrevoted,
  maxHeightGenerated: params.maxHeightGenerated,
});

const sameInfo = (a: GeneratedInfo, b: GeneratedInfo): boolean =>
  a.height === b.height && a.maxHeightPrevoted === b.maxHeightPrevoted && a.maxHeightGenerated === b.maxHeightGenerated;

const isZeroInfo = (info: GeneratedInfo): boolean => info.height === 0 && info.maxHeightPrevoted === 0 && info.maxHeightGenerated === 0;

/** Builds the seven `generator_*` methods, all sensitive. */
export function createGeneratorEndpoints(options: GeneratorEndpointsOptions): RpcMethod[] {
  const { store, forger, chainStore, logger } = options;
  const tip = (): BlockHeader => {
    const header = chainStore.getHeaderByHeight(chainStore.tipHeight());
    if (header === undefined) throw new StoreError('Store inconsistency: the tip header is missing.');
    return header;
  };

  /**
   * lisk-sdk Consensus.isSynced: the values a validator resumes from must lie behind the tip
   * (below its maxHeightPrevoted, or equal to it and below its height), so that the node never
   * signs a header contradicting one it signed on a chain it has not seen yet. On the genesis
   * block (version 0) both heights only need to be at most the genesis height.
   */
  const isSynced = (height: number, maxHeightPrevoted: number): boolean => {
    if (options.syncing?.() === true) return false;
    const last = tip();
    if (last.version === 0) return height <= last.height && maxHeightPrevoted <= last.height;
    return maxHeightPrevoted < last.maxHeightPrevoted || (maxHeightPrevoted === last.maxHeightPrevoted && height < last.height);
  };

  /** The plain keys of `address`, decrypting stored encrypted ones with `password`. */
  const unlockKeys = async (address: Buffer, lisk32: string, password: string): Promise<PlainGeneratorKeys> => {
    const stored = store.getKeys(address);
    if (stored === undefined) throw new NotFoundError(`Generator with address: ${lisk32} does not have keys registered.`);
    if (stored.type === 'plain') return stored.data;
    const encrypted = decodeEncryptedKeys(stored.data);
    let plaintext: Buffer;
    try {
      plaintext = await decryptMessageWithPassword({ ...encrypted, kdf: encrypted.kdf as KeyDerivationFunction }, password);
    } catch (error) {
      if (error instanceof DecryptionError) throw new InvalidParamsError(WRONG_PASSWORD_MESSAGE);
      // FormatError (damaged stored object) keeps its own, secret-free message.
      if (error instanceof BasaltError)
        throw new InvalidParamsError(`The stored encrypted keys of ${lisk32} cannot be decrypted: ${error.message}`);
      throw error;
    }
    try {
      return codec.decode<PlainGeneratorKeys>(plainGeneratorKeysSchema, plaintext);
    } catch {
      throw new InvalidParamsError(`The decrypted keys of ${lisk32} are not generator keys.`);
    } finally {
      plaintext.fill(0);
    }
  };

  const getStatus: RpcMethod = {
    namespace: 'generator',
    name: 'getStatus',
    sensitive: true,
    invoke: () => ({
      // Only validators with a stored info record are listed, in address order, as lisk-sdk does.
      status: store.allInfo().map(({ address, info }) => {
        const keypair = forger.enabledKeypair(address);
        // Member order as lisk-sdk's answer.
        return {
          address: encodeLisk32(address),
          height: info.height,
          maxHeightPrevoted: info.maxHeightPrevoted,
          maxHeightGenerated: info.maxHeightGenerated,
          generatorKey: keypair?.generatorKey.toString('hex') ?? '',
          blsKey: keypair?.blsKey.toString('hex') ?? '',
          enabled: keypair !== undefined,
        };
      }),
    }),
  };

  const setStatus: RpcMethod = {
    namespace: 'generator',
    name: 'setStatus',
    sensitive: true,
    request: setStatusRequestSchema,
    invoke: (params) => {
      const request = params as StatusParams;
      const address = decodeLisk32(request.address);
      if (!store.hasKeys(address)) throw new NotFoundError(`Keys for ${request.address} is not registered.`);
      // Unconditional, as in lisk-sdk: this is the operator's tool to restore a known status.
      store.setInfo(address, infoOf(request));
      logger.info({ address: request.address }, 'Generator status set');
      return {};
    },
  };

  const updateStatus: RpcMethod = {
    namespace: 'generator',
    name: 'updateStatus',
    sensitive: true,
    request: updateStatusRequestSchema,
    invoke: async (params) => {
      const request = params as StatusParams & { password: string; enable: boolean };
      const address = decodeLisk32(request.address);
      // Decryption first, also for disabling: only the key holder may switch generation.
      const keys = await unlockKeys(address, request.address, request.password);
      if (!request.enable) {
        forger.disable(address);
        logger.info({ address: request.address }, 'Block generation disabled');
        return { address: request.address, enabled: false };
      }
      if (!isSynced(request.height, request.maxHeightPrevoted)) throw new InvalidParamsError(NOT_SYNCED_MESSAGE);
      const requested = infoOf(request);
      const stored = store.getInfo(address);
      if (stored !== undefined && !sameInfo(stored, requested)) throw new InvalidParamsError(STATUS_MISMATCH_MESSAGE);
      if (stored === undefined && !isZeroInfo(requested)) throw new InvalidParamsError(NO_STATUS_MESSAGE);
      let keypair: GeneratorKeypair;
      try {
        keypair = keypairFromPlainKeys(address, keys);
      } catch (error) {
        throw new InvalidParamsError(`The keys of ${request.address} are inconsistent: ${(error as Error).message}`);
      }
      if (stored === undefined) store.setInfo(address, requested);
      // The Forger signs single commits for finalized heights from its next block on.
      forger.enable(keypair);
      logger.info({ address: request.address }, 'Block generation enabled');
      return { address: request.address, enabled: true };
    },
  };

  const estimateSafeStatus: RpcMethod = {
    namespace: 'generator',
    name: 'estimateSafeStatus',
    sensitive: true,
    request: estimateSafeStatusRequestSchema,
    invoke: (params) => {
      const timeShutdown = params.timeShutdown as number;
      const finalizedHeight = chainStore.finalizedHeight();
      const genesisHeight = chainStore.genesisHeight();
      if (finalizedHeight === genesisHeight) {
        throw new InvalidParamsError('At least one block after the genesis block must be finalized.');
      }
      const finalized = chainStore.getHeaderByHeight(finalizedHeight);
      if (finalized === undefined) throw new StoreError('Store inconsistency: the finalized header is missing.');
      if (timeShutdown > finalized.timestamp) {
        throw new InvalidParamsError(`A block at the time shutdown ${timeShutdown} must be finalized.`);
      }
      // LIP 0014: heights the validator may have signed on blocks missed during the last 30 days.
      const blocksPerMonth = Math.ceil(SECONDS_PER_MONTH / options.blockTime);
      const monthAgoHeight = Math.max(finalizedHeight - blocksPerMonth, genesisHeight + 1);
      const monthAgo = chainStore.getHeaderByHeight(monthAgoHeight);
      if (monthAgo === undefined) throw new StoreError(`Store inconsistency: the header at height ${monthAgoHeight} is missing.`);
      const expectedBlocks = Math.ceil((finalized.timestamp - monthAgo.timestamp) / options.blockTime);
      const generatedBlocks = finalized.height - monthAgo.height;
      const safe = finalizedHeight + (expectedBlocks - generatedBlocks);
      return { height: safe, maxHeightGenerated: safe, maxHeightPrevoted: safe };
    },
  };

  const setKeys: RpcMethod = {
    namespace: 'generator',
    name: 'setKeys',
    sensitive: true,
    request: setKeysRequestSchema,
    invoke: (params) => {
      const lisk32 = params.address as string;
      const address = decodeLisk32(lisk32);
      if (params.type === 'plain') {
        const data = params.data as Record<string, string>;
        const plain: PlainGeneratorKeys = {
          generatorKey: Buffer.from(data.generatorKey as string, 'hex'),
          generatorPrivateKey: Buffer.from(data.generatorPrivateKey as string, 'hex'),
          blsKey: Buffer.from(data.blsKey as string, 'hex'),
          blsPrivateKey: Buffer.from(data.blsPrivateKey as string, 'hex'),
        };
        // Basalt refuses keys whose private halves do not give the public ones (lisk-sdk stores
        // them and fails later, at generation).
        try {
          keypairFromPlainKeys(address, plain);
        } catch (error) {
          throw new InvalidParamsError((error as Error).message);
        }
        store.setKeys(address, { type: 'plain', data: plain });
      } else {
        store.setKeys(address, { type: 'encrypted', data: encodeEncryptedKeys(params.data as StoredEncryptedKeys) });
      }
      // New keys stop generation for the address until updateStatus enables it again.
      forger.disable(address);
      logger.info({ address: lisk32, type: params.type }, 'Generator keys set');
      return {};
    },
  };

  const getAllKeys: RpcMethod = {
    namespace: 'generator',
    name: 'getAllKeys',
    sensitive: true,
    invoke: () => ({
      keys: store.allKeys().map(({ address, keys }) => ({
        address: encodeLisk32(address),
        type: keys.type,
        data: keys.type === 'plain' ? codec.toJSON(plainGeneratorKeysSchema, keys.data) : decodeEncryptedKeys(keys.data),
      })),
    }),
  };

  const hasKeys: RpcMethod = {
    namespace: 'generator',
    name: 'hasKeys',
    sensitive: true,
    request: addressRequestSchema,
    invoke: (params) => ({ hasKey: store.hasKeys(decodeLisk32(params.address as string)) }),
  };

  return [getStatus, setStatus, updateStatus, estimateSafeStatus, setKeys, getAllKeys, hasKeys];
}
