/** RPC endpoints of the fee module (`fee_*`; lisk-sdk fee/endpoint.ts), in metadata order. */
import type { EndpointHandler } from '../base/index.js';
import type { FeeMethod } from './method.js';
import { getFeeTokenIDResponseSchema, getMinFeePerByteResponseSchema } from './schemas.js';

export function createFeeEndpoints(method: FeeMethod): Record<string, EndpointHandler> {
  return {
    getMinFeePerByte: {
      response: getMinFeePerByteResponseSchema,
      handle: (): { minFeePerByte: number } => ({ minFeePerByte: method.getMinFeePerByte() }),
    },
    getFeeTokenID: {
      response: getFeeTokenIDResponseSchema,
      handle: (): { tokenID: string } => ({ tokenID: method.getFeeTokenID().toString('hex') }),
    },
  };
}
