/**
 * JSON schema of a Basalt node config (node-config.ts). The Lisk keys carry lisk-sdk 6.1's
 * ranges and formats (application_config_schema.ts), so every config a Lisk Core v4 node accepts
 * passes, and lisk-sdk's leniencies are kept where it has them: unknown keys are allowed inside
 * sections (Lisk Core configs carry a few the schema does not list) but not at the top level or
 * in `genesis`. Basalt's own keys are listed with their ranges.
 */
import { objectOf } from '../codec/index.js';

/** lisk-sdk MAX_CCM_SIZE: the smallest maxTransactionsSize must leave room for one CCM. */
const MAX_CCM_SIZE = 10_240;
/** lisk-sdk MAX_NUM_VALIDATORS. */
const MAX_NUM_VALIDATORS = 199;
const SECONDS_PER_MONTH = 30 * 24 * 60 * 60;

const port = (minimum: number) => ({ type: 'integer', minimum, maximum: 65_535 });
/** Basalt's own listeners (legacy API, metrics): off unless enabled, on host:port, nothing unknown. */
const listener = <P extends object>(properties: P) =>
  ({
    type: 'object',
    required: ['enabled', 'host', 'port'],
    additionalProperties: false,
    properties: { enabled: { type: 'boolean' }, host: { type: 'string', minLength: 1 }, port: port(1), ...properties },
  }) as const;
const peerList = (ipFormat: string) => ({
  type: 'array',
  items: objectOf({ ip: { type: 'string', format: ipFormat }, port: port(1) }),
});

export const nodeConfigSchema = {
  type: 'object',
  required: ['system', 'rpc', 'network', 'transactionPool', 'genesis', 'generator', 'modules', 'plugins'],
  additionalProperties: false,
  properties: {
    system: {
      type: 'object',
      required: ['dataPath', 'logLevel', 'keepEventsForHeights', 'version', 'backup'],
      properties: {
        dataPath: { type: 'string', minLength: 1 },
        logLevel: { type: 'string', enum: ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'none'] },
        keepEventsForHeights: { type: 'integer', minimum: -1 },
        version: { type: 'string', format: 'version' },
        backup: objectOf({ height: { type: 'integer', minimum: 0 } }),
        enableMetrics: { type: 'boolean' },
        keepInclusionProofsForHeights: { type: 'integer', minimum: -1 },
        inclusionProofKeys: { type: 'array', items: { type: 'string', format: 'hex' } },
      },
    },
    rpc: {
      type: 'object',
      required: ['modes', 'host', 'port'],
      properties: {
        modes: { type: 'array', items: { type: 'string', enum: ['ipc', 'ws', 'http'] }, uniqueItems: true },
        host: { type: 'string', minLength: 1 },
        port: port(1024),
        allowedMethods: { type: 'array', items: { type: 'string' }, uniqueItems: true },
        accessControlAllowOrigin: { type: 'string' },
        maxBodyBytes: { type: 'integer', minimum: 1024, maximum: 2 ** 31 - 1 },
        maxBatchSize: { type: 'integer', minimum: 1, maximum: 100_000 },
        maxIDsPerRequest: { type: 'integer', minimum: 1, maximum: 100_000 },
        maxHeightSpan: { type: 'integer', minimum: 1, maximum: 1_000_000 },
        readyMaxSlotsBehind: { type: 'integer', minimum: 0, maximum: 1_000_000 },
      },
    },
    network: {
      type: 'object',
      required: ['seedPeers'],
      properties: {
        version: { type: 'string', format: 'networkVersion' },
        port: port(1),
        host: { type: 'string', format: 'ip' },
        seedPeers: peerList('ipOrFQDN'),
        blacklistedIPs: { type: 'array', items: { type: 'string', format: 'ip' } },
        fixedPeers: { ...peerList('ip'), maxItems: 4 },
        whitelistedPeers: peerList('ip'),
        maxOutboundConnections: { type: 'integer', minimum: 0 },
        maxInboundConnections: { type: 'integer', minimum: 0 },
        wsMaxPayload: { type: 'integer', minimum: 1, maximum: 3_048_576 },
        advertiseAddress: { type: 'boolean' },
      },
    },
    transactionPool: {
      type: 'object',
      properties: {
        maxTransactions: { type: 'integer', minimum: 1 },
        maxTransactionsPerAccount: { type: 'integer', minimum: 1 },
        transactionExpiryTime: { type: 'integer', minimum: 60_000 },
        minEntranceFeePriority: { type: 'string', format: 'uint64' },
        minReplacementFeeDifference: { type: 'string', format: 'uint64' },
      },
    },
    genesis: {
      type: 'object',
      required: ['block', 'blockTime', 'bftBatchSize', 'chainID', 'maxTransactionsSize', 'minimumCertifyHeight'],
      additionalProperties: false,
      properties: {
        block: {
          type: 'object',
          properties: { fromFile: { type: 'string', minLength: 1 }, blob: { type: 'string', format: 'hex', minLength: 2 } },
        },
        blockTime: { type: 'integer', minimum: 3, maximum: SECONDS_PER_MONTH },
        bftBatchSize: { type: 'integer', minimum: 1, maximum: MAX_NUM_VALIDATORS + 2 },
        chainID: { type: 'string', format: 'hex', minLength: 8, maxLength: 8 },
        maxTransactionsSize: { type: 'integer', minimum: MAX_CCM_SIZE + 1024, maximum: 30 * 1024 },
        minimumCertifyHeight: { type: 'integer', minimum: 1 },
      },
    },
    generator: objectOf({
      keys: { type: 'object', properties: { fromFile: { type: 'string', minLength: 1 } } },
    }),
    modules: {
      type: 'object',
      propertyNames: { pattern: '^[a-zA-Z][a-zA-Z0-9_]*$' },
      additionalProperties: { type: 'object' },
    },
    plugins: { type: 'object' },
    legacy: {
      type: 'object',
      required: ['brackets'],
      properties: {
        sync: { type: 'boolean' },
        brackets: {
          type: 'array',
          items: objectOf({
            startHeight: { type: 'integer', minimum: 0 },
            snapshotHeight: { type: 'integer', minimum: 0 },
            snapshotBlockID: { type: 'string', format: 'hex', minLength: 64, maxLength: 64 },
          }),
        },
      },
    },
    legacyApi: listener({
      configFile: { type: 'string', minLength: 1 },
      trustedProxyHeader: { type: 'string', pattern: '^[A-Za-z0-9-]{1,64}$' },
      rateLimit: objectOf({ max: { type: 'integer', minimum: 0 }, windowMs: { type: 'integer', minimum: 1000, maximum: 86_400_000 } }),
    }),
    metrics: listener({}),
  },
} as const;
