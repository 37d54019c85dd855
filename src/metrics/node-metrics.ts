/**
 * The node's one metric registry (prom-client), read by both `GET /metrics` (metrics-server.ts)
 * and `system_getMetricsReport`, as lisk-sdk reads its own from framework/src/engine/metrics/
 * metrics.ts. Names follow Prometheus conventions (`basalt_` prefix, units in the name, `_total`
 * on counters); the consensus gauges keep lisk-sdk's names (`consensus_height`, ...) so that a
 * dashboard written for Lisk Core reads them unchanged.
 *
 * Two kinds of metric live here. Events (a block's phases, an RPC call) are recorded when they
 * happen, on child metrics looked up once and cached, so a hot path pays one increment. States
 * (heights, pool queue, peers, LMDB size) are read from their owners only when someone scrapes,
 * through the sources given to `watch`, and cost nothing in between. This room imports nothing of
 * the node: the sources are described here and the composition root hands them in.
 */
import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type Metric,
  type MetricObjectWithValues,
  type MetricValue,
} from 'prom-client';

/** The phases of applying one block (src/engine/chain-processor.ts). */
export type BlockPhase = 'verify' | 'execute' | 'roots' | 'commit';
const BLOCK_PHASES: readonly BlockPhase[] = ['verify', 'execute', 'roots', 'commit'];

/** The chain as the consensus gauges read it. */
export interface ChainMetricsSource {
  tipHeight(): number;
  finalizedHeight(): number;
  bftHeights(): { maxHeightPrevoted: number; maxHeightPrecommitted: number; maxHeightCertified: number };
}

/** The worker pool's state and counts since start (src/workers/worker-pool.ts). */
export interface WorkerPoolMetricsSource {
  readonly threads: number;
  readonly queueSize: number;
  readonly busyThreads: number;
  /** Tasks sent to the pool, by task name. */
  readonly taskCounts: ReadonlyMap<string, number>;
  /** Work done on the main thread instead of the pool, by task name and reason. */
  readonly fallbackCounts: ReadonlyMap<string, { readonly task: string; readonly reason: string; readonly count: number }>;
}

/** The RPC server's sockets (src/rpc/server.ts). */
export interface RpcServerMetricsSource {
  readonly webSocketCount: number;
  /** WebSockets closed because their client stopped reading, since start. */
  readonly backpressureCloses: number;
}

/** The P2P network (src/p2p/p2p-network.ts). */
export interface NetworkMetricsSource {
  peers(): { inbound: number; outbound: number; bannedIPs: number; bans: number };
  syncing(): boolean;
}

/** The LMDB environment's size (lmdb-js `getStats`). */
export interface StoreMetricsSource {
  stats(): { mapSize: number; pageSize: number; lastPageNumber: number };
}

export interface MetricsSources {
  readonly chain?: ChainMetricsSource;
  readonly workers?: WorkerPoolMetricsSource;
  readonly rpc?: RpcServerMetricsSource;
  readonly network?: NetworkMetricsSource;
  readonly store?: StoreMetricsSource;
}

/** What a hot path calls: an increment or an observation on a child metric looked up once. */
export interface Increment {
  inc(): void;
}
export interface Observation {
  observe(value: number): void;
}

/** Seconds; block phases range from tens of microseconds (commit of an empty block) to seconds. */
const BLOCK_PHASE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** lisk-sdk consensus.ts `consensus_blockExecution` buckets. */
const LISK_BLOCK_EXECUTION_BUCKETS = [0.01, 0.05, 0.1, 0.2, 0.5, 1, 5];
const TRANSACTIONS_PER_BLOCK_BUCKETS = [0, 1, 5, 10, 25, 50, 100, 250, 500, 1000];
/** Seconds; a cached block answer takes microseconds, a proof or a long span tens of milliseconds. */
const RPC_LATENCY_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

export class NodeMetrics {
  readonly registry = new Registry();
  private sources: MetricsSources = {};
  private defaultMetricsOn = false;

  private readonly blocksProcessed: Counter;
  private readonly transactionsProcessed: Counter;
  private readonly blocksReverted: Counter;
  private readonly transactionsPerBlock: Histogram;
  private readonly blockExecution: Histogram;
  private readonly blockPhases: Histogram<'phase'>;
  private readonly phaseChildren = new Map<BlockPhase, Observation>();
  private readonly rpcRequests = new Map<string, LabelledCell>();
  private readonly rpcErrors = new Map<string, LabelledCell>();
  private readonly rpcLatency: CellHistogram;

  constructor() {
    const registers = [this.registry];
    const sources = (): MetricsSources => this.sources;
    const gauge = (name: string, help: string, read: (source: MetricsSources) => number | undefined): void => {
      new Gauge({
        name,
        help,
        registers,
        collect() {
          const value = read(sources());
          if (value !== undefined) this.set(value);
        },
      });
    };
    // lisk-sdk's consensus gauges first, in its order: getMetricsReport has always started with them.
    let bftHeights: ReturnType<ChainMetricsSource['bftHeights']> | undefined;
    gauge('consensus_height', 'Height of the tip', (s) => {
      // Read once per report: the three BFT gauges below use the same answer.
      bftHeights = s.chain?.bftHeights();
      return s.chain?.tipHeight();
    });
    gauge('consensus_finalizedHeight', 'Finalized height', (s) => s.chain?.finalizedHeight());
    gauge('consensus_maxHeightPrevoted', 'Largest prevoted height', () => bftHeights?.maxHeightPrevoted);
    gauge('consensus_maxHeightPrecommitted', 'Largest precommitted height', () => bftHeights?.maxHeightPrecommitted);
    gauge('consensus_maxHeightCertified', 'Largest certified height', () => bftHeights?.maxHeightCertified);

    this.blocksProcessed = new Counter({
      name: 'basalt_blocks_processed_total',
      help: 'Blocks executed and committed by this node',
      registers,
    });
    this.transactionsProcessed = new Counter({
      name: 'basalt_transactions_processed_total',
      help: 'Transactions in the blocks executed by this node',
      registers,
    });
    this.blocksReverted = new Counter({ name: 'basalt_blocks_reverted_total', help: 'Blocks reverted by this node', registers });
    this.transactionsPerBlock = new Histogram({
      name: 'basalt_block_transactions',
      help: 'Transactions per committed block',
      buckets: TRANSACTIONS_PER_BLOCK_BUCKETS,
      registers,
    });
    this.blockPhases = new Histogram({
      name: 'basalt_block_processing_seconds',
      help: 'Time to apply a block, by phase: verify (checks against the tip), execute, roots (state, event and validators roots), commit (LMDB write)',
      labelNames: ['phase'],
      buckets: BLOCK_PHASE_BUCKETS,
      registers,
    });
    this.blockExecution = new Histogram({
      name: 'consensus_blockExecution',
      help: 'Seconds to verify, execute and commit a block (lisk-sdk name and buckets)',
      buckets: LISK_BLOCK_EXECUTION_BUCKETS,
      registers,
    });

    // The RPC metrics are plain cells the dispatcher bumps; prom-client reads them at scrape time.
    // A prom-client child re-hashes its labels on every increment, which the busiest path of the
    // node (tens of thousands of requests per second) should not pay.
    cellCounter(
      this.registry,
      'basalt_rpc_requests_total',
      'JSON-RPC requests, by method and transport (a batch counts each member)',
      this.rpcRequests,
    );
    cellCounter(
      this.registry,
      'basalt_rpc_errors_total',
      'JSON-RPC requests answered with an error, by method and transport',
      this.rpcErrors,
    );
    this.rpcLatency = new CellHistogram(
      'basalt_rpc_request_duration_seconds',
      'Time from a message received to its answer ready, by transport (a batch is one message)',
      'transport',
      RPC_LATENCY_BUCKETS,
    );
    this.registry.registerMetric(this.rpcLatency as unknown as Metric);
    gauge('basalt_rpc_websockets', 'Open JSON-RPC WebSocket connections', (s) => s.rpc?.webSocketCount);
    counterReadAtScrape(
      this.registry,
      'basalt_rpc_websocket_backpressure_closes_total',
      'WebSockets closed because the client stopped reading',
      () => sources().rpc?.backpressureCloses,
    );

    gauge('basalt_worker_pool_threads', 'Worker threads in the pool', (s) => s.workers?.threads);
    gauge('basalt_worker_pool_queue_length', 'Tasks waiting for a worker thread', (s) => s.workers?.queueSize);
    gauge('basalt_worker_pool_busy_threads', 'Worker threads running a task', (s) => s.workers?.busyThreads);
    new Counter({
      name: 'basalt_worker_tasks_total',
      help: 'Tasks sent to the worker pool, by task',
      labelNames: ['task'],
      registers,
      collect() {
        const counts = sources().workers?.taskCounts;
        if (counts === undefined) return;
        // The pool keeps the counts: the counter is set to them, not incremented twice.
        this.reset();
        for (const [task, count] of counts) this.inc({ task }, count);
      },
    });
    new Counter({
      name: 'basalt_worker_main_thread_fallbacks_total',
      help: 'Work done on the main thread instead of the pool, by task and reason (small_input: cheaper here; pool_failed: the pool could not run it; stale_tree: the tree moved on; no_verdict: a proof of possession not checked ahead of its block)',
      labelNames: ['task', 'reason'],
      registers,
      collect() {
        const counts = sources().workers?.fallbackCounts;
        if (counts === undefined) return;
        this.reset();
        for (const { task, reason, count } of counts.values()) this.inc({ task, reason }, count);
      },
    });

    let peers: ReturnType<NetworkMetricsSource['peers']> | undefined;
    new Gauge({
      name: 'basalt_p2p_peers',
      help: 'Connected P2P peers, by direction',
      labelNames: ['direction'],
      registers,
      collect() {
        peers = sources().network?.peers();
        if (peers === undefined) return;
        this.set({ direction: 'inbound' }, peers.inbound);
        this.set({ direction: 'outbound' }, peers.outbound);
      },
    });
    gauge('basalt_p2p_banned_ips', 'IP addresses banned now', () => peers?.bannedIPs);
    counterReadAtScrape(this.registry, 'basalt_p2p_bans_total', 'Peers banned since start', () => peers?.bans);
    gauge('basalt_p2p_syncing', '1 while the node syncs from its peers, else 0', (s) =>
      s.network === undefined ? undefined : s.network.syncing() ? 1 : 0,
    );

    let store: ReturnType<StoreMetricsSource['stats']> | undefined;
    gauge('basalt_lmdb_map_size_bytes', 'LMDB map size (the most the store may grow to before it is resized)', (s) => {
      store = s.store?.stats();
      return store?.mapSize;
    });
    gauge('basalt_lmdb_used_bytes', 'LMDB pages in use, in bytes', () => store && (store.lastPageNumber + 1) * store.pageSize);
  }

  /** Gives the sources the state gauges read at scrape time; later calls add or replace sources. */
  watch(sources: MetricsSources): void {
    this.sources = { ...this.sources, ...sources };
  }

  /**
   * Adds prom-client's process metrics (event-loop lag, GC, RSS, heap, handles) as `basalt_*`.
   * Only for a running node that serves metrics: they start a GC observer and an event-loop
   * monitor. Idempotent.
   */
  collectProcessMetrics(): void {
    if (this.defaultMetricsOn) return;
    this.defaultMetricsOn = true;
    collectDefaultMetrics({ register: this.registry, prefix: 'basalt_' });
  }

  /** A block was executed and committed (replayed, generated or received). */
  recordBlock(transactionCount: number): void {
    this.blocksProcessed.inc();
    this.transactionsProcessed.inc(transactionCount);
    this.transactionsPerBlock.observe(transactionCount);
  }

  /** The tip block was reverted. */
  recordRevert(): void {
    this.blocksReverted.inc();
  }

  /** The phases of one committed block, in seconds; their sum also goes to lisk-sdk's consensus_blockExecution. */
  recordBlockPhases(phases: Readonly<Record<BlockPhase, number>>): void {
    for (const phase of BLOCK_PHASES) {
      let child = this.phaseChildren.get(phase);
      if (child === undefined) {
        child = this.blockPhases.labels(phase);
        this.phaseChildren.set(phase, child);
      }
      child.observe(phases[phase]);
    }
    this.blockExecution.observe(phases.verify + phases.execute + phases.roots + phases.commit);
  }

  /** The request counter of `method` on `transport`; callers cache it. */
  rpcRequestCounter(method: string, transport: string): Increment {
    return cellOf(this.rpcRequests, method, transport);
  }

  /** The error counter of `method` on `transport`; callers cache it. */
  rpcErrorCounter(method: string, transport: string): Increment {
    // Shown as 0 from the first request on, so that an error ratio has both of its terms.
    return cellOf(this.rpcErrors, method, transport);
  }

  /** The latency histogram of `transport`; callers cache it. */
  rpcLatencyOf(transport: string): Observation {
    return this.rpcLatency.cell(transport);
  }

  /**
   * `system_getMetricsReport`: prom-client's `getMetricsAsJSON()`, or the text exposition format
   * with `inString` (lisk-sdk engine/endpoint/system.ts).
   */
  report(inString: boolean): Promise<string | MetricObjectWithValues<MetricValue<string>>[]> {
    return inString ? this.registry.metrics() : this.registry.getMetricsAsJSON();
  }
}

/** An unlabelled counter whose value its owner keeps and this reads at scrape time. */
function counterReadAtScrape(registry: Registry, name: string, help: string, read: () => number | undefined): void {
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      const value = read();
      if (value === undefined) return;
      this.reset();
      this.inc(value);
    },
  });
}

/** A counter value kept outside prom-client, with the labels it is reported under. */
class LabelledCell implements Increment {
  value = 0;
  constructor(readonly labels: Readonly<Record<string, string>>) {}
  inc(): void {
    this.value += 1;
  }
}

function cellOf(cells: Map<string, LabelledCell>, method: string, transport: string): LabelledCell {
  const key = `${transport} ${method}`;
  let cell = cells.get(key);
  if (cell === undefined) {
    cell = new LabelledCell({ method, transport });
    cells.set(key, cell);
  }
  return cell;
}

/** A labelled counter whose values are the cells' values at scrape time. */
function cellCounter(registry: Registry, name: string, help: string, cells: ReadonlyMap<string, LabelledCell>): void {
  new Counter({
    name,
    help,
    labelNames: ['method', 'transport'],
    registers: [registry],
    collect() {
      this.reset();
      for (const cell of cells.values()) this.inc(cell.labels, cell.value);
    },
  });
}

/** One label value's buckets (not cumulative), sum and count. */
class HistogramCell implements Observation {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  constructor(private readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length + 1);
  }
  observe(value: number): void {
    let i = 0;
    while (i < this.bounds.length && value > (this.bounds[i] as number)) i += 1;
    this.counts[i] = (this.counts[i] as number) + 1;
    this.sum += value;
    this.count += 1;
  }
}

interface HistogramReport {
  name: string;
  help: string;
  type: 'histogram';
  values: { value: number; metricName: string; labels: Record<string, string | number> }[];
  aggregator: 'sum';
}

/**
 * A histogram with one label whose observations cost a short bucket scan and three additions;
 * it reports itself to the registry in prom-client's own value shape (`_bucket` with `le`,
 * `_sum`, `_count`), so both the text format and the JSON report read it like any histogram.
 */
class CellHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly cells = new Map<string, HistogramCell>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelName: string,
    private readonly bounds: readonly number[],
  ) {}

  cell(labelValue: string): HistogramCell {
    let cell = this.cells.get(labelValue);
    if (cell === undefined) {
      cell = new HistogramCell(this.bounds);
      this.cells.set(labelValue, cell);
    }
    return cell;
  }

  get(): HistogramReport {
    const values: HistogramReport['values'] = [];
    for (const [labelValue, cell] of this.cells) {
      let cumulative = 0;
      for (let i = 0; i <= this.bounds.length; i += 1) {
        cumulative += cell.counts[i] as number;
        const le = i < this.bounds.length ? (this.bounds[i] as number) : '+Inf';
        values.push({ value: cumulative, metricName: `${this.name}_bucket`, labels: { le, [this.labelName]: labelValue } });
      }
      values.push({ value: cell.sum, metricName: `${this.name}_sum`, labels: { [this.labelName]: labelValue } });
      values.push({ value: cell.count, metricName: `${this.name}_count`, labels: { [this.labelName]: labelValue } });
    }
    return { name: this.name, help: this.help, type: 'histogram', values, aggregator: 'sum' };
  }
}
