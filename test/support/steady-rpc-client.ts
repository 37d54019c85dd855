/**
 * A well-behaved JSON-RPC client, run as a child process (`node --import tsx` with the IPC
 * channel) so that its timers and latencies are its own: the test process next to it opens
 * thousands of abusive sockets, and their work must not show up as this client's latency.
 *
 * It calls `system_getNodeInfo` and `chain_getLastBlock` in turn over one keep-alive HTTP
 * connection and one WebSocket, each on a fixed schedule (open loop: a slow answer does not
 * delay the next request), and files every latency under the phase named by the parent's last
 * `{ type: 'phase' }` message. `{ type: 'report' }` is answered with every phase's figures.
 *
 * argv: host port intervalMs localAddress
 */
import http from 'node:http';
import WebSocket from 'ws';

export interface SteadyLatency {
  readonly count: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

export interface SteadyPhaseReport {
  readonly http: SteadyLatency;
  readonly ws: SteadyLatency;
  /** Requests that got an error, a wrong answer or no answer within the request timeout. */
  readonly failures: readonly string[];
  /** Requests sent during the phase whose answer has not come yet. */
  readonly pending: number;
}

export type SteadyReport = Record<string, SteadyPhaseReport>;

export type SteadyCommand = { type: 'phase'; name: string } | { type: 'report' } | { type: 'stop' };

const REQUEST_TIMEOUT_MS = 10_000;
const METHODS = ['system_getNodeInfo', 'chain_getLastBlock'] as const;

interface PhaseSamples {
  http: number[];
  ws: number[];
  failures: string[];
  pending: number;
}

function latency(samples: number[]): SteadyLatency {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
  return { count: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] ?? 0 };
}

function main(): void {
  const [host = '127.0.0.1', portText = '0', intervalText = '100', localAddress] = process.argv.slice(2);
  const port = Number(portText);
  const intervalMs = Number(intervalText);
  const phases = new Map<string, PhaseSamples>();
  let phase = 'start';
  const current = (): PhaseSamples => {
    let samples = phases.get(phase);
    if (samples === undefined) {
      samples = { http: [], ws: [], failures: [], pending: 0 };
      phases.set(phase, samples);
    }
    return samples;
  };

  /** Runs one request of `transport`; `send` resolves with the answer's text. */
  const measure = (transport: 'http' | 'ws', method: string, send: () => Promise<string>): void => {
    const samples = current();
    samples.pending += 1;
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error('no answer')), REQUEST_TIMEOUT_MS);
    });
    Promise.race([send(), timeout])
      .then((text) => {
        const answer = JSON.parse(text) as { result?: unknown };
        if (answer.result === undefined) throw new Error(`no result: ${text.slice(0, 200)}`);
        samples[transport].push(performance.now() - started);
      })
      .catch((error: unknown) => samples.failures.push(`${transport} ${method}: ${(error as Error).message}`))
      .finally(() => {
        clearTimeout(timer);
        samples.pending -= 1;
      });
  };

  const agent = new http.Agent({ keepAlive: true, maxSockets: 1, ...(localAddress ? { localAddress } : {}) });
  const httpCall = (method: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const request = http.request(
        { host, port, path: '/rpc', method: 'POST', agent, headers: { 'content-type': 'application/json' } },
        (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () => (response.statusCode === 200 ? resolve(body) : reject(new Error(`HTTP ${response.statusCode}`))));
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method }));
    });

  // One WebSocket; answers are matched to requests by id. A lost socket fails its requests.
  const waiting = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let socket: WebSocket | undefined;
  let opening: Promise<WebSocket> | undefined;
  const openSocket = (): Promise<WebSocket> => {
    opening ??= new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(`ws://${host}:${port}/rpc-ws`, localAddress ? { localAddress } : {});
      ws.once('open', () => {
        socket = ws;
        resolve(ws);
      });
      ws.once('error', reject);
      ws.on('message', (data) => {
        const text = String(data);
        const id = (JSON.parse(text) as { id?: number }).id;
        if (typeof id !== 'number') return;
        waiting.get(id)?.resolve(text);
        waiting.delete(id);
      });
      ws.on('close', (code) => {
        socket = undefined;
        opening = undefined;
        for (const entry of waiting.values()) entry.reject(new Error(`WebSocket closed (${code})`));
        waiting.clear();
      });
    }).catch((error: unknown) => {
      opening = undefined;
      throw error;
    });
    return opening;
  };
  const wsCall = async (method: string): Promise<string> => {
    const ws = socket ?? (await openSocket());
    const id = nextId++;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, method }));
    });
  };

  let tick = 0;
  const timer = setInterval(() => {
    const method = METHODS[tick % METHODS.length] as string;
    tick += 1;
    measure('http', method, () => httpCall(method));
    measure('ws', method, () => wsCall(method));
  }, intervalMs);

  const stop = (): void => {
    clearInterval(timer);
    socket?.terminate();
    agent.destroy();
    if (process.connected) process.disconnect();
    // Requests still waiting for an answer must not keep a client nobody listens to alive.
    setTimeout(() => process.exit(0), 1_000).unref();
  };
  process.on('message', (command: SteadyCommand) => {
    if (command.type === 'phase') {
      phase = command.name;
      current(); // a phase shorter than one interval is still reported, with no samples
    } else if (command.type === 'report') {
      const report: SteadyReport = {};
      for (const [name, samples] of phases) {
        report[name] = { http: latency(samples.http), ws: latency(samples.ws), failures: samples.failures, pending: samples.pending };
      }
      process.send?.({ type: 'report', report });
    } else stop();
  });
  // The test process went away without saying stop: stop too.
  process.on('disconnect', stop);
  process.send?.({ type: 'ready' });
}

main();
