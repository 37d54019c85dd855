/**
 * The engine's `system` namespace (lisk-sdk engine/endpoint/system.ts): node info, module metadata,
 * protocol schemas and the metrics report. getNodeInfo, getMetadata and getSchema are public (the
 * api-client calls them on connect); getMetricsReport is sensitive.
 */
import type { ChainStore } from '../../chain/chain-store.js';
import type { Module } from '../../modules/base/index.js';
import { RawJson } from '../raw-json.js';
import type { RpcMethod } from '../registry.js';
import type { StateReader } from '../../state/state-view.js';
import type { Bft } from '../../engine/consensus/bft/bft.js';
import { metadataJson, schemaJson } from './metadata-json.js';
import { metricsToJSON, metricsToText, type MetricFamily } from './metrics-report.js';
import type { NodeInfoSource } from './node-info.js';
import type { NodeMetrics } from './node-metrics.js';
import { StoreError } from '../../errors.js';

export interface SystemEndpointsOptions {
  readonly chainStore: Pick<ChainStore, 'tipHeight' | 'genesisHeight' | 'finalizedHeight' | 'getHeaderByHeight'>;
  readonly chainID: Buffer;
  readonly nodeInfo: NodeInfoSource;
  /** The registered modules; their metadata is read once, on the first getMetadata call. */
  readonly modules: readonly Pick<Module, 'name' | 'metadata'>[];
  /** The node's counters; without them getMetricsReport is not registered (no stubs). */
  readonly metrics?: NodeMetrics;
  readonly bft: Pick<Bft, 'getHeights'>;
  /** The committed engine state (BFT votes), read at call time. */
  readonly engineState: () => StateReader;
}

const metricsRequest = {
  type: 'object',
  properties: { inString: { type: 'boolean' } },
} as const;

/** Builds the `system_*` methods. */
export function createSystemEndpoints(options: SystemEndpointsOptions): RpcMethod[] {
  const { chainStore, nodeInfo, metrics } = options;
  const chainID = options.chainID.toString('hex');
  // Metadata and schemas never change while the node runs: serialize them once.
  let metadata: RawJson | undefined;
  const schema = new RawJson(schemaJson());

  const methods: RpcMethod[] = [
    {
      namespace: 'system',
      name: 'getNodeInfo',
      invoke: () => {
        const height = chainStore.tipHeight();
        const tip = chainStore.getHeaderByHeight(height);
        if (tip === undefined) throw new StoreError('Store inconsistency: the tip header is missing.');
        const { network } = nodeInfo;
        // Key order as lisk-sdk's SystemEndpoint.getNodeInfo; JSON drops undefined members.
        return {
          version: nodeInfo.version,
          networkVersion: nodeInfo.networkVersion,
          chainID,
          lastBlockID: tip.id.toString('hex'),
          height,
          finalizedHeight: chainStore.finalizedHeight(),
          syncing: nodeInfo.syncing(),
          unconfirmedTransactions: nodeInfo.unconfirmedTransactions(),
          genesisHeight: chainStore.genesisHeight(),
          genesis: { ...nodeInfo.genesis },
          network: {
            version: network.version,
            port: network.port,
            host: network.host,
            seedPeers: network.seedPeers,
            blacklistedIPs: network.blacklistedIPs,
            fixedPeers: network.fixedPeers,
            whitelistedPeers: network.whitelistedPeers,
          },
        };
      },
    },
    {
      namespace: 'system',
      name: 'getMetadata',
      invoke: () => (metadata ??= new RawJson(metadataJson(options.modules))),
    },
    { namespace: 'system', name: 'getSchema', invoke: () => schema },
  ];
  if (metrics !== undefined) {
    methods.push({
      namespace: 'system',
      name: 'getMetricsReport',
      sensitive: true,
      request: metricsRequest,
      invoke: (params) => {
        const families = [...chainGauges(options), ...metrics.families()];
        return params.inString === true ? metricsToText(families) : metricsToJSON(families);
      },
    });
  }
  return methods;
}

/** The consensus gauges lisk-sdk reports (consensus_height, ...), read from the store at report time. */
function chainGauges(options: SystemEndpointsOptions): MetricFamily[] {
  const { chainStore } = options;
  const heights = options.bft.getHeights(options.engineState());
  const gauge = (name: string, help: string, value: number): MetricFamily => ({
    name,
    help,
    type: 'gauge',
    values: [{ value, labels: {} }],
  });
  return [
    gauge('consensus_height', 'Height of the tip', chainStore.tipHeight()),
    gauge('consensus_finalizedHeight', 'Finalized height', chainStore.finalizedHeight()),
    gauge('consensus_maxHeightPrevoted', 'Largest prevoted height', heights.maxHeightPrevoted),
    gauge('consensus_maxHeightPrecommitted', 'Largest precommitted height', heights.maxHeightPrecommitted),
    gauge('consensus_maxHeightCertified', 'Largest certified height', heights.maxHeightCertified),
  ];
}
