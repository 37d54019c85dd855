/**
 * The `chainConnector_*` RPC methods, with the names and JSON shapes of lisk-sdk v6.1.0
 * framework-plugins/lisk-framework-chain-connector-plugin/src/endpoint.ts: what the relayer
 * recorded (headers, aggregate commits, validators, messages, the last message sent, the CCUs it
 * built) and `authorize`, which enables or disables the relayer key. Two deliberate differences:
 * validator addresses are the real addresses in hex (0.2.0 answers "" for each, as it parses the
 * lisk32 address as hex), and "no CCM sent yet" is a not-found error (-32001).
 */
import { codec } from '../../codec/index.js';
import { NotFoundError } from '../../errors.js';
import { ccmSchema } from '../../modules/interoperability/schemas.js';
import type { PluginEndpoint } from '../plugin.js';
import type { ChainConnector } from './relayer.js';

const NO_PARAMS = { type: 'object', properties: {} } as const;

const ccmJSON = (ccm: object) => codec.toJSON<Record<string, unknown>>(ccmSchema, ccm);

export function chainConnectorEndpoints(connector: () => ChainConnector): Record<string, PluginEndpoint> {
  return {
    getSentCCUs: { request: NO_PARAMS, handle: () => connector().recorded.sentCcus.map((transaction) => transaction.toJSON()) },
    getAggregateCommits: {
      request: NO_PARAMS,
      handle: () =>
        connector().recorded.aggregateCommits.map((commit) => ({
          height: commit.height,
          aggregationBits: commit.aggregationBits.toString('hex'),
          certificateSignature: commit.certificateSignature.toString('hex'),
        })),
    },
    getBlockHeaders: { request: NO_PARAMS, handle: () => connector().recorded.blockHeaders.map((header) => header.toJSON()) },
    getCrossChainMessages: {
      request: NO_PARAMS,
      handle: () =>
        connector().recorded.ccmRecords.map((record) => ({
          ccms: record.ccms.map(ccmJSON),
          height: record.height,
          inclusionProof: {
            bitmap: record.inclusionProof.bitmap.toString('hex'),
            siblingHashes: record.inclusionProof.siblingHashes.map((hash) => hash.toString('hex')),
          },
          outboxSize: record.outboxSize,
        })),
    },
    getLastSentCCM: {
      request: NO_PARAMS,
      handle: () => {
        const last = connector().recorded.lastSentCcm;
        if (last === undefined) throw new NotFoundError('No CCM was sent so far.');
        return { ...ccmJSON(last.ccm), height: last.height };
      },
    },
    getValidatorsInfoFromPreimage: {
      request: NO_PARAMS,
      handle: () =>
        connector().recorded.validatorsHashPreimage.map((data) => ({
          certificateThreshold: data.certificateThreshold.toString(),
          validators: data.validators.map((validator) => ({
            address: validator.address.toString('hex'),
            bftWeight: validator.bftWeight.toString(),
            blsKey: validator.blsKey.toString('hex'),
          })),
          validatorsHash: data.validatorsHash.toString('hex'),
        })),
    },
    authorize: {
      sensitive: true,
      request: {
        type: 'object',
        required: ['password', 'enable'],
        properties: { password: { type: 'string' }, enable: { type: 'boolean' } },
      },
      handle: (params) => connector().authorize(params.password as string, params.enable as boolean),
    },
  };
}
