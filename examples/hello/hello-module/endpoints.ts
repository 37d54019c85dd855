/**
 * `hello_getHello` (a sender's latest message and count) and `hello_getHelloCounter` (hellos on
 * the whole chain), read from the committed state at the tip. Params arrive already checked
 * against `request`, so `address` is a valid lisk32 string here.
 */
import { decodeLisk32Address, NotFoundError, type EndpointHandler } from '../../../src/plugins/index.js';
import { getHelloCounterResponseSchema, getHelloRequestSchema, getHelloResponseSchema } from './schemas.js';
import { COUNTER_KEY, counterStore, messageStore } from './stores.js';

export function createHelloEndpoints(): Record<string, EndpointHandler> {
  return {
    getHello: {
      request: getHelloRequestSchema,
      response: getHelloResponseSchema,
      handle: (context) => {
        const address = context.params.address as string;
        const entry = messageStore.get(context.state, decodeLisk32Address(address));
        if (entry === undefined) throw new NotFoundError(`No hello from ${address}.`);
        return { message: entry.message, count: entry.count };
      },
    },
    getHelloCounter: {
      response: getHelloCounterResponseSchema,
      handle: (context) => ({ counter: (counterStore.get(context.state, COUNTER_KEY)?.counter ?? 0n).toString() }),
    },
  };
}
