/**
 * Typed errors of the P2P room. Each has a stable `code` (`ERR_P2P_*`) that callers match on;
 * messages are for people and never carry secrets. Messages sent to a remote peer in error
 * answers are a separate matter: they are plain strings chosen where the answer is built.
 */
import { BasaltError } from '../errors.js';

/** Base class: every failure the P2P room reports is a P2pError. */
export class P2pError extends BasaltError {}

/** A request, the handshake or a connection attempt took longer than its timeout. */
export class P2pTimeoutError extends P2pError {
  constructor(
    readonly operation: string,
    readonly timeoutMs: number,
  ) {
    super('ERR_P2P_TIMEOUT', `${operation} timed out after ${timeoutMs} ms`);
  }
}

/** The peer answered a request with a socketcluster error answer. */
export class P2pRemoteError extends P2pError {
  constructor(
    readonly procedure: string,
    readonly remoteMessage: string,
  ) {
    super('ERR_P2P_REMOTE', `${procedure} failed on the peer: ${remoteMessage}`);
  }
}

/** The socket is not open, or closed while a request was waiting for its answer. */
export class P2pConnectionClosedError extends P2pError {
  constructor(
    readonly closeCode: number,
    readonly reason: string,
  ) {
    super('ERR_P2P_CONNECTION_CLOSED', `Connection closed (${closeCode}${reason ? `: ${reason}` : ''})`);
  }
}

/** No connected peer has the given ID. */
export class P2pPeerNotFoundError extends P2pError {
  constructor(readonly peerId: string) {
    super('ERR_P2P_PEER_NOT_FOUND', `No connected peer ${peerId}`);
  }
}

/** A request without a chosen peer found no connected peer to ask. */
export class P2pNoPeerError extends P2pError {
  constructor() {
    super('ERR_P2P_NO_PEER', 'No connected peer to send the request to');
  }
}

/** An outbound connection was refused or the peer's node info is incompatible. */
export class P2pHandshakeError extends P2pError {
  constructor(
    readonly closeCode: number,
    message: string,
  ) {
    super('ERR_P2P_HANDSHAKE', message);
  }
}

/** A frame, envelope or payload from a peer that the protocol does not allow. */
export class P2pProtocolError extends P2pError {
  constructor(message: string) {
    super('ERR_P2P_PROTOCOL', message);
  }
}

/**
 * A procedure or message name that a Lisk peer would punish with a ban (anything outside the
 * lists it serves), or one the network sends by itself (getNodeInfo, getPeers, postNodeInfo).
 */
export class P2pNotPermittedError extends P2pError {
  constructor(readonly operation: string) {
    super('ERR_P2P_NOT_PERMITTED', `${operation} may not be sent to a peer by the caller`);
  }
}

/** Sending now would exceed the per-peer rate limit a Lisk peer enforces (it would penalise us). */
export class P2pRateLimitError extends P2pError {
  constructor(
    readonly operation: string,
    readonly peerId: string,
  ) {
    super('ERR_P2P_RATE_LIMITED', `${operation} to ${peerId} would exceed the peer's rate limit`);
  }
}

/** start/stop out of order, or a call that needs a running network. */
export class P2pStateError extends P2pError {
  constructor(message: string) {
    super('ERR_P2P_STATE', message);
  }
}
