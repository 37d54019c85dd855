/**
 * Shared by the endpoint unit tests: a real ChainStore on a temporary LMDB environment holding the
 * first blocks of the dev chain with their real events (saved directly, no execution), and a way
 * to call methods through the real dispatcher so that params schemas and error codes are exercised
 * exactly as a client meets them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open, type RootDatabase } from 'lmdb';
import { Block } from '../../../src/chain/block.js';
import { ChainStore } from '../../../src/chain/chain-store.js';
import type { EventProps } from '../../../src/chain/event.js';
import { eventSchema } from '../../../src/chain/schemas.js';
import { codec } from '../../../src/codec/index.js';
import { silentLogger } from '../../../src/logger.js';
import { RpcDispatcher } from '../../../src/rpc/dispatcher.js';
import { RpcRegistry, type RpcMethod } from '../../../src/rpc/registry.js';
import { loadBinaryFixture } from '../../support/fixtures.js';

export interface DevLine {
  height: number;
  id: string;
  blockHex: string;
  blockJson: { header: Record<string, unknown>; transactions: { id: string }[]; assets: unknown[] };
  block: Block;
  eventsJson: Record<string, unknown>[];
  events: EventProps[];
}

/** Heights 0..count-1 of the dev chain with their events. */
export function devLines(count: number): DevLine[] {
  const lines = (path: string): string[] => loadBinaryFixture(path).toString('utf8').split('\n', count);
  const events = lines('chains/dev/events.ndjson').map((line) => JSON.parse(line) as { height: number; events: Record<string, unknown>[] });
  return lines('chains/dev/blocks.ndjson').map((text, i) => {
    const line = JSON.parse(text) as Omit<DevLine, 'block' | 'events' | 'eventsJson'>;
    const eventsJson = (events[i] as { events: Record<string, unknown>[] }).events;
    return {
      ...line,
      block: Block.fromBytes(Buffer.from(line.blockHex, 'hex')),
      eventsJson,
      events: eventsJson.map((json) => codec.fromJSON<EventProps>(eventSchema, json)),
    };
  });
}

export interface TempChainStore {
  readonly env: RootDatabase;
  readonly store: ChainStore;
  close(): Promise<void>;
}

/** A ChainStore holding `lines`, with `finalizedHeight` recorded with the last block. */
export function tempChainStore(lines: readonly DevLine[], finalizedHeight: number): TempChainStore {
  const dir = mkdtempSync(join(tmpdir(), 'basalt-endpoints-'));
  const env = open({ path: dir });
  const store = new ChainStore(env);
  env.transactionSync(() => {
    for (const line of lines) store.saveBlock(line.block, line.events, Math.min(line.height, finalizedHeight));
  });
  return {
    env,
    store,
    close: async () => {
      await env.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface CallAnswer {
  result?: unknown;
  /** The exact result text, when the call succeeded. */
  resultText?: string;
  error?: { code: number; message: string };
}

/** Calls methods through a real dispatcher (params checked against the schemas). */
export function dispatcherFor(methods: readonly RpcMethod[], allowedMethods: string[] = []) {
  const registry = new RpcRegistry();
  for (const method of methods) registry.register(method);
  const dispatcher = new RpcDispatcher(registry, { allowedMethods, maxBatchSize: 10, logger: silentLogger });
  return async (method: string, params: Record<string, unknown> = {}): Promise<CallAnswer> => {
    const text = (await dispatcher.handle(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))) as string;
    const answer = JSON.parse(text) as CallAnswer;
    const prefix = '{"jsonrpc":"2.0","id":1,"result":';
    if (text.startsWith(prefix)) answer.resultText = text.slice(prefix.length, -1);
    return answer;
  };
}

/** A ProofJSON answer back to bytes, for the merkle verifiers. */
export function proofFromJSON(json: unknown): { siblingHashes: Buffer[]; queries: { key: Buffer; value: Buffer; bitmap: Buffer }[] } {
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
