/**
 * The listening side of the P2P port: an HTTP server whose upgrades at `/rpc/` become
 * server-side ScSockets (`elements/lisk-p2p/src/peer_server/peer_server.ts`).
 *
 * - A banned or blacklisted source IP is refused in the upgrade itself with HTTP 401.
 * - Every frame a client sends passes lisk-p2p's frame filter first (socketcluster.ts
 *   clientFrameProblem), and more than 10 `#disconnect` events per second from one IP are refused;
 *   a failing frame, like a WebSocket control frame, terminates the socket and is reported as a
 *   violation, for which the network bans the IP.
 * - Admission (admission.ts) is the network's, once the socket's `#handshake` arrives.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { DISCONNECT_EVENT_LIMIT, P2P_PATH, RATE_INTERVAL } from './constants.js';
import { normaliseAddress } from './peer-address.js';
import { ScSocket } from './sc-socket.js';
import { clientFrameProblem, SC_DISCONNECT } from './socketcluster.js';

export interface InboundServerOptions {
  /** Bind address; undefined: 0.0.0.0. */
  host: string | undefined;
  /** 0: any free port (see `port` after start). */
  port: number;
  maxPayload: number;
  pingInterval: number;
  pingTimeout: number;
  handshakeTimeout: number;
  isBanned(ipAddress: string): boolean;
  /** A new socket, before its handshake; `requestUrl` and `remoteAddress` (IPv4 form) come from the upgrade. */
  onSocket(socket: ScSocket, requestUrl: string | undefined, remoteAddress: string): void;
}

function refuse(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.destroy();
}

export class InboundServer {
  private readonly http: Server;
  private readonly wss: WebSocketServer;
  private readonly sockets = new Set<ScSocket>();
  private disconnectCounts = new Map<string, number>();
  private countReset: NodeJS.Timeout | undefined;
  private boundPort = 0;

  constructor(private readonly options: InboundServerOptions) {
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: options.maxPayload,
      perMessageDeflate: false,
      clientTracking: false,
      autoPong: false,
    });
    this.http = createServer((_request, response) => {
      response.writeHead(426, { Connection: 'close' }).end();
    });
    this.http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => this.onUpgrade(request, socket, head));
  }

  /** The port actually listened on. */
  get port(): number {
    return this.boundPort;
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen(this.options.port, this.options.host ?? '0.0.0.0', () => {
        this.http.off('error', reject);
        resolve();
      });
    });
    this.boundPort = (this.http.address() as AddressInfo).port;
    this.countReset = setInterval(() => {
      this.disconnectCounts = new Map();
    }, RATE_INTERVAL);
    this.countReset.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.countReset);
    for (const socket of this.sockets) socket.terminate(1001, 'server stopped');
    this.sockets.clear();
    this.wss.close();
    await new Promise<void>((resolve) => {
      this.http.close(() => resolve());
      this.http.closeAllConnections();
    });
  }

  private onUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => undefined);
    const remoteAddress = normaliseAddress(request.socket.remoteAddress);
    if (this.options.isBanned(remoteAddress)) {
      refuse(socket, 401, 'Unauthorized');
      return;
    }
    if ((request.url ?? '').split('?')[0] !== P2P_PATH) {
      refuse(socket, 400, 'Bad Request');
      return;
    }
    this.wss.handleUpgrade(request, socket, head, (ws) => {
      const scSocket = new ScSocket(ws, {
        role: 'server',
        pingInterval: this.options.pingInterval,
        pingTimeout: this.options.pingTimeout,
        handshakeTimeout: this.options.handshakeTimeout,
        frameFilter: (text) => clientFrameProblem(text) ?? this.disconnectFlood(text, remoteAddress),
      });
      this.sockets.add(scSocket);
      scSocket.once('close', () => this.sockets.delete(scSocket));
      this.options.onSocket(scSocket, request.url, remoteAddress);
    });
  }

  /** Counts `#disconnect` events per IP and second; the 11th within a second is a violation. */
  private disconnectFlood(text: string, ipAddress: string): string | undefined {
    if (!text.includes(SC_DISCONNECT)) return undefined;
    const { event } = JSON.parse(text) as { event?: unknown };
    if (event !== SC_DISCONNECT) return undefined;
    const count = (this.disconnectCounts.get(ipAddress) ?? 0) + 1;
    this.disconnectCounts.set(ipAddress, count);
    return count > DISCONNECT_EVENT_LIMIT ? `${count} #disconnect events within a second` : undefined;
  }
}
