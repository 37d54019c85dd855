/**
 * Basalt's own load client, run as its own process so it can be pinned to another core than the
 * server. WebSocket mode is the only way to load /rpc-ws (wrk speaks HTTP only): several sockets,
 * each with many requests in flight, answers matched to requests by their JSON-RPC id. HTTP mode
 * is the fallback when wrk is not installed (node:http keep-alive, one request in flight per
 * connection, as wrk does); it costs far more CPU per request than wrk, so its figures are lower.
 *
 * Usage: node --import tsx bench/lib/load-client.ts ws|http URL BODIES_FILE SECONDS CONNECTIONS [IN_FLIGHT] [once]
 * `once`: send every body exactly once, then stop (SECONDS is then only an upper bound).
 * Prints one line: BENCH {requests, durationUs, p50Us, p99Us, socketErrors, non2xx, rpcErrors}.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import WebSocket from 'ws';

const [mode, url, bodiesFile, secondsArg, connectionsArg, inFlightArg, onceArg] = process.argv.slice(2);
if (!mode || !url || !bodiesFile || !secondsArg || !connectionsArg) throw new Error('Usage: load-client.ts ws|http URL BODIES SECONDS CONNECTIONS [IN_FLIGHT]');
const bodies = readFileSync(bodiesFile, 'utf8').split('\n').filter(line => line !== '');
const durationMs = Number(secondsArg) * 1000;
const connections = Number(connectionsArg);
const inFlight = Number(inFlightArg ?? 1);
const once = onceArg === 'once';

const latenciesUs: number[] = [];
let socketErrors = 0;
let non2xx = 0;
let rpcErrors = 0;
let next = 0;
const startedAt = performance.now();
const deadline = startedAt + durationMs;

function countAnswer(text: string): void {
  if (text.includes('"error"')) rpcErrors++;
}

/** Whether another request may be sent now. */
function more(now: number): boolean {
  return now < deadline && (!once || next < bodies.length);
}

/** The next body with a fresh id, so a WS answer can be matched to its request. */
function nextRequest(id: number): string {
  const body = bodies[next++ % bodies.length]!;
  return body.replace('"id":1,', `"id":${id},`);
}

async function wsConnection(): Promise<void> {
  const socket = new WebSocket(url!, { perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const sentAt = new Map<number, number>();
  let id = 0;
  const send = (): void => {
    id++;
    sentAt.set(id, performance.now());
    socket.send(nextRequest(id));
  };
  await new Promise<void>(resolve => {
    socket.on('message', data => {
      const text = data.toString();
      const match = /"id":(\d+)/.exec(text.slice(0, 64));
      const sent = match ? sentAt.get(Number(match[1])) : undefined;
      if (sent === undefined) return void socketErrors++;
      sentAt.delete(Number(match![1]));
      const now = performance.now();
      latenciesUs.push((now - sent) * 1000);
      countAnswer(text);
      if (more(now)) send();
      else if (sentAt.size === 0) resolve();
    });
    socket.on('error', () => socketErrors++);
    socket.on('close', () => resolve());
    for (let i = 0; i < inFlight && more(performance.now()); i++) send();
    if (sentAt.size === 0) resolve();
  });
  socket.close();
}

async function httpConnection(agent: http.Agent): Promise<void> {
  const target = new URL(url!);
  while (more(performance.now())) {
    const body = nextRequest(1);
    const sent = performance.now();
    try {
      const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const request = http.request(
          { agent, host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
          response => {
            const chunks: Buffer[] = [];
            response.on('data', chunk => chunks.push(chunk as Buffer));
            response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
          },
        );
        request.on('error', reject);
        request.end(body);
      });
      latenciesUs.push((performance.now() - sent) * 1000);
      if (status < 200 || status >= 300) non2xx++;
      countAnswer(text);
    } catch {
      socketErrors++;
    }
  }
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
await Promise.all(Array.from({ length: connections }, () => (mode === 'ws' ? wsConnection() : httpConnection(agent))));
const elapsedUs = (performance.now() - startedAt) * 1000;
agent.destroy();
const sorted = Float64Array.from(latenciesUs).sort();
const report = { requests: latenciesUs.length, durationUs: Math.round(elapsedUs), p50Us: percentile(sorted, 50), p99Us: percentile(sorted, 99), socketErrors, non2xx, rpcErrors };
process.stdout.write(`BENCH ${JSON.stringify(report)}\n`);
