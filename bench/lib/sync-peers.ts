/**
 * Peers that keep a node busy serving blocks, as nodes syncing from it would: each is Basalt's own
 * P2P client (src/p2p P2pNetwork) on its own loopback address, connected to the node alone, and
 * asks getBlocksFromId at Lisk's limit (100 per 10 s per peer, one every 100 ms), walking the chain
 * batch by batch from genesis and starting over at the tip. Its own process, so it can be pinned
 * away from the node.
 *
 * Usage: node --import tsx bench/lib/sync-peers.ts CONFIG_JSON
 * Prints `READY` once every peer is connected, then asks until a line `stop` arrives on stdin, and
 * prints one line: BENCH {answered, failed, firstError, bytes, seconds, p50Ms, p99Ms}.
 */
import { createInterface } from 'node:readline';
import { codec } from '../../src/codec/index.js';
import { P2pNetwork, p2pSchemas } from '../../src/p2p/index.js';
import { freePort } from './free-port.js';

export interface SyncPeersConfig {
  readonly source: { readonly ip: string; readonly port: number };
  /** One loopback address per peer. */
  readonly hosts: readonly string[];
  readonly chainID: string;
  readonly networkVersion: string;
  /** What the peers announce: the source's own tip, so it neither offers them blocks nor syncs from them. */
  readonly tip: {
    readonly height: number;
    readonly maxHeightPrevoted: number;
    readonly blockVersion: number;
    readonly lastBlockID: string;
  };
  /** IDs the requests start from, in order (every 103rd block from genesis). */
  readonly fromIds: readonly string[];
}

const REQUEST_INTERVAL_MS = 100;

const config = JSON.parse(process.argv[2] ?? '') as SyncPeersConfig;
const requests = config.fromIds.map((id) => codec.encode(p2pSchemas.getBlocksFromIdRequestSchema, { blockId: Buffer.from(id, 'hex') }));
const peerId = `${config.source.ip}:${config.source.port}`;

// A node's connection names its own port (port 0 is refused), even when it takes no connections.
const ports = await Promise.all(config.hosts.map((host) => freePort(host)));
const networks = config.hosts.map(
  (host, i) =>
    new P2pNetwork({
      chainID: Buffer.from(config.chainID, 'hex'),
      networkVersion: config.networkVersion,
      port: ports[i]!,
      host,
      maxInboundConnections: 0,
      advertiseAddress: false,
      fixedPeers: [{ ipAddress: config.source.ip, port: config.source.port }],
      nodeInfoOptions: { ...config.tip, lastBlockID: Buffer.from(config.tip.lastBlockID, 'hex') },
    }),
);
await Promise.all(
  networks.map(async (network) => {
    const connected = new Promise<void>((resolve, reject) => {
      network.on('peer:connect', () => resolve());
      network.on('peer:connect-failed', ({ error }) => reject(error));
    });
    await network.start();
    await connected;
  }),
);

let answered = 0;
let failed = 0;
let firstError: string | undefined;
let bytes = 0;
const latencies: number[] = [];
/** Requests not answered yet: waited for before the networks stop, which would fail them. */
const inFlight = new Set<Promise<void>>();
const startedAt = performance.now();
const timers = networks.map((network, i) => {
  let next = i;
  return setInterval(() => {
    const data = requests[next++ % requests.length]!;
    const sent = performance.now();
    const request = network.request('getBlocksFromId', data, { peerId }).then(
      (response) => {
        latencies.push(performance.now() - sent);
        answered++;
        bytes += response.data?.length ?? 0;
      },
      (error: Error) => {
        failed++;
        firstError ??= error.message;
      },
    );
    inFlight.add(request);
    void request.finally(() => inFlight.delete(request));
  }, REQUEST_INTERVAL_MS);
});
process.stdout.write('READY\n');

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === 'stop') break;
}
for (const timer of timers) clearInterval(timer);
await Promise.all(inFlight);
const seconds = (performance.now() - startedAt) / 1000;
await Promise.all(networks.map((network) => network.stop()));
latencies.sort((a, b) => a - b);
const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN;
process.stdout.write(`BENCH ${JSON.stringify({ answered, failed, firstError, bytes, seconds, p50Ms: at(0.5), p99Ms: at(0.99) })}\n`);
process.exit(0);
