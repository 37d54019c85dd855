/**
 * A stand-in Lisk Core 3 node for the migration tests: a real WebSocket server speaking the v3
 * JSON-RPC protocol on /ws (actions answered, events broadcast), not a mock of Basalt's client.
 */
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

function varint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 128) | 0x80);
    rest = Math.floor(rest / 128);
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

/** A v3 block as lisk-codec encodes it: {header bytes#1, payload bytes[]#2}, header {version#1, timestamp#2, height#3, previousBlockID#4}. */
export function v3BlockHex(height: number): string {
  const previous = Buffer.alloc(32, 7);
  const header = Buffer.concat([
    Buffer.from([0x08]),
    varint(2),
    Buffer.from([0x10]),
    varint(1795639817),
    Buffer.from([0x18]),
    varint(height),
    Buffer.from([0x22]),
    varint(32),
    previous,
  ]);
  return Buffer.concat([Buffer.from([0x0a]), varint(header.length), header]).toString('hex');
}

/** A stand-in Lisk Core 3 node: JSON-RPC 2.0 on ws://127.0.0.1:<port>/ws, events broadcast to every client. */
export class FakeV3Node {
  readonly server: WebSocketServer;
  nodeInfo: Record<string, unknown> = {};
  forgingStatus: unknown[] = [];
  readonly requests: string[] = [];
  private readonly sockets = new Set<WebSocket>();

  constructor() {
    this.server = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/ws' });
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('message', (data) => {
        const request = JSON.parse(String(data)) as { id: number; method: string; jsonrpc: string };
        this.requests.push(request.method);
        const results: Record<string, unknown> = { 'app:getNodeInfo': this.nodeInfo, 'app:getForgingStatus': this.forgingStatus };
        const reply =
          request.method in results
            ? { jsonrpc: '2.0', id: request.id, result: results[request.method] }
            : { jsonrpc: '2.0', id: request.id, error: { code: -32601, message: `Action '${request.method}' is not registered to bus.` } };
        socket.send(JSON.stringify(reply));
      });
    });
  }

  get url(): string {
    return `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}/ws`;
  }

  publishBlock(height: number): void {
    const notification = JSON.stringify({ jsonrpc: '2.0', method: 'app:block:new', params: { block: v3BlockHex(height), accounts: [] } });
    for (const socket of this.sockets) socket.send(notification);
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.terminate();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A fake node, listening. */
export async function startFakeV3Node(): Promise<FakeV3Node> {
  const node = new FakeV3Node();
  await new Promise((resolve) => node.server.once('listening', resolve));
  return node;
}

/** One delegate as a v3 node's app:getForgingStatus answers it (the first entry of the dev capture). */
export const SAMPLE_FORGING_STATUS = {
  address: '9cabee3d27426676b852ce6b804cb2fdff7cd0b5',
  forging: true,
  height: 261,
  maxHeightPrevoted: 0,
  maxHeightPreviouslyForged: 158,
} as const;
