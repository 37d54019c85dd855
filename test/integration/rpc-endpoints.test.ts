/**
 * The engine endpoints against lisk-sdk's answers: replays the real lisk-sdk 6.1 dev chain, builds
 * the node's registry, starts a real RpcServer on 127.0.0.1 and compares, over HTTP, the answers
 * with what lisk-sdk recorded (blocks.ndjson, events.ndjson, final_state.json, metadata.json,
 * schema.json), checks event and state proofs against the header roots, and the error cases.
 *
 * Envelope difference (documented in src/rpc/README.md): lisk-sdk records a module endpoint's
 * failure as a *success* whose result is `{"error":{"message":…}}`; Basalt answers a JSON-RPC
 * error object. Those cases are compared on the message, which must be identical.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Block } from '../../src/chain/block.js';
import { decodeEvent, eventSmtLeaves, type EventProps } from '../../src/chain/event.js';
import { codec } from '../../src/codec/index.js';
import { eventSchema } from '../../src/chain/schemas.js';
import { genesisInfoJSON, type NodeInfoSource } from '../../src/rpc/endpoints/node-info.js';
import { NodeMetrics } from '../../src/metrics/index.js';
import { silentLogger } from '../../src/logger.js';
import {
  EVENT_KEY_LENGTH,
  STATE_KEY_LENGTH,
  sha256,
  smtKeyFromStateKey,
  verifyInclusionProof,
  verifyNonInclusionProof,
  type SmtProofInput,
} from '../../src/merkle/index.js';
import { openChain, type OpenChain } from '../../src/node.js';
import { buildRegistry } from '../../src/rpc/registry-builder.js';
import { RpcServer } from '../../src/rpc/server.js';
import { recordCases } from '../support/conformance-tally.js';
import { fixturePath, loadJsonFixture } from '../support/fixtures.js';
import {
  devBlockLines,
  devChainConfig,
  devEventsByHeight,
  devFinalState,
  devGenesisBlock,
  type RecordedCall,
} from '../support/dev-chain.js';
import { seedDevGenesis } from '../support/dev-genesis-store.js';

const LOOPBACK = '127.0.0.1';
const final = devFinalState();
const COLLECTED_AT = (JSON.parse(readFileSync(fixturePath('chains/dev/final_state.json'), 'utf8')) as { collectedAt: number }).collectedAt;
/** Answered by rooms outside this registry (txpool). */
const NOT_IN_THIS_REGISTRY = new Set(['txpool_getTransactionsFromPool']);

interface RpcAnswer {
  id: number;
  result?: unknown;
  error?: { code: number; message: string };
}

describe('engine and module endpoints over HTTP on the replayed dev chain', () => {
  const lines = devBlockLines();
  const eventsByHeight = devEventsByHeight();
  const metrics = new NodeMetrics();
  let dataPath: string;
  let chain: OpenChain;
  let server: RpcServer;
  let url: string;
  let nextId = 1;

  /** The raw answer text of one call. */
  async function callText(method: string, params: Record<string, unknown> = {}): Promise<{ id: number; text: string }> {
    const id = nextId;
    nextId += 1;
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    });
    expect(response.status).toBe(200);
    return { id, text: await response.text() };
  }

  async function call(method: string, params: Record<string, unknown> = {}): Promise<RpcAnswer> {
    return JSON.parse((await callText(method, params)).text) as RpcAnswer;
  }

  /** The exact text of the result member (the frame around it is fixed, see src/rpc/response.ts). */
  async function resultText(method: string, params: Record<string, unknown> = {}): Promise<string> {
    const { id, text } = await callText(method, params);
    const prefix = `{"jsonrpc":"2.0","id":${id},"result":`;
    if (!text.startsWith(prefix)) throw new Error(`${method} ${JSON.stringify(params)} failed: ${text.slice(0, 300)}`);
    return text.slice(prefix.length, -1);
  }

  async function errorOf(method: string, params: Record<string, unknown>): Promise<{ code: number; message: string }> {
    const answer = await call(method, params);
    expect(answer.result).toBeUndefined();
    return answer.error as { code: number; message: string };
  }

  beforeAll(async () => {
    dataPath = mkdtempSync(join(tmpdir(), 'basalt-rpc-endpoints-'));
    const config = devChainConfig();
    await seedDevGenesis(dataPath);
    chain = await openChain({ dataPath, config, genesisBlock: devGenesisBlock() });
    for (const line of lines.slice(1)) {
      const processed = await chain.processor.processBlock(Block.fromBytes(Buffer.from(line.blockHex, 'hex')));
      metrics.recordBlock(processed.block.transactions.length);
    }
    const nodeInfo: NodeInfoSource = {
      version: '0.1.0',
      networkVersion: '1.0',
      // lisk-sdk's recorded answer redacts the genesis file path as "<scratch>".
      genesis: genesisInfoJSON(config.genesis, { fromFile: '<scratch>' }),
      network: { version: '1.0', port: 7667, host: '127.0.0.1', seedPeers: [] },
      syncing: () => false,
      unconfirmedTransactions: () => 0,
    };
    const { registry } = buildRegistry({
      chain,
      chainID: config.genesis.chainID,
      nodeInfo,
      metrics,
      stateProver: chain.stateDb,
      now: () => COLLECTED_AT,
    });
    server = new RpcServer({ modes: ['http'], host: LOOPBACK, port: 0, allowedMethods: ['system'] }, registry, silentLogger, metrics);
    await server.start();
    url = `http://${LOOPBACK}:${server.port}/rpc`;
  });

  afterAll(async () => {
    await server?.stop();
    await chain?.close();
    rmSync(dataPath, { recursive: true, force: true });
  });

  it('serves every block by height, by ID and in ranges with lisk-sdk exact JSON, twice (cache path)', async () => {
    for (let pass = 0; pass < 2; pass += 1) {
      for (const line of lines) {
        const expected = JSON.stringify(line.blockJson);
        expect(await resultText('chain_getBlockByHeight', { height: line.height })).toBe(expected);
        expect(await resultText('chain_getBlockByID', { id: line.id })).toBe(expected);
      }
    }
    const tip = lines[lines.length - 1] as (typeof lines)[number];
    expect(await resultText('chain_getLastBlock')).toBe(JSON.stringify(tip.blockJson));
    const descending = `[${lines
      .map((line) => JSON.stringify(line.blockJson))
      .reverse()
      .join(',')}]`;
    expect(await resultText('chain_getBlocksByHeightBetween', { from: 0, to: 999 })).toBe(descending);
    const someIds = lines.slice(100, 200).map((line) => line.id);
    expect(await resultText('chain_getBlocksByIDs', { ids: someIds })).toBe(
      `[${lines
        .slice(100, 200)
        .map((line) => JSON.stringify(line.blockJson))
        .join(',')}]`,
    );
    recordCases('chains/dev/blocks.ndjson', lines.length);
  });

  it('serves transactions and assets of every block as lisk-sdk recorded them', async () => {
    let transactions = 0;
    for (const line of lines) {
      const block = line.blockJson as { transactions: { id: string }[]; assets: unknown[] };
      expect(await resultText('chain_getTransactionsByHeight', { height: line.height })).toBe(JSON.stringify(block.transactions));
      expect(await resultText('chain_getAssetsByHeight', { height: line.height })).toBe(JSON.stringify(block.assets));
      for (const transaction of block.transactions) {
        expect(await resultText('chain_getTransactionByID', { id: transaction.id })).toBe(JSON.stringify(transaction));
        transactions += 1;
      }
      if (block.transactions.length > 0) {
        expect(await resultText('chain_getTransactionsByIDs', { ids: block.transactions.map((tx) => tx.id) })).toBe(
          JSON.stringify(block.transactions),
        );
      }
    }
    expect(transactions).toBe(49);
  });

  it('serves the events of every height exactly as events.ndjson', async () => {
    for (const [height, events] of eventsByHeight) {
      expect(await resultText('chain_getEvents', { height })).toBe(JSON.stringify(events));
    }
    recordCases('chains/dev/events.ndjson', eventsByHeight.size);
  });

  it('proves every event of every block against the header eventRoot, and absent keys as absent', async () => {
    let proved = 0;
    for (const line of lines) {
      const events = (eventsByHeight.get(line.height) ?? []).map(eventFromJSON);
      const keys = events.flatMap((event) => eventSmtLeaves(event).map((leaf) => leaf.key));
      const eventRoot = Buffer.from((line.blockJson as { header: { eventRoot: string } }).header.eventRoot, 'hex');
      const proof = proofFromJSON((await call('chain_proveEvents', { height: line.height, queries: keys.map(hexOf) })).result);
      expect(verifyInclusionProof(keys, proof, eventRoot, EVENT_KEY_LENGTH)).toBe(true);
      proved += keys.length;
      const absent = [sha256(Buffer.from(`absent ${line.height}`)).subarray(0, EVENT_KEY_LENGTH)];
      const absentProof = proofFromJSON((await call('chain_proveEvents', { height: line.height, queries: absent.map(hexOf) })).result);
      expect(verifyNonInclusionProof(absent, absentProof, eventRoot, EVENT_KEY_LENGTH)).toBe(true);
    }
    expect(proved).toBeGreaterThan(1387);
  });

  it('proves every state entry of final_state_kv.json against the tip stateRoot', async () => {
    const kv = loadJsonFixture<{ stateRoot: string; entries: [string, string][] }>('chains/dev/final_state_kv.json');
    const root = Buffer.from(kv.stateRoot, 'hex');
    expect(final.tip.stateRoot).toBe(kv.stateRoot);
    const keys = kv.entries.map(([key]) => smtKeyFromStateKey(Buffer.from(key, 'hex')));
    const answer = (await call('state_prove', { queryKeys: keys.map(hexOf) })).result as { proof: unknown };
    const proof = proofFromJSON(answer.proof);
    expect(verifyInclusionProof(keys, proof, root, STATE_KEY_LENGTH)).toBe(true);
    kv.entries.forEach(([, value], i) => {
      expect(proof.queries[i]?.value.equals(sha256(Buffer.from(value, 'hex')))).toBe(true);
    });
    // A key of a store entry that does not exist: a non-inclusion proof.
    const absent = [smtKeyFromStateKey(Buffer.from('3df49c3c0000ffffffffffffffffffffffffffffffffffffffff', 'hex'))];
    const absentProof = proofFromJSON(((await call('state_prove', { queryKeys: absent.map(hexOf) })).result as { proof: unknown }).proof);
    expect(verifyNonInclusionProof(absent, absentProof, root, STATE_KEY_LENGTH)).toBe(true);
    recordCases('chains/dev/final_state_kv.json', kv.entries.length);
  });

  it('answers every final_state.json call like lisk-sdk (module errors compared on the message)', async () => {
    const calls: RecordedCall[] = [...Object.values(final.perAddress).flat(), ...final.global];
    let compared = 0;
    const mismatches: string[] = [];
    for (const recorded of calls) {
      if (NOT_IN_THIS_REGISTRY.has(recorded.method)) continue;
      const answer = await call(recorded.method, recorded.params);
      const recordedError = (recorded.result as { error?: { message: string } } | undefined)?.error ?? recorded.error;
      let same: boolean;
      if (recordedError !== undefined) {
        same = answer.error?.message === recordedError.message;
      } else {
        same = JSON.stringify(answer.result) === JSON.stringify(recorded.result);
      }
      if (!same) mismatches.push(`${recorded.method} ${JSON.stringify(recorded.params)}: ${JSON.stringify(answer).slice(0, 300)}`);
      compared += 1;
    }
    expect(mismatches).toEqual([]);
    expect(compared).toBe(calls.length - 1);
    recordCases('chains/dev/final_state.json', compared);
  });

  it('serves system_getMetadata and system_getSchema byte-identical to metadata.json and schema.json', async () => {
    const metadata = JSON.stringify(loadJsonFixture('chains/dev/metadata.json'));
    const schema = JSON.stringify(loadJsonFixture('chains/dev/schema.json'));
    expect(await resultText('system_getMetadata')).toBe(metadata);
    expect(await resultText('system_getSchema')).toBe(schema);
    recordCases('chains/dev/metadata.json', 1);
    recordCases('chains/dev/schema.json', 1);
  });

  it('reports real counters and gauges in system_getMetricsReport', async () => {
    type Family = { name: string; values: { value: number; labels: Record<string, string> }[] };
    const report = (await call('system_getMetricsReport', {})).result as Family[];
    const metricValue = (name: string) => report.find((family) => family.name === name)?.values[0]?.value;
    expect(metricValue('consensus_height')).toBe(420);
    expect(metricValue('consensus_finalizedHeight')).toBe(267);
    expect(metricValue('basalt_blocks_processed_total')).toBe(420);
    expect(metricValue('basalt_transactions_processed_total')).toBe(49);
    const rpc = report.find((family) => family.name === 'basalt_rpc_requests_total');
    const byHeight = rpc?.values.find((sample) => sample.labels.method === 'chain_getBlockByHeight' && sample.labels.transport === 'http');
    expect(byHeight?.value).toBeGreaterThanOrEqual(842);
    const text = (await call('system_getMetricsReport', { inString: true })).result as string;
    expect(text).toContain('# TYPE consensus_height gauge\nconsensus_height 420\n');
  });

  it('lists every registered method and event', async () => {
    const endpoints = (await call('app_getRegisteredEndpoints')).result as string[];
    expect(endpoints).toEqual([...endpoints].sort());
    const someOfThem = ['chain_getBlockByID', 'consensus_getBFTHeights', 'state_prove', 'system_getNodeInfo', 'token_getBalances'];
    for (const name of someOfThem) {
      expect(endpoints).toContain(name);
    }
    expect((await call('app_getRegisteredActions')).result).toEqual(endpoints);
    expect((await call('app_getRegisteredEvents')).result).toEqual([
      'app_ready',
      'app_shutdown',
      'chain_deleteBlock',
      'chain_forked',
      'chain_newBlock',
      'chain_validatorsChanged',
      'txpool_newTransaction',
    ]);
  });

  it('answers unknown IDs and heights with -32001 naming what was asked', async () => {
    const unknown = '00'.repeat(32);
    expect(await errorOf('chain_getBlockByID', { id: unknown })).toEqual({
      code: -32001,
      message: `Block with ID ${unknown} does not exist.`,
    });
    expect(await errorOf('chain_getTransactionByID', { id: unknown })).toEqual({
      code: -32001,
      message: `Transaction with ID ${unknown} does not exist.`,
    });
    for (const method of ['chain_getBlockByHeight', 'chain_getTransactionsByHeight', 'chain_getAssetsByHeight', 'chain_getEvents']) {
      expect(await errorOf(method, { height: 421 })).toEqual({ code: -32001, message: 'No block at height 421 (the tip is at 420).' });
    }
    // As lisk-sdk: the plural lookups stop at the first unknown ID.
    const ids = [lines[5]?.id, unknown, lines[6]?.id];
    expect(await resultText('chain_getBlocksByIDs', { ids })).toBe(`[${JSON.stringify(lines[5]?.blockJson)}]`);
    expect((await call('chain_getTransactionsByIDs', { ids: [unknown] })).result).toEqual([]);
  });

  it('answers bad heights, bad hex and oversized requests with -32602 naming the field', async () => {
    const invalid = async (method: string, params: Record<string, unknown>) => {
      const error = await errorOf(method, params);
      expect(error.code).toBe(-32602);
      return error.message;
    };
    expect(await invalid('chain_getBlockByHeight', { height: -1 })).toBe('Invalid params: params.height: must be >= 0');
    expect(await invalid('chain_getBlockByHeight', { height: 1.5 })).toBe('Invalid params: params.height: must be integer');
    expect(await invalid('chain_getBlockByHeight', { height: 2 ** 32 })).toBe('Invalid params: params.height: must be <= 4294967295');
    expect(await invalid('chain_getBlockByHeight', { height: 'abc' })).toBe('Invalid params: params.height: must be integer');
    expect(await invalid('chain_getBlockByHeight', {})).toBe("Invalid params: params: must have required property 'height'");
    expect(await invalid('chain_getBlockByID', { id: 'xyz' })).toContain('params.id');
    expect(await invalid('chain_getBlockByID', { id: 'ab' })).toContain('params.id');
    expect(await invalid('chain_getBlocksByIDs', { ids: Array(101).fill('00'.repeat(32)) })).toBe(
      'Invalid params: params.ids: must NOT have more than 100 items',
    );
    expect(await invalid('chain_getBlocksByHeightBetween', { from: 0, to: 1000 })).toBe(
      'Invalid params: heights 0 to 1000 span 1001 blocks; at most 1000 may be asked at once.',
    );
    expect(await invalid('chain_proveEvents', { height: 1, queries: ['00'] })).toContain('params.queries[0]');
    expect(await invalid('state_prove', { queryKeys: ['zz'] })).toContain('params.queryKeys[0]');
    expect(await invalid('chain_areHeadersContradicting', { header1: '00', header2: '00' })).not.toBe('');
  });

  it('tells contradicting headers apart', async () => {
    const header = (height: number) => Block.fromBytes(Buffer.from(lines[height]?.blockHex as string, 'hex')).header;
    const h10 = header(10);
    const same = { header1: h10.bytes.toString('hex'), header2: h10.bytes.toString('hex') };
    expect((await call('chain_areHeadersContradicting', same)).result).toEqual({ valid: false });
    // The same generator forging twice at one height with the same prevote height.
    const twin = h10.with({ timestamp: h10.timestamp + 1 });
    expect(
      (await call('chain_areHeadersContradicting', { header1: h10.bytes.toString('hex'), header2: twin.bytes.toString('hex') })).result,
    ).toEqual({ valid: true });
  });
});

function hexOf(bytes: Buffer): string {
  return bytes.toString('hex');
}

function eventFromJSON(json: Record<string, unknown>): EventProps {
  // Through the codec: the JSON of chain_getEvents is the codec JSON of the event schema.
  return decodeEvent(codec.encode(eventSchema, codec.fromJSON(eventSchema, json)));
}

function proofFromJSON(json: unknown): SmtProofInput & { queries: { key: Buffer; value: Buffer; bitmap: Buffer }[] } {
  const proof = json as { siblingHashes: string[]; queries: { key: string; value: string; bitmap: string }[] };
  return {
    siblingHashes: proof.siblingHashes.map((hash) => Buffer.from(hash, 'hex')),
    queries: proof.queries.map((query) => ({
      key: Buffer.from(query.key, 'hex'),
      value: Buffer.from(query.value, 'hex'),
      bitmap: Buffer.from(query.bitmap, 'hex'),
    })),
  };
}
