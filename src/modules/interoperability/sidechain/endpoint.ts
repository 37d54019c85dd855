/**
 * RPC endpoints `interoperability_*` of a sidechain (lisk-sdk BaseInteroperabilityEndpoint and
 * SidechainInteroperabilityEndpoint): the endpoints every chain has, without the mainchain's
 * registration ones, plus getMainchainID. Built from the mainchain's set until
 * createInteroperabilityEndpoints serves both kinds of chain.
 */
import type { EndpointHandler } from '../../base/index.js';
import { createInteroperabilityEndpoints } from '../endpoint.js';
import { chainIDRequestSchema } from '../schemas.js';
import { getMainchainID } from '../utils.js';

/** The endpoints both kinds of chain answer, in lisk-sdk's metadata order. */
const COMMON_ENDPOINTS = [
  'getChainAccount',
  'getAllChainAccounts',
  'getChannel',
  'getOwnChainAccount',
  'getTerminatedStateAccount',
  'getTerminatedOutboxAccount',
  'getChainValidators',
] as const;

const getMainchainIDRequestSchema = { ...chainIDRequestSchema, $id: '/modules/interoperability/endpoint/getMainchainIDRequestSchema' };

/** As lisk-sdk reports it: the answer's member is `mainchainID` although the schema names `result`. */
const getMainchainIDResponseSchema = {
  $id: '/modules/interoperability/endpoint/getMainchainIDResponseSchema',
  type: 'object',
  required: ['mainchainID'],
  properties: { result: { type: 'string' } },
};

/** The sidechain's endpoints in lisk-sdk's metadata order (the last one, getCCMSchema, is common too). */
export function createSidechainInteroperabilityEndpoints(): Record<string, EndpointHandler> {
  const all = createInteroperabilityEndpoints();
  const endpoints: Record<string, EndpointHandler> = {};
  for (const name of COMMON_ENDPOINTS) endpoints[name] = all[name] as EndpointHandler;
  endpoints.getMainchainID = {
    request: getMainchainIDRequestSchema,
    response: getMainchainIDResponseSchema,
    // The params were validated against the request schema: chainID is 8 hex characters.
    handle: (context) => ({ mainchainID: getMainchainID(Buffer.from(context.params.chainID as string, 'hex')).toString('hex') }),
  };
  endpoints.getCCMSchema = all.getCCMSchema as EndpointHandler;
  return endpoints;
}
