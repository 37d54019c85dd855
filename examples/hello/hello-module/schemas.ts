/**
 * The hello module's schemas: its command params, its two stores, its event and its endpoints'
 * requests and responses (lisk-codec dialect: `fieldNumber` on every encoded property).
 */
import type { Schema } from '../../../src/plugins/index.js';

export const HELLO_MODULE_NAME = 'hello';

/** The longest message the params schema accepts; `modules.hello.maxMessageLength` may lower it. */
export const MESSAGE_LENGTH_LIMIT = 256;

export interface CreateHelloParams {
  message: string;
}

export const createHelloParamsSchema: Schema = {
  $id: '/hello/createHello',
  type: 'object',
  required: ['message'],
  properties: {
    message: { dataType: 'string', fieldNumber: 1, minLength: 1, maxLength: MESSAGE_LENGTH_LIMIT },
  },
};

/** Per sender: the latest message and how many hellos the sender has sent. */
export interface MessageEntry {
  message: string;
  count: number;
}

export const messageStoreSchema: Schema = {
  $id: '/hello/message',
  type: 'object',
  required: ['message', 'count'],
  properties: {
    message: { dataType: 'string', fieldNumber: 1 },
    count: { dataType: 'uint32', fieldNumber: 2 },
  },
};

/** The chain-wide number of hellos. */
export interface CounterEntry {
  counter: bigint;
}

export const counterStoreSchema: Schema = {
  $id: '/hello/counter',
  type: 'object',
  required: ['counter'],
  properties: {
    counter: { dataType: 'uint64', fieldNumber: 1 },
  },
};

export interface NewHelloData {
  senderAddress: Buffer;
  message: string;
}

export const newHelloEventSchema: Schema = {
  $id: '/hello/events/newHello',
  type: 'object',
  required: ['senderAddress', 'message'],
  properties: {
    senderAddress: { dataType: 'bytes', format: 'lisk32', fieldNumber: 1 },
    message: { dataType: 'string', fieldNumber: 2 },
  },
};

export const getHelloRequestSchema = {
  $id: '/hello/endpoint/getHelloRequest',
  type: 'object',
  required: ['address'],
  properties: { address: { type: 'string', format: 'lisk32' } },
} as const;

export const getHelloResponseSchema = {
  $id: '/hello/endpoint/getHelloResponse',
  type: 'object',
  required: ['message', 'count'],
  properties: { message: { type: 'string' }, count: { type: 'integer' } },
} as const;

export const getHelloCounterResponseSchema = {
  $id: '/hello/endpoint/getHelloCounterResponse',
  type: 'object',
  required: ['counter'],
  properties: { counter: { type: 'string', format: 'uint64' } },
} as const;
