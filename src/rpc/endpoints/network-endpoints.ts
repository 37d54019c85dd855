/**
 * The engine's `network` namespace (lisk-sdk `framework/src/engine/network/endpoint.ts`): the
 * connected and disconnected peers with the node info they announced, and the P2P statistics.
 * The node hands the network's view in; this file only shapes the JSON (chain IDs and block IDs
 * as hex; an unknown chain ID as "", as lisk-sdk does). Peers that do not advertise their
 * address are left out by the network, as lisk-p2p leaves them out.
 */
import type { RpcMethod } from '../registry.js';

/** A peer as the network room reports it. */
export interface NetworkPeerView {
  readonly ipAddress: string;
  readonly port: number;
  readonly chainID?: Buffer | undefined;
  readonly networkVersion?: string | undefined;
  readonly nonce?: string | undefined;
  readonly advertiseAddress?: boolean;
  readonly options?:
    | {
        readonly height: number;
        readonly maxHeightPrevoted: number;
        readonly blockVersion: number;
        readonly lastBlockID: Buffer;
        readonly legacy: readonly Buffer[];
      }
    | undefined;
}

export interface NetworkView {
  connectedPeers(): readonly NetworkPeerView[];
  disconnectedPeers(): readonly NetworkPeerView[];
  stats(): unknown;
}

function peerJSON(peer: NetworkPeerView): Record<string, unknown> {
  const json: Record<string, unknown> = {
    ipAddress: peer.ipAddress,
    port: peer.port,
    peerId: `${peer.ipAddress}:${peer.port}`,
    chainID: peer.chainID?.toString('hex') ?? '',
    networkVersion: peer.networkVersion ?? '',
    nonce: peer.nonce ?? '',
  };
  if (peer.advertiseAddress !== undefined) json.advertiseAddress = peer.advertiseAddress;
  if (peer.options) {
    const { height, maxHeightPrevoted, blockVersion, lastBlockID, legacy } = peer.options;
    json.options = {
      height,
      maxHeightPrevoted,
      blockVersion,
      lastBlockID: lastBlockID.toString('hex'),
      legacy: legacy.map((id) => id.toString('hex')),
    };
  }
  return json;
}

/** `network_getConnectedPeers`, `network_getDisconnectedPeers`, `network_getStats`. */
export function createNetworkEndpoints(view: () => NetworkView | undefined): RpcMethod[] {
  const empty = { type: 'object', properties: {}, additionalProperties: false } as const;
  return [
    {
      namespace: 'network',
      name: 'getConnectedPeers',
      request: empty,
      invoke: () => (view()?.connectedPeers() ?? []).map(peerJSON),
    },
    {
      namespace: 'network',
      name: 'getDisconnectedPeers',
      request: empty,
      invoke: () => (view()?.disconnectedPeers() ?? []).map(peerJSON),
    },
    {
      namespace: 'network',
      name: 'getStats',
      request: empty,
      invoke: () => view()?.stats() ?? {},
    },
  ];
}
