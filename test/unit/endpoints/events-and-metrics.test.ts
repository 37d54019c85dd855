/**
 * Event payload builders (lisk-sdk shapes and key order), the metrics report formats
 * (prom-client JSON, Prometheus text) and the node's counters.
 */
import { describe, expect, it } from 'vitest';
import {
  blockHeaderEventPayload,
  newTransactionEventPayload,
  transactionAnnouncementPayload,
  validatorsChangedPayload,
} from '../../../src/rpc/endpoints/engine-events.js';
import { metricsToJSON, metricsToText, type MetricFamily } from '../../../src/rpc/endpoints/metrics-report.js';
import { NodeMetrics } from '../../../src/rpc/endpoints/node-metrics.js';
import { devLines } from './support.js';

describe('event payloads', () => {
  const [, , withTransactions] = devLines(3);
  const block = withTransactions!.block;

  it('chain_newBlock and its siblings carry {blockHeader} as the header JSON, pre-serialized', () => {
    const payload = blockHeaderEventPayload(block.header);
    expect(payload.json).toBe(JSON.stringify({ blockHeader: withTransactions!.blockJson.header }));
  });

  it('txpool_newTransaction carries {transaction}; network_newTransaction {transactionIDs}', () => {
    const transaction = block.transactions[0]!;
    expect(newTransactionEventPayload(transaction).json).toBe(JSON.stringify({ transaction: withTransactions!.blockJson.transactions[0] }));
    expect(transactionAnnouncementPayload([transaction.id])).toEqual({ transactionIDs: [transaction.id.toString('hex')] });
  });

  it('chain_validatorsChanged uses lisk-sdk member names, including preCommitThreshold', () => {
    const payload = validatorsChangedPayload(68n, 69n, [
      { address: Buffer.alloc(20, 0), bftWeight: 1n, generatorKey: Buffer.alloc(32, 1), blsKey: Buffer.alloc(48, 2) },
    ]);
    expect(JSON.stringify(payload)).toBe(
      JSON.stringify({
        nextValidators: [
          {
            address: 'lskzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz5fw596',
            blsKey: '02'.repeat(48),
            generatorKey: '01'.repeat(32),
            bftWeight: '1',
          },
        ],
        preCommitThreshold: '68',
        certificateThreshold: '69',
      }),
    );
  });
});

describe('metrics report', () => {
  const families: MetricFamily[] = [
    { name: 'a_total', help: 'A help with \\ and\nnewline', type: 'counter', values: [{ value: 3, labels: {} }] },
    {
      name: 'b',
      help: 'B',
      type: 'gauge',
      values: [
        { value: 1, labels: { method: 'x"y' } },
        { value: 2.5, labels: { method: 'z', kind: 'k' } },
      ],
    },
  ];

  it('has prom-client getMetricsAsJSON shape and key order', () => {
    expect(JSON.stringify(metricsToJSON(families))).toBe(
      JSON.stringify([
        { help: 'A help with \\ and\nnewline', name: 'a_total', type: 'counter', values: [{ value: 3, labels: {} }], aggregator: 'sum' },
        {
          help: 'B',
          name: 'b',
          type: 'gauge',
          values: [
            { value: 1, labels: { method: 'x"y' } },
            { value: 2.5, labels: { method: 'z', kind: 'k' } },
          ],
          aggregator: 'sum',
        },
      ]),
    );
  });

  it('writes the Prometheus text format with escaped help and label values', () => {
    expect(metricsToText(families)).toBe(
      '# HELP a_total A help with \\\\ and\\nnewline\n# TYPE a_total counter\na_total 3\n\n' +
        '# HELP b B\n# TYPE b gauge\nb{method="x\\"y"} 1\nb{method="z",kind="k"} 2.5\n\n',
    );
  });

  it('counts blocks, transactions, reverts and RPC calls per method', () => {
    const metrics = new NodeMetrics();
    metrics.recordBlock(3);
    metrics.recordBlock(0);
    metrics.recordRevert();
    const cell = metrics.rpcRequestCounter('chain_getLastBlock');
    cell.value += 2;
    expect(metrics.rpcRequestCounter('chain_getLastBlock')).toBe(cell);
    metrics.rpcRequestCounter('app_getRegisteredEvents').value += 1;
    const byName = new Map(metrics.families().map((family) => [family.name, family.values]));
    expect(byName.get('basalt_blocks_processed_total')).toEqual([{ value: 2, labels: {} }]);
    expect(byName.get('basalt_transactions_processed_total')).toEqual([{ value: 3, labels: {} }]);
    expect(byName.get('basalt_blocks_reverted_total')).toEqual([{ value: 1, labels: {} }]);
    expect(byName.get('basalt_rpc_requests_total')).toEqual([
      { value: 1, labels: { method: 'app_getRegisteredEvents' } },
      { value: 2, labels: { method: 'chain_getLastBlock' } },
    ]);
  });
});
