/**
 * Real sockets for P2P tests: P2pNetwork nodes on their own loopback addresses (Lisk bans by IP,
 * so every node and raw client gets its own 127.0.0.x), and RawPeer, a hand-driven client that
 * speaks (or breaks) the protocol frame by frame.
 */
import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import { connectionUrl, type ConnectionClaims } from '../../../../src/p2p/connection-query.js';
import { P2pNetwork, type P2pNetworkOptions, type P2pTiming } from '../../../../src/p2p/index.js';

export const CHAIN_ID = Buffer.from('04000000', 'hex');

/** Timings short enough for tests; the protocol rules themselves keep lisk-sdk's values. */
export const FAST_TIMING: Partial<P2pTiming> = { populatorInterval: 150, seedDiscoveryInterval: 500 };

const started: P2pNetwork[] = [];

/** Starts a node listening on `host`, port 0, chain 04000000, version 1.0. */
export async function startNode(host: string, options: Partial<P2pNetworkOptions> = {}): Promise<P2pNetwork> {
  const network = new P2pNetwork({
    chainID: CHAIN_ID,
    networkVersion: '1.0',
    port: 0,
    host,
    ...options,
    timing: { ...FAST_TIMING, ...options.timing },
  });
  await network.start();
  started.push(network);
  return network;
}

/** Stops every node started by startNode (call in afterEach). */
export async function stopNodes(): Promise<void> {
  await Promise.all(started.splice(0).map((network) => (network.isRunning ? network.stop() : undefined)));
}

/** Resolves with the arguments of the next `event` that satisfies `accept`. */
export function nextEvent<T extends unknown[]>(
  emitter: { on(event: string, listener: (...args: T) => void): unknown; off(event: string, listener: (...args: T) => void): unknown },
  event: string,
  accept: (...args: T) => boolean = () => true,
  timeoutMs = 5_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      emitter.off(event, listener);
      reject(new Error(`no ${event} within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (...args: T): void => {
      if (!accept(...args)) return;
      clearTimeout(timer);
      emitter.off(event, listener);
      resolve(args);
    };
    emitter.on(event, listener);
  });
}

export async function until(condition: () => boolean, timeoutMs = 5_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export interface RawPeerOptions {
  localAddress: string;
  claims?: Partial<ConnectionClaims>;
  /** Answer the server's `#1` with `#2` (default true). */
  answerPings?: boolean;
}

/** A client driven frame by frame, to check how a node treats well- and ill-behaved peers. */
export class RawPeer {
  readonly frames: string[] = [];
  closed: { code: number; reason: string } | undefined;
  private nextCid = 2;

  private constructor(
    readonly ws: WebSocket,
    answerPings: boolean,
  ) {
    ws.on('message', (raw) => {
      const text = raw.toString();
      this.frames.push(text);
      if (text === '#1' && answerPings) ws.send('#2');
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
    });
    ws.on('error', () => undefined);
  }

  /** Opens the WebSocket; rejects with `HTTP <status>` when the upgrade is refused. */
  static connect(host: string, port: number, options: RawPeerOptions): Promise<RawPeer> {
    const claims: ConnectionClaims = {
      networkVersion: '1.0',
      chainID: CHAIN_ID,
      nonce: Buffer.from(options.localAddress).toString('hex').padEnd(16, '0').slice(0, 16),
      advertiseAddress: false,
      port: 40_000,
      ...options.claims,
    };
    const ws = new WebSocket(connectionUrl(host, port, claims), {
      localAddress: options.localAddress,
      perMessageDeflate: false,
      autoPong: false,
    });
    const peer = new RawPeer(ws, options.answerPings ?? true);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(peer));
      ws.once('unexpected-response', (_request, response: IncomingMessage) => reject(new Error(`HTTP ${response.statusCode}`)));
      ws.once('error', reject);
    });
  }

  send(packet: unknown): void {
    this.ws.send(typeof packet === 'string' ? packet : JSON.stringify(packet));
  }

  /** Sends `#handshake` and resolves with the answer's data. */
  async handshake(): Promise<Record<string, unknown>> {
    this.send({ event: '#handshake', data: { authToken: null }, cid: 1 });
    const answer = await this.waitForPacket((packet) => packet.rid === 1);
    return answer.data as Record<string, unknown>;
  }

  /** Sends an rpc-request and resolves with the whole answer packet. */
  async request(procedure: string, data?: string, timeoutMs = 2_000): Promise<Record<string, unknown>> {
    const cid = this.nextCid++;
    this.send({ event: 'rpc-request', data: data === undefined ? { procedure } : { procedure, data }, cid });
    return this.waitForPacket((packet) => packet.rid === cid, timeoutMs);
  }

  message(event: string, data?: string): void {
    this.send({ event: 'remote-message', data: data === undefined ? { event } : { event, data } });
  }

  packets(): Record<string, unknown>[] {
    return this.frames.filter((frame) => frame.startsWith('{')).map((frame) => JSON.parse(frame) as Record<string, unknown>);
  }

  async waitForPacket(accept: (packet: Record<string, unknown>) => boolean, timeoutMs = 2_000): Promise<Record<string, unknown>> {
    let found: Record<string, unknown> | undefined;
    await until(() => (found = this.packets().find(accept)) !== undefined, timeoutMs, 'packet');
    return found!;
  }

  async waitClosed(timeoutMs = 3_000): Promise<{ code: number; reason: string }> {
    if (this.closed === undefined) await Promise.race([once(this.ws, 'close'), until(() => this.closed !== undefined, timeoutMs, 'close')]);
    return this.closed!;
  }

  /** The `#disconnect` the server sent before closing, if any. */
  disconnectEvent(): { code: number; data?: string } | undefined {
    return this.packets().find((packet) => packet.event === '#disconnect')?.data as { code: number; data?: string } | undefined;
  }

  close(): void {
    this.ws.terminate();
  }
}
