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
import type { NodeMetrics } from '../../metrics/index.js';
import type { NodeInfoSource } from './node-info.js';
import { StoreError } from '../../errors.js';

export interface SystemEndpointsOptions {
  readonly chainStore: Pick<ChainStore, 'tipHeight' | 'genesisHeight' | 'finalizedHeight' | 'getHeaderByHeight'>;
  readonly chainID: Buffer;
  readonly nodeInfo: NodeInfoSource;
  /** The registered modules; their metadata is read once, on the first getMetadata call. */
  readonly modules: readonly Pick<Module, 'name' | 'metadata'>[];
  /** The node's metric registry; without it getMetricsReport is not registered (no stubs). */
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
    // The consensus gauges of the report (and of GET /metrics) read this chain at scrape time.
    metrics.watch({
      chain: {
        tipHeight: () => chainStore.tipHeight(),
        finalizedHeight: () => chainStore.finalizedHeight(),
        bftHeights: () => options.bft.getHeights(options.engineState()),
      },
    });
    methods.push({
      namespace: 'system',
      name: 'getMetricsReport',
      sensitive: true,
      request: metricsRequest,
      invoke: (params) => metrics.report(params.inString === true),
    });
  }
  return methods;
}
