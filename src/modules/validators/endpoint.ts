/**
 * RPC endpoints `validators_*` (lisk-sdk validators/endpoint.ts). Params arrive validated
 * against the request schemas by the RPC layer.
 */
import { decodeLisk32 } from '../../crypto/index.js';
import type { EndpointContext, EndpointHandler } from '../base/index.js';
import {
  getValidatorRequestSchema,
  getValidatorResponseSchema,
  validateBLSKeyRequestSchema,
  validateBLSKeyResponseSchema,
} from './schemas.js';
import type { ProofOfPossessionChecks } from './pop-checks.js';
import { blsKeysStore, validatorKeysStore } from './stores.js';

/**
 * `validators_validateBLSKey {proofOfPossession, blsKey}` → `{valid}`: false when the key is
 * already registered on this chain, otherwise whether the proof of possession verifies (checked
 * off the network thread when `popChecks` has a pool behind it).
 */
export function validateBLSKeyEndpoint(popChecks: () => ProofOfPossessionChecks): EndpointHandler {
  return {
    request: validateBLSKeyRequestSchema,
    response: validateBLSKeyResponseSchema,
    async handle(context: EndpointContext): Promise<{ valid: boolean }> {
      const blsKey = Buffer.from(context.params.blsKey as string, 'hex');
      if (blsKeysStore.has(context.state, blsKey)) return { valid: false };
      const proofOfPossession = Buffer.from(context.params.proofOfPossession as string, 'hex');
      return { valid: await popChecks().checkOffThread(blsKey, proofOfPossession) };
    },
  };
}

/**
 * `validators_getValidator {address}` → `{generatorKey, blsKey}` as hex; an address that is not
 * a validator gets empty strings, not an error (lisk-sdk behaviour).
 */
export const getValidatorEndpoint: EndpointHandler = {
  request: getValidatorRequestSchema,
  response: getValidatorResponseSchema,
  handle(context: EndpointContext): { generatorKey: string; blsKey: string } {
    const address = decodeLisk32(context.params.address as string);
    const keys = validatorKeysStore.get(context.state, address);
    if (keys === undefined) return { generatorKey: '', blsKey: '' };
    return { generatorKey: keys.generatorKey.toString('hex'), blsKey: keys.blsKey.toString('hex') };
  },
};

/** The module's endpoints; `popChecks` gives the proof-of-possession checks in use at each request. */
export function validatorsEndpoints(popChecks: () => ProofOfPossessionChecks): Readonly<Record<string, EndpointHandler>> {
  return {
    validateBLSKey: validateBLSKeyEndpoint(popChecks),
    getValidator: getValidatorEndpoint,
  };
}
