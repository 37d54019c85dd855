/**
 * Basalt's own load client, run as its own process so it can be pinned to another core than the
 * server. WebSocket mode is the only way to load /rpc-ws (wrk speaks HTTP only): several sockets,
 * each with many requests in flight, answers matched to requests by their JSON-RPC id. HTTP mode
 * is the fallback when wrk is not installed (node:http keep-alive, one request in flight per
 * connection, as wrk does); it costs far more CPU per request than wrk, so its figures are lower.
 *
 * Usage: node --import tsx bench/lib/load-client.ts ws|http URL BODIES_FILE SECONDS CONNECTIONS [IN_FLIGHT] [once] [rate=N]
 * `once`: send every body exactly once, then stop (SECONDS is then only an upper bound).
 * `rate=N` (WebSocket only): an open loop at N requests/s in all, spread evenly over the sockets,
 * each with at most IN_FLIGHT outstanding; each latency counts from the moment its request was
 * due, so a server that falls behind shows it in the tail instead of slowing the load.
 * Prints one line: BENCH {requests, durationUs, p50Us, p99Us, socketErrors, non2xx, rpcErrors}.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import WebSocket from 'ws';

const [mode, url, bodiesFile, secondsArg, connectionsArg, inFlightArg, ...flags] = process.argv.slice(2);
if (!mode || !url || !bodiesFile || !secondsArg || !connectionsArg)
  throw new Error('Usage: load-client.ts ws|http URL BODIES SECONDS CONNECTIONS [IN_FLIGHT]');
const bodies = readFileSync(bodiesFile, 'utf8')
  .split('\n')
  .filter((line) => line !== '');
const durationMs = Number(secondsArg) * 1000;
const connections = Number(connectionsArg);
const inFlight = Number(inFlightArg ?? 1);
const once = flags.includes('once');
const rateFlag = flags.find((flag) => flag.startsWith('rate='));
/** Requests per second per socket in open-loop mode; undefined: closed loop (IN_FLIGHT each). */
const ratePerSocket = rateFlag === undefined ? undefined : Number(rateFlag.slice(5)) / connections;
if (ratePerSocket !== undefined && (mode !== 'ws' || !(ratePerSocket > 0))) throw new Error('rate=N needs ws mode and N > 0.');
/** Send-time slots per WebSocket (a power of two, far above any in-flight count used). */
const RING = 1 << 16;

/**
 * Latencies in a typed array grown by doubling: one number per request for millions of requests
 * should not become millions of heap numbers for this process's own GC to walk.
 */
let latenciesUs = new Float64Array(1 << 16);
let latencyCount = 0;
function recordLatency(us: number): void {
  if (latencyCount === latenciesUs.length) {
    const grown = new Float64Array(latenciesUs.length * 2);
    grown.set(latenciesUs);
    latenciesUs = grown;
  }
  latenciesUs[latencyCount++] = us;
}
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
  // Send times by id in a ring, not a Map: a Map set and deleted per request replaces its hash
  // table each time, and V8 keeps the replaced tables chained from the live one, so they reach
  // the old generation and this client paid for them in mark-compact pauses counted as latency.
  // Ids grow by one per request and at most `inFlight` are outstanding, so a slot is reused only
  // after RING later requests; the slot's id says whether it still belongs to the answer.
  const sentAt = new Float64Array(RING);
  const sentId = new Float64Array(RING).fill(-1);
  let outstanding = 0;
  let id = 0;
  const send = (dueAt = performance.now()): void => {
    id++;
    sentAt[id & (RING - 1)] = dueAt;
    sentId[id & (RING - 1)] = id;
    outstanding++;
    socket.send(nextRequest(id));
  };
  await new Promise<void>((resolve) => {
    // Open loop: every request due by now is sent, then a timer waits for the next one. At most
    // IN_FLIGHT are outstanding, as in the closed loop: unbounded pipelining only measures socket
    // buffers. A request held back by that limit goes out with the next answer, its latency still
    // counted from when it was due.
    let due = performance.now();
    const sendDue = (now: number): void => {
      for (; due <= now && more(now) && outstanding < inFlight; due += 1000 / ratePerSocket!) send(due);
    };
    const paced = (): void => {
      const now = performance.now();
      sendDue(now);
      if (more(now)) setTimeout(paced, Math.max(0, due - performance.now()));
      else if (outstanding === 0) resolve();
    };
    socket.on('message', (data: Buffer) => {
      // Only the head is decoded: `{"jsonrpc":"2.0","id":N,` then "result" or "error" (Basalt's
      // order), or `{"id":N,"jsonrpc":"2.0",` then "result" or "error" (lisk-sdk's).
      const head = data.toString('latin1', 0, Math.min(data.length, 64));
      const match = /"id":(\d+),(?:"jsonrpc":"2\.0",)?"(result|error)"/.exec(head);
      const answered = match ? Number(match[1]) : -1;
      if (answered < 0 || sentId[answered & (RING - 1)] !== answered) return void socketErrors++;
      sentId[answered & (RING - 1)] = -1;
      outstanding--;
      const now = performance.now();
      recordLatency((now - sentAt[answered & (RING - 1)]!) * 1000);
      if (match![2] === 'error') rpcErrors++;
      if (ratePerSocket !== undefined) sendDue(now);
      else if (more(now)) send();
      if (outstanding === 0 && !more(now)) resolve();
    });
    socket.on('error', () => socketErrors++);
    socket.on('close', () => resolve());
    if (ratePerSocket !== undefined) paced();
    else for (let i = 0; i < inFlight && more(performance.now()); i++) send();
    if (outstanding === 0 && !more(performance.now())) resolve();
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
          {
            agent,
            host: target.hostname,
            port: target.port,
            path: target.pathname,
            method: 'POST',
            headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk) => chunks.push(chunk as Buffer));
            response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
          },
        );
        request.on('error', reject);
        request.end(body);
      });
      recordLatency((performance.now() - sent) * 1000);
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
const sorted = latenciesUs.subarray(0, latencyCount).sort();
const report = {
  requests: latencyCount,
  durationUs: Math.round(elapsedUs),
  p50Us: percentile(sorted, 50),
  p99Us: percentile(sorted, 99),
  socketErrors,
  non2xx,
  rpcErrors,
};
process.stdout.write(`BENCH ${JSON.stringify(report)}\n`);
