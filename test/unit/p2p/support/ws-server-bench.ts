/**
 * Measurement behind the WebSocket library choice of src/p2p (see src/p2p/README.md): the same
 * request/answer exchange of the P2P protocol served by `ws` 8 and by uWebSockets.js, each server
 * in its own process, the clients always on `ws` (uWS has no client). Reports answers per second,
 * the server process's CPU time per answer, and the latency of a 2.2 MB answer (103 full blocks).
 *
 *   node --import tsx test/unit/p2p/support/ws-server-bench.ts
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import WebSocket, { WebSocketServer } from 'ws';

const SMALL_ANSWER = Buffer.alloc(1_500, 7).toString('base64');
const LARGE_ANSWER = Buffer.alloc(1_650_000, 9).toString('base64'); // about 2.2 MB of text
const MAX_PAYLOAD = 3_048_576;

function answer(text: string): string {
  const packet = JSON.parse(text) as { cid: number; data: { procedure: string } };
  const data = packet.data.procedure === 'getBlocksFromId' ? LARGE_ANSWER : SMALL_ANSWER;
  return JSON.stringify({ rid: packet.cid, data: { data, peerId: '127.0.0.1:7667' } });
}

async function serve(kind: string, port: number): Promise<void> {
  if (kind === 'ws') {
    const server = new WebSocketServer({ host: '127.0.0.1', port, path: '/rpc/', maxPayload: MAX_PAYLOAD, perMessageDeflate: false });
    server.on('connection', (socket) => socket.on('message', (raw) => socket.send(answer(raw.toString()))));
    await once(server, 'listening');
  } else {
    const { default: uWS } = await import('uWebSockets.js');
    await new Promise<void>((resolve) => {
      uWS
        .App()
        .ws('/rpc/', {
          compression: 0,
          maxPayloadLength: MAX_PAYLOAD,
          idleTimeout: 0,
          sendPingsAutomatically: false,
          maxBackpressure: 8 * 1024 * 1024,
          message: (socket, message) => {
            socket.send(answer(Buffer.from(message).toString()), false);
          },
        })
        .listen('127.0.0.1', port, () => resolve());
    });
  }
  process.send?.('ready');
  process.on('message', (m) => {
    if (m === 'usage') process.send?.(process.cpuUsage());
  });
}

async function connectAll(port: number, count: number): Promise<WebSocket[]> {
  const sockets = Array.from(
    { length: count },
    () => new WebSocket(`ws://127.0.0.1:${port}/rpc/`, { perMessageDeflate: false, maxPayload: MAX_PAYLOAD }),
  );
  await Promise.all(sockets.map((s) => once(s, 'open')));
  return sockets;
}

function requestLoop(socket: WebSocket, procedure: string, until: number, latencies: number[]): Promise<number> {
  return new Promise((resolve) => {
    let cid = 0;
    let sentAt = 0;
    const next = (): void => {
      if (Date.now() >= until) {
        resolve(cid);
        return;
      }
      cid += 1;
      sentAt = performance.now();
      socket.send(JSON.stringify({ event: 'rpc-request', data: { procedure }, cid }));
    };
    socket.on('message', () => {
      latencies.push(performance.now() - sentAt);
      next();
    });
    next();
  });
}

async function measure(kind: string, port: number): Promise<Record<string, number>> {
  const child = fork(fileURLToPath(import.meta.url), ['serve', kind, String(port)], { execArgv: ['--import', 'tsx'] });
  await once(child, 'message');
  const usage = async (): Promise<NodeJS.CpuUsage> => {
    child.send('usage');
    const [u] = (await once(child, 'message')) as [NodeJS.CpuUsage];
    return u;
  };
  const sockets = await connectAll(port, 32);
  const before = await usage();
  const small: number[] = [];
  const counts = await Promise.all(sockets.map((s) => requestLoop(s, 'getLastBlock', Date.now() + 4_000, small)));
  const mid = await usage();
  for (const s of sockets) s.removeAllListeners('message');
  const large: number[] = [];
  await requestLoop(sockets[0]!, 'getBlocksFromId', Date.now() + 4_000, large);
  const after = await usage();
  for (const s of sockets) s.terminate();
  child.kill();
  const answers = counts.reduce((a, b) => a + b, 0);
  const cpu = (u1: NodeJS.CpuUsage, u0: NodeJS.CpuUsage): number => (u1.user - u0.user + u1.system - u0.system) / 1000;
  const sorted = [...large].sort((a, b) => a - b);
  return {
    smallAnswersPerSecond: Math.round(answers / 4),
    serverCpuMicrosPerSmallAnswer: Math.round(((cpu(mid, before) * 1000) / answers) * 10) / 10,
    largeAnswers: large.length,
    largeMedianMs: Math.round(sorted[Math.floor(sorted.length / 2)]! * 10) / 10,
    serverCpuMsPerLargeAnswer: Math.round((cpu(after, mid) / large.length) * 10) / 10,
  };
}

if (process.argv[2] === 'serve') {
  await serve(process.argv[3]!, Number(process.argv[4]));
} else {
  for (const round of [1, 2]) {
    for (const kind of ['ws', 'uws']) {
      const result = await measure(kind, 17_950 + round * 2 + (kind === 'ws' ? 0 : 1));
      process.stdout.write(`${JSON.stringify({ round, kind, ...result })}\n`);
    }
  }
}
