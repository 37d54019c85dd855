/**
 * Numbers and wire strings of the Lisk P2P protocol as lisk-sdk v6.1.0 runs it
 * (`elements/lisk-p2p/src/constants.ts`, the socketcluster-server 14 / socketcluster-client 14
 * defaults that lisk-p2p leaves untouched, and `framework/src/engine/network/*`). Values that a
 * remote Lisk node enforces on us are marked "enforced by the peer": changing them breaks interop.
 */

/** The WebSocket path of the P2P endpoint (`DEFAULT_HTTP_PATH`). */
export const P2P_PATH = '/rpc/';
/** Lisk's default P2P port. */
export const DEFAULT_P2P_PORT = 7667;
/** Largest WebSocket message, in bytes, both directions (`DEFAULT_WS_MAX_PAYLOAD`; the config schema caps it here too). */
export const DEFAULT_WS_MAX_PAYLOAD = 3_048_576;
/** Largest encoded node info (`DEFAULT_MAX_PEER_INFO_SIZE`); a larger one costs the sender 100. */
export const MAX_PEER_INFO_SIZE = 20_480;
/** Bytes of the per-process nonce that detects self-connections (`DEFAULT_NONCE_LENGTH_BYTES`). */
export const NONCE_LENGTH_BYTES = 8;

/** Timeouts, in milliseconds. */
export const CONNECT_TIMEOUT = 2_000; // lisk-p2p DEFAULT_CONNECT_TIMEOUT: TCP + upgrade of an outbound socket
export const OUTBOUND_ACK_TIMEOUT = 2_000; // DEFAULT_ACK_TIMEOUT: requests (and the handshake) on outbound sockets; enforced by the peer
export const INBOUND_ACK_TIMEOUT = 10_000; // socketcluster-server default: requests a server makes over inbound sockets
export const HANDSHAKE_TIMEOUT = 10_000; // socketcluster-server: an inbound socket must send #handshake within this
export const SERVER_PING_INTERVAL = 8_000; // socketcluster-server: the server sends `#1` this often
export const SERVER_PING_TIMEOUT = 20_000; // socketcluster-server: silence allowed from a client; sent in the handshake answer
export const LATENCY_PING_MIN = 20_000; // lisk-p2p `peer/inbound.ts`: the server side's "ping" RPC interval
export const LATENCY_PING_MAX = 60_000;

/** Peer policy (lisk-p2p constants.ts). */
export const DEFAULT_REPUTATION = 100;
export const BAN_TIME = 86_400_000; // 24 h, by IP
export const POPULATOR_INTERVAL = 10_000;
export const SEED_DISCOVERY_INTERVAL = 30_000;
export const OUTBOUND_SHUFFLE_INTERVAL = 300_000;
export const SEND_PEER_LIMIT = 16;
export const DEFAULT_MAX_OUTBOUND_CONNECTIONS = 20;
export const DEFAULT_MAX_INBOUND_CONNECTIONS = 100;
export const MIN_PEER_DISCOVERY_THRESHOLD = 100;
export const MAX_PEER_DISCOVERY_RESPONSE_LENGTH = 200;
export const MIN_TRIED_PEER_COUNT = 100;
/** Inbound eviction protects these shares of peers (by netgroup, latency, response rate, then longevity of the rest). */
export const PROTECTION_NETGROUP = 0.034;
export const PROTECTION_LATENCY = 0.068;
export const PROTECTION_RESPONSE_RATE = 0.068;
export const PROTECTION_LONGEVITY = 0.5;

/** Frame-rate rule: every frame counts; measured per second; above 100/s costs 10 × ⌊rate/100⌋. */
export const RATE_INTERVAL = 1_000;
export const WS_MAX_MESSAGE_RATE = 100;
export const WS_MAX_MESSAGE_RATE_PENALTY = 10;
/** `postNodeInfo` allowed per 10 s per connection (`DEFAULT_PEER_STATUS_MESSAGE_RATE`); enforced by the peer. */
export const PEER_STATUS_MESSAGE_RATE = 4;
export const PEER_STATUS_INTERVAL = 10_000;
/** `#disconnect` events allowed per second from one IP before the server bans it (`DEFAULT_CONTROL_MESSAGE_LIMIT`). */
export const DISCONNECT_EVENT_LIMIT = 10;
/** Longest socketcluster event name a Lisk server accepts (`peer_server.ts`). */
export const MAX_EVENT_NAME_LENGTH = 128;
/** Productivity (response rate) resets when the peer did not answer for this long (`DEFAULT_PRODUCTIVITY_RESET_INTERVAL`). */
export const PRODUCTIVITY_RESET_INTERVAL = 20_000;

/** Engine rate limiter window (`framework/src/engine/network/base_network_endpoint.ts`). */
export const ENGINE_RATE_WINDOW = 10_000;
/** Penalties. */
export const PENALTY_BAN = 100;
export const PENALTY_RATE = 10;

/** Peer book sizes (lisk-p2p constants.ts). */
export const NEW_BUCKET_COUNT = 128;
export const NEW_BUCKET_SIZE = 32;
export const TRIED_BUCKET_COUNT = 64;
export const TRIED_BUCKET_SIZE = 32;
export const NEW_PEER_EXPIRY = 86_400_000;
export const MAX_RECONNECT_TRIES = 3;

/** Close codes and reasons a Lisk node uses (lisk-p2p constants.ts; socketcluster for 4000/4001/4005/4009). */
export const CloseCode = {
  INTENTIONAL: 1000,
  CLIENT_PING_TIMEOUT: 4000,
  SERVER_PING_TIMEOUT: 4001,
  HANDSHAKE_TIMEOUT: 4005,
  HANDSHAKE_EXPECTED: 4009,
  SELF_CONNECTION: 4101,
  INCOMPATIBLE_PEER: 4104,
  INVALID_PEER_INFO: 4105,
  FORBIDDEN: 4403,
  DUPLICATE_CONNECTION: 4404,
  EVICTED: 4418,
  INVALID_URL: 4501,
  INVALID_QUERY: 4502,
  INVALID_ADDRESS: 4503,
} as const;

export const CloseReason = {
  SELF_CONNECTION: 'Peer cannot connect to itself',
  INCOMPATIBLE_CHAIN: 'Peer chainID did not match our own',
  INCOMPATIBLE_VERSION: 'Peer has incompatible protocol version',
  DUPLICATE_CONNECTION: 'Peer has a duplicate connection',
  INVALID_URL: 'Peer did not provide a valid URL as part of the WebSocket connection',
  INVALID_QUERY: 'Peer did not provide valid query parameters as part of the WebSocket connection',
  INVALID_ADDRESS: 'Peer did not provide a valid address as part of the WebSocket connection',
  SEED_DISCONNECT: 'Disconnect from SeedPeer after discovery',
} as const;
