/**
 * `basalt start --enable-metrics` on a fresh devnet: Prometheus scrapes `GET /metrics` on its own
 * port with a plain HTTP client, the text parses, the height gauge is the height
 * system_getNodeInfo answers, RPC counters move with calls, and system_getMetricsReport reads the
 * same registry. The node also keeps Lisk's tmp/pids/controller.pid while it runs.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePrometheusText, type PrometheusText } from '../support/prometheus-text.js';
import { rpc, rpcAnswer, startBasaltNode, stopProcess, waitFor, waitForHeight, type NodeProcess } from '../support/node-process.js';

describe('basalt start --enable-metrics', () => {
  let dataPath: string;
  let node: NodeProcess;
  let rpcPort: number;
  let metricsPort: number;

  const scrape = async (): Promise<PrometheusText> => {
    const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parsePrometheusText(await response.text());
  };

  beforeAll(async () => {
    dataPath = mkdtempSync(join(tmpdir(), 'basalt-metrics-'));
    node = startBasaltNode(['--data-path', dataPath, '--enable-metrics', '--metrics-port', '0']);
    const ports = await node.ports();
    rpcPort = ports.rpc;
    expect(ports.metrics).toBeGreaterThan(0);
    metricsPort = ports.metrics as number;
  }, 60_000);

  afterAll(async () => {
    if (node) await stopProcess(node.child);
    rmSync(dataPath, { recursive: true, force: true });
  });

  it('serves a height gauge equal to system_getNodeInfo height, with block timings and process metrics', async () => {
    await waitForHeight(rpcPort, 2, 60_000, { output: () => node.output() });
    // A block may land between the two reads: retry until the height did not move around the scrape.
    const { gauge, height } = await waitFor(
      'a scrape between two equal heights',
      async () => {
        const before = (await rpc<{ height: number }>(rpcPort, 'system_getNodeInfo')).height;
        const text = await scrape();
        const after = (await rpc<{ height: number }>(rpcPort, 'system_getNodeInfo')).height;
        return before === after ? { gauge: text.value('consensus_height'), height: after } : undefined;
      },
      30_000,
    );
    expect(gauge).toBe(height);
    const text = await scrape();
    expect(text.types.get('consensus_height')).toBe('gauge');
    expect(text.value('basalt_blocks_processed_total')).toBeGreaterThanOrEqual(2);
    expect(text.value('basalt_block_processing_seconds_count', { phase: 'execute' })).toBeGreaterThanOrEqual(2);
    expect(text.value('basalt_lmdb_used_bytes')).toBeGreaterThan(0);
    expect(text.value('basalt_lmdb_map_size_bytes')).toBeGreaterThanOrEqual(text.value('basalt_lmdb_used_bytes') as number);
    expect(text.value('basalt_process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(text.types.get('basalt_nodejs_eventloop_lag_seconds')).toBe('gauge');
    expect(text.value('basalt_p2p_peers', { direction: 'inbound' })).toBe(0);
    expect(text.value('basalt_worker_pool_threads')).toBeGreaterThanOrEqual(1);
  }, 120_000);

  it('counts RPC requests and errors by method and transport', async () => {
    const requests = (text: PrometheusText, method: string) => text.value('basalt_rpc_requests_total', { method, transport: 'http' }) ?? 0;
    const before = await scrape();
    for (let i = 0; i < 3; i += 1) await rpc(rpcPort, 'chain_getLastBlock');
    expect((await rpcAnswer(rpcPort, 'chain_getBlockByHeight', { height: -1 })).error?.code).toBe(-32602);
    expect((await rpcAnswer(rpcPort, 'nobody_hasThis')).error?.code).toBe(-32601);
    const after = await scrape();
    expect(requests(after, 'chain_getLastBlock') - requests(before, 'chain_getLastBlock')).toBe(3);
    expect(after.value('basalt_rpc_errors_total', { method: 'chain_getBlockByHeight', transport: 'http' })).toBe(1);
    expect(after.value('basalt_rpc_errors_total', { method: '(unknown)', transport: 'http' })).toBeGreaterThanOrEqual(1);
    const latencyCount = (text: PrometheusText) => text.value('basalt_rpc_request_duration_seconds_count', { transport: 'http' }) ?? 0;
    expect(latencyCount(after) - latencyCount(before)).toBeGreaterThanOrEqual(5);
  });

  it('answers system_getMetricsReport from the same registry', async () => {
    // The devnet config allows the `system` namespace, so the sensitive report is served.
    const report = parsePrometheusText(await rpc<string>(rpcPort, 'system_getMetricsReport', { inString: true }));
    const scraped = await scrape();
    expect(report.value('consensus_height')).toBeGreaterThanOrEqual(2);
    expect(report.value('basalt_rpc_requests_total', { method: 'chain_getLastBlock', transport: 'http' })).toBe(
      scraped.value('basalt_rpc_requests_total', { method: 'chain_getLastBlock', transport: 'http' }),
    );
    expect(report.value('basalt_process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  // Last: it stops the node.
  it("writes Lisk's controller.pid with its process id, and removes it at a clean stop", async () => {
    const pidPath = join(dataPath, 'tmp', 'pids', 'controller.pid');
    expect(readFileSync(pidPath, 'utf8')).toBe(String(node.child.pid));
    // Lisk's CLI talks to the IPC sockets beside it.
    expect(existsSync(join(dataPath, 'tmp', 'sockets', 'engine.external.rpc.ipc'))).toBe(true);
    expect(await stopProcess(node.child)).toBe(0);
    expect(existsSync(pidPath)).toBe(false);
  });
});
