/**
 * The engine's `generator` namespace (lisk-sdk 6.1 engine/generator/endpoint.ts;
 * docs/protocol/cli.md): the block-generation status of the validators whose keys this node holds,
 * their keys, and the switch that enables block generation for one of them. Every method is
 * sensitive: the dispatcher answers -32002 unless `rpc.allowedMethods` names `generator` or the
 * method.
 *
 * An adapter: params in, JSON out. The checks, their order and their messages are the engine's
 * (src/engine/generator/generator-control.ts).
 *
 * Errors keep lisk-sdk's messages. Where lisk-sdk answers -32600 for everything, Basalt answers
 * -32001 (NotFoundError) for an address without keys and -32602 (InvalidParamsError) for a
 * request it refuses (wrong password, node not synced, status mismatch).
 */
import { codec } from '../../codec/index.js';
import { decodeLisk32, encodeLisk32 } from '../../crypto/index.js';
import type { GeneratorControl } from '../../engine/generator/generator-control.js';
import {
  decodeEncryptedKeys,
  encryptedKeysJsonSchema,
  plainGeneratorKeysSchema,
  plainKeysJsonSchema,
  type GeneratedInfo,
  type PlainGeneratorKeys,
  type StoredEncryptedKeys,
} from '../../engine/generator/generator-store.js';
import type { RpcMethod } from '../registry.js';

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

/** Builds the seven `generator_*` methods, all sensitive, over the engine's generator controls. */
export function createGeneratorEndpoints(control: GeneratorControl): RpcMethod[] {
  const getStatus: RpcMethod = {
    namespace: 'generator',
    name: 'getStatus',
    sensitive: true,
    invoke: () => ({
      // Only validators with a stored info record are listed, in address order, as lisk-sdk does.
      status: control.status().map(({ address, info, enabledKeypair }) => ({
        // Member order as lisk-sdk's answer.
        address: encodeLisk32(address),
        height: info.height,
        maxHeightPrevoted: info.maxHeightPrevoted,
        maxHeightGenerated: info.maxHeightGenerated,
        generatorKey: enabledKeypair?.generatorKey.toString('hex') ?? '',
        blsKey: enabledKeypair?.blsKey.toString('hex') ?? '',
        enabled: enabledKeypair !== undefined,
      })),
    }),
  };

  const setStatus: RpcMethod = {
    namespace: 'generator',
    name: 'setStatus',
    sensitive: true,
    request: setStatusRequestSchema,
    invoke: (params) => {
      const request = params as StatusParams;
      control.setStatus(decodeLisk32(request.address), infoOf(request));
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
      const enabled = await control.updateStatus(decodeLisk32(request.address), request.password, request.enable, infoOf(request));
      return { address: request.address, enabled };
    },
  };

  const estimateSafeStatus: RpcMethod = {
    namespace: 'generator',
    name: 'estimateSafeStatus',
    sensitive: true,
    request: estimateSafeStatusRequestSchema,
    invoke: (params) => {
      const safe = control.estimateSafeStatus(params.timeShutdown as number);
      return { height: safe.height, maxHeightGenerated: safe.maxHeightGenerated, maxHeightPrevoted: safe.maxHeightPrevoted };
    },
  };

  const setKeys: RpcMethod = {
    namespace: 'generator',
    name: 'setKeys',
    sensitive: true,
    request: setKeysRequestSchema,
    invoke: (params) => {
      const address = decodeLisk32(params.address as string);
      if (params.type === 'plain') {
        const data = params.data as Record<string, string>;
        const plain: PlainGeneratorKeys = {
          generatorKey: Buffer.from(data.generatorKey as string, 'hex'),
          generatorPrivateKey: Buffer.from(data.generatorPrivateKey as string, 'hex'),
          blsKey: Buffer.from(data.blsKey as string, 'hex'),
          blsPrivateKey: Buffer.from(data.blsPrivateKey as string, 'hex'),
        };
        control.setKeys(address, { type: 'plain', data: plain });
      } else {
        control.setKeys(address, { type: 'encrypted', data: params.data as StoredEncryptedKeys });
      }
      return {};
    },
  };

  const getAllKeys: RpcMethod = {
    namespace: 'generator',
    name: 'getAllKeys',
    sensitive: true,
    invoke: () => ({
      keys: control.allKeys().map(({ address, keys }) => ({
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
    invoke: (params) => ({ hasKey: control.hasKeys(decodeLisk32(params.address as string)) }),
  };

  return [getStatus, setStatus, updateStatus, estimateSafeStatus, setKeys, getAllKeys, hasKeys];
}
