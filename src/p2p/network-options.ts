/**
 * Options of a P2pNetwork and how they come from a node config's `network` section (lisk-sdk 6.1
 * format, `framework/src/engine/network/network.ts` init). Timings default to lisk-sdk's values;
 * tests shorten them.
 */
import type { NetworkConfig } from '../config/node-config.js';
import type { Logger } from '../logger.js';
import {
  BAN_TIME,
  CONNECT_TIMEOUT,
  DEFAULT_MAX_INBOUND_CONNECTIONS,
  DEFAULT_MAX_OUTBOUND_CONNECTIONS,
  DEFAULT_WS_MAX_PAYLOAD,
  ENGINE_RATE_WINDOW,
  HANDSHAKE_TIMEOUT,
  INBOUND_ACK_TIMEOUT,
  LATENCY_PING_MAX,
  LATENCY_PING_MIN,
  OUTBOUND_ACK_TIMEOUT,
  OUTBOUND_SHUFFLE_INTERVAL,
  PEER_STATUS_INTERVAL,
  POPULATOR_INTERVAL,
  SEED_DISCOVERY_INTERVAL,
  SERVER_PING_INTERVAL,
  SERVER_PING_TIMEOUT,
} from './constants.js';
import type { P2pHandlers } from './handlers.js';
import type { NodeInfoOptions } from './node-info.js';
import type { PeerAddress } from './peer-address.js';
import { type HostLookup, resolveSeedPeers, toPeerAddress } from './peer-lists.js';

/** Every delay the network uses, in milliseconds. */
export interface P2pTiming {
  connectTimeout: number;
  outboundAckTimeout: number;
  inboundAckTimeout: number;
  handshakeTimeout: number;
  pingInterval: number;
  pingTimeout: number;
  latencyPingMin: number;
  latencyPingMax: number;
  populatorInterval: number;
  seedDiscoveryInterval: number;
  outboundShuffleInterval: number;
  statusInterval: number;
  rateWindow: number;
  banTime: number;
}

export const DEFAULT_TIMING: P2pTiming = {
  connectTimeout: CONNECT_TIMEOUT,
  outboundAckTimeout: OUTBOUND_ACK_TIMEOUT,
  inboundAckTimeout: INBOUND_ACK_TIMEOUT,
  handshakeTimeout: HANDSHAKE_TIMEOUT,
  pingInterval: SERVER_PING_INTERVAL,
  pingTimeout: SERVER_PING_TIMEOUT,
  latencyPingMin: LATENCY_PING_MIN,
  latencyPingMax: LATENCY_PING_MAX,
  populatorInterval: POPULATOR_INTERVAL,
  seedDiscoveryInterval: SEED_DISCOVERY_INTERVAL,
  outboundShuffleInterval: OUTBOUND_SHUFFLE_INTERVAL,
  statusInterval: PEER_STATUS_INTERVAL,
  rateWindow: ENGINE_RATE_WINDOW,
  banTime: BAN_TIME,
};

export interface P2pNetworkOptions {
  chainID: Uint8Array;
  /** `network.version`, `"major.minor"`. */
  networkVersion: string;
  /** Listening port, also the port we claim when we connect out; 0 picks a free one. */
  port: number;
  /** `network.host`: the bind address of the server and the local address of outbound sockets. */
  host?: string;
  /** Whether peers may hand our address out; lisk-sdk's default is true. */
  advertiseAddress?: boolean;
  seedPeers?: PeerAddress[];
  fixedPeers?: PeerAddress[];
  whitelistedPeers?: PeerAddress[];
  blacklistedIPs?: string[];
  /** Tried peers saved by a previous run (see P2pNetwork.triedPeers). */
  previousPeers?: PeerAddress[];
  maxOutboundConnections?: number;
  /** 0: no server at all. */
  maxInboundConnections?: number;
  wsMaxPayload?: number;
  /** 32-bit key of the peer book's bucket hashes; random when absent (lisk-sdk keeps one in its node DB). */
  secret?: number;
  /** Initial node-info options (all zero, like a fresh lisk-sdk node, when absent). */
  nodeInfoOptions?: Partial<NodeInfoOptions>;
  handlers?: P2pHandlers;
  logger?: Logger;
  timing?: Partial<P2pTiming>;
}

/** The resolved limits. */
export interface P2pLimits {
  maxOutbound: number;
  maxInbound: number;
  wsMaxPayload: number;
}

export function limitsOf(options: P2pNetworkOptions): P2pLimits {
  return {
    maxOutbound: options.maxOutboundConnections ?? DEFAULT_MAX_OUTBOUND_CONNECTIONS,
    maxInbound: options.maxInboundConnections ?? DEFAULT_MAX_INBOUND_CONNECTIONS,
    wsMaxPayload: options.wsMaxPayload ?? DEFAULT_WS_MAX_PAYLOAD,
  };
}

/**
 * Network options from a node config's `network` section and the chain ID. Seed peers given by
 * host name are resolved to IPv4 here (once, at start, as lisk-sdk does); names that do not
 * resolve are returned in `unresolved` and left out.
 */
export async function p2pOptionsFromConfig(
  network: NetworkConfig,
  chainID: Uint8Array,
  extra: Pick<P2pNetworkOptions, 'handlers' | 'logger' | 'secret' | 'previousPeers' | 'nodeInfoOptions'> = {},
  lookup?: HostLookup,
): Promise<{ options: P2pNetworkOptions; unresolved: string[] }> {
  const seeds = await resolveSeedPeers(network.seedPeers, lookup);
  const options: P2pNetworkOptions = {
    ...extra,
    chainID,
    networkVersion: network.version,
    port: network.port,
    seedPeers: seeds.peers.map(toPeerAddress),
    fixedPeers: (network.fixedPeers ?? []).map(toPeerAddress),
    whitelistedPeers: (network.whitelistedPeers ?? []).map(toPeerAddress),
    blacklistedIPs: network.blacklistedIPs ?? [],
  };
  if (network.host !== undefined) options.host = network.host;
  if (network.advertiseAddress !== undefined) options.advertiseAddress = network.advertiseAddress;
  if (network.maxOutboundConnections !== undefined) options.maxOutboundConnections = network.maxOutboundConnections;
  if (network.maxInboundConnections !== undefined) options.maxInboundConnections = network.maxInboundConnections;
  if (network.wsMaxPayload !== undefined) options.wsMaxPayload = network.wsMaxPayload;
  return { options, unresolved: seeds.unresolved };
}
