/**
 * Opening an outbound P2P socket (`elements/lisk-p2p/src/peer/outbound.ts`): the WebSocket
 * upgrade at `/rpc/` with our identity in the query, within the connect timeout (2 s in lisk-sdk,
 * TCP and upgrade together). The socket is bound to `network.host` when one is configured: Lisk
 * bans by IP, and nodes that share a machine are told apart by their loopback addresses.
 * No compression is offered and no WebSocket control frame is ever sent.
 */
import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import { P2pConnectionClosedError, P2pHandshakeError, P2pTimeoutError } from './errors.js';
import { ScSocket } from './sc-socket.js';

export interface DialOptions {
  /** Local address to bind (network.host); undefined or 0.0.0.0: any. */
  localAddress: string | undefined;
  connectTimeout: number;
  maxPayload: number;
}

/** Resolves with a client ScSocket whose WebSocket is open (the socketcluster handshake is the caller's next step). */
export function dialSocket(url: string, options: DialOptions): Promise<ScSocket> {
  const localAddress = options.localAddress !== undefined && options.localAddress !== '0.0.0.0' ? options.localAddress : undefined;
  const ws = new WebSocket(url, {
    perMessageDeflate: false,
    maxPayload: options.maxPayload,
    autoPong: false,
    followRedirects: false,
    ...(localAddress === undefined ? {} : { localAddress }),
  });
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (error: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      ws.removeAllListeners();
      ws.on('error', () => undefined);
      ws.terminate();
      reject(error);
    };
    const timer = setTimeout(() => fail(new P2pTimeoutError('connect', options.connectTimeout)), options.connectTimeout);
    ws.once('unexpected-response', (_request, response: IncomingMessage) => {
      fail(new P2pHandshakeError(response.statusCode ?? 0, `Upgrade refused with HTTP ${response.statusCode}`));
    });
    ws.once('error', (error) => fail(new P2pConnectionClosedError(1006, error.message)));
    ws.once('close', (code, reason) => fail(new P2pConnectionClosedError(code, reason.toString())));
    ws.once('open', () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      ws.removeAllListeners();
      resolve(new ScSocket(ws, { role: 'client' }));
    });
  });
}
