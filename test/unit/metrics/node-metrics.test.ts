/**
 * The node's metric registry: events recorded when they happen, states read from their sources
 * only when scraped, both report forms of system_getMetricsReport (prom-client's JSON and the
 * text format) and `GET /metrics` over a real socket, read back with an independent parser.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/logger.js';
import { MetricsServer, NodeMetrics, type MetricsSources } from '../../../src/metrics/index.js';
import { parsePrometheusText } from '../../support/prometheus-text.js';

const LOOPBACK = '127.0.0.1';

function sources(): MetricsSources {
  return {
    chain: {
      tipHeight: () => 42,
      finalizedHeight: () => 40,
      bftHeights: () => ({ maxHeightPrevoted: 41, maxHeightPrecommitted: 40, maxHeightCertified: 30 }),
    },
    workers: {
      threads: 3,
      queueSize: 5,
      busyThreads: 2,
      taskCounts: new Map([['ed25519-verify-batch', 7]]),
      fallbackCounts: new Map([['ed25519-verify-batch/pool_failed', { task: 'ed25519-verify-batch', reason: 'pool_failed', count: 2 }]]),
    },
    rpc: { webSocketCount: 4, backpressureCloses: 1 },
    network: { peers: () => ({ inbound: 2, outbound: 8, bannedIPs: 1, bans: 3 }), syncing: () => true },
    store: { stats: () => ({ mapSize: 1 << 30, pageSize: 4096, lastPageNumber: 99 }) },
  };
}

describe('NodeMetrics', () => {
  it('reads the state gauges from their sources at scrape time, and counts what happened', async () => {
    const metrics = new NodeMetrics();
    let height = 42;
    metrics.watch({ ...sources(), chain: { ...sources().chain!, tipHeight: () => height } });
    metrics.recordBlock(3);
    metrics.recordBlock(0);
    metrics.recordRevert();
    metrics.recordBlockPhases({ verify: 0.001, execute: 0.02, roots: 0.003, commit: 0.0004 });
    const text = parsePrometheusText((await metrics.report(true)) as string);
    expect(text.value('consensus_height')).toBe(42);
    height = 43;
    const again = parsePrometheusText((await metrics.report(true)) as string);
    expect(again.types.get('consensus_height')).toBe('gauge');
    expect(again.value('consensus_height')).toBe(43);
    expect(again.value('consensus_finalizedHeight')).toBe(40);
    expect(again.value('consensus_maxHeightCertified')).toBe(30);
    expect(again.value('basalt_blocks_processed_total')).toBe(2);
    expect(again.value('basalt_transactions_processed_total')).toBe(3);
    expect(again.value('basalt_blocks_reverted_total')).toBe(1);
    expect(again.value('basalt_block_transactions_count')).toBe(2);
    expect(again.types.get('basalt_block_processing_seconds')).toBe('histogram');
    expect(again.value('basalt_block_processing_seconds_count', { phase: 'execute' })).toBe(1);
    expect(again.value('basalt_block_processing_seconds_sum', { phase: 'commit' })).toBeCloseTo(0.0004);
    expect(again.value('consensus_blockExecution_sum')).toBeCloseTo(0.0244);
    expect(again.value('basalt_worker_pool_threads')).toBe(3);
    expect(again.value('basalt_worker_pool_queue_length')).toBe(5);
    expect(again.value('basalt_worker_pool_busy_threads')).toBe(2);
    // Counters kept by their owners are reported as they are, however often they are scraped.
    expect(again.value('basalt_worker_tasks_total', { task: 'ed25519-verify-batch' })).toBe(7);
    expect(again.value('basalt_worker_main_thread_fallbacks_total', { task: 'ed25519-verify-batch', reason: 'pool_failed' })).toBe(2);
    expect(again.value('basalt_rpc_websockets')).toBe(4);
    expect(again.value('basalt_rpc_websocket_backpressure_closes_total')).toBe(1);
    expect(again.value('basalt_p2p_peers', { direction: 'inbound' })).toBe(2);
    expect(again.value('basalt_p2p_peers', { direction: 'outbound' })).toBe(8);
    expect(again.value('basalt_p2p_banned_ips')).toBe(1);
    expect(again.value('basalt_p2p_bans_total')).toBe(3);
    expect(again.value('basalt_p2p_syncing')).toBe(1);
    expect(again.value('basalt_lmdb_map_size_bytes')).toBe(1 << 30);
    expect(again.value('basalt_lmdb_used_bytes')).toBe(100 * 4096);
  });

  it('answers the JSON form in prom-client getMetricsAsJSON shape and key order, lisk-sdk consensus gauges first', async () => {
    const metrics = new NodeMetrics();
    metrics.watch(sources());
    const report = (await metrics.report(false)) as object[];
    expect(JSON.stringify(report[0])).toBe(
      JSON.stringify({
        help: 'Height of the tip',
        name: 'consensus_height',
        type: 'gauge',
        values: [{ value: 42, labels: {} }],
        aggregator: 'sum',
      }),
    );
    const text = (await metrics.report(true)) as string;
    expect(text.startsWith('# HELP consensus_height Height of the tip\n# TYPE consensus_height gauge\nconsensus_height 42\n\n')).toBe(true);
  });

  it('reports state gauges as 0 without sources, and no process metrics unless asked', async () => {
    const metrics = new NodeMetrics();
    const text = parsePrometheusText((await metrics.report(true)) as string);
    expect(text.value('consensus_height')).toBe(0);
    expect(text.value('basalt_lmdb_used_bytes')).toBe(0);
    expect(text.types.has('basalt_process_resident_memory_bytes')).toBe(false);
    metrics.collectProcessMetrics();
    metrics.collectProcessMetrics();
    const withProcess = parsePrometheusText((await metrics.report(true)) as string);
    expect(withProcess.value('basalt_process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(withProcess.types.get('basalt_nodejs_eventloop_lag_seconds')).toBe('gauge');
  });
});

describe('MetricsServer', () => {
  let server: MetricsServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('serves GET /metrics in the text format, 404 elsewhere, 405 for other methods', async () => {
    const metrics = new NodeMetrics();
    metrics.watch(sources());
    server = new MetricsServer(metrics, { host: LOOPBACK, port: 0 }, silentLogger);
    await server.start();
    const base = `http://${LOOPBACK}:${server.port}`;
    const response = await fetch(`${base}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    expect(parsePrometheusText(await response.text()).value('consensus_height')).toBe(42);
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { method: 'POST', body: '' })).status).toBe(405);
  });

  it('refuses a port in use with a clear error', async () => {
    const metrics = new NodeMetrics();
    server = new MetricsServer(metrics, { host: LOOPBACK, port: 0 }, silentLogger);
    await server.start();
    const second = new MetricsServer(metrics, { host: LOOPBACK, port: server.port }, silentLogger);
    await expect(second.start()).rejects.toMatchObject({ code: 'ERR_METRICS_LISTEN' });
  });
});
