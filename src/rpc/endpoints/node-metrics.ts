import type { MetricFamily } from './metrics-report.js';

/** One counter value; handed out once so that a hot path increments a field, not a map entry. */
export interface CounterCell {
  value: number;
}

/**
 * The node's own counters for `system_getMetricsReport`. Plain numbers
 * incremented where things happen: the block pipeline calls `recordBlock` / `recordRevert`, the
 * registry builder counts RPC calls per method. Reading them costs nothing until a report is
 * asked for, so the counters stay on even when nobody reads them.
 */
export class NodeMetrics {
  private readonly blocksProcessed: CounterCell = { value: 0 };
  private readonly transactionsProcessed: CounterCell = { value: 0 };
  private readonly blocksReverted: CounterCell = { value: 0 };
  private readonly rpcRequests = new Map<string, CounterCell>();

  /** A block was executed and committed (replayed, generated or received). */
  recordBlock(transactionCount: number): void {
    this.blocksProcessed.value += 1;
    this.transactionsProcessed.value += transactionCount;
  }

  /** The tip block was reverted. */
  recordRevert(): void {
    this.blocksReverted.value += 1;
  }

  /** The counter of calls to RPC method `<namespace>_<name>`, created on first use. */
  rpcRequestCounter(method: string): CounterCell {
    let cell = this.rpcRequests.get(method);
    if (cell === undefined) {
      cell = { value: 0 };
      this.rpcRequests.set(method, cell);
    }
    return cell;
  }

  /** The counters as metric families (names in Prometheus style, `_total` for counters). */
  families(): MetricFamily[] {
    const rpcSamples = [...this.rpcRequests.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([method, cell]) => ({ value: cell.value, labels: { method } }));
    return [
      counter('basalt_blocks_processed_total', 'Blocks executed and committed by this node', this.blocksProcessed),
      counter('basalt_transactions_processed_total', 'Transactions in the blocks executed by this node', this.transactionsProcessed),
      counter('basalt_blocks_reverted_total', 'Blocks reverted by this node', this.blocksReverted),
      {
        name: 'basalt_rpc_requests_total',
        help: 'RPC calls that reached a method (after access and params checks), by method',
        type: 'counter',
        values: rpcSamples,
      },
    ];
  }
}

function counter(name: string, help: string, cell: CounterCell): MetricFamily {
  return { name, help, type: 'counter', values: [{ value: cell.value, labels: {} }] };
}
