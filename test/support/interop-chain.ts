/**
 * The real lisk-sdk 6.1 chain pair of test/fixtures/chains/interop-dev (see the README of each
 * chain): a mainchain (04000000) and a sidechain (04000001) that exchanged cross-chain updates
 * through the chain connector plugin. Loaders like test/support/dev-chain.ts, plus a replay that
 * stops at the first block where Basalt and the recording part ways and says how.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Block } from '../../src/chain/block.js';
import { eventToJSON } from '../../src/chain/event.js';
import type { BlockHeader } from '../../src/chain/block-header.js';
import { loadChainConfig, type ChainConfig } from '../../src/config/lisk-config.js';
import { createBlockExecutor, type OpenChain } from '../../src/node.js';
import { MemoryState } from '../../src/state/memory-state.js';
import type { StateChange } from '../../src/state/overlay-state.js';
import type { DevBlockLine, RecordedCall } from './dev-chain.js';
import { fixturePath } from './fixtures.js';

export type InteropChainName = 'mainchain' | 'sidechain';

export function interopChainDir(chain: InteropChainName): string {
  return fixturePath(join('chains/interop-dev', chain));
}

export function interopChainConfig(chain: InteropChainName): ChainConfig {
  return loadChainConfig(join(interopChainDir(chain), 'config.json'));
}

export function interopGenesisBlock(chain: InteropChainName): Block {
  return Block.fromBytes(readFileSync(join(interopChainDir(chain), 'genesis_block.blob')));
}

/** The lines of one of the chain's ndjson files, parsed. */
export function interopNdjson<T>(chain: InteropChainName, file: string): T[] {
  return readFileSync(join(interopChainDir(chain), file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

export function interopBlockLines(chain: InteropChainName): DevBlockLine[] {
  return interopNdjson<DevBlockLine>(chain, 'blocks.ndjson');
}

export type RecordedEvent = Record<string, unknown>;

export function interopEventsByHeight(chain: InteropChainName): Map<number, RecordedEvent[]> {
  const result = new Map<number, RecordedEvent[]>();
  for (const { height, events } of interopNdjson<{ height: number; events: RecordedEvent[] }>(chain, 'events.ndjson')) {
    result.set(height, events);
  }
  return result;
}

export interface InteropFinalState {
  tip: { height: number; id: string; stateRoot: string; timestamp: number };
  perAddress: Record<string, RecordedCall[]>;
  global: RecordedCall[];
  /** interoperability_* answers for the partner, the phantom chains and an unknown chain ID. */
  perChainID: Record<string, RecordedCall[]>;
  /** The plugin's answers: they depend on what the relayer saw and when, not only on the chain. */
  chainConnector: RecordedCall[];
}

export function interopFinalState(chain: InteropChainName): InteropFinalState {
  return JSON.parse(readFileSync(join(interopChainDir(chain), 'final_state.json'), 'utf8')) as InteropFinalState;
}

/** Where a replay first parted from the recording, in words a failing test can print. */
export interface ReplayDivergence {
  height: number;
  message: string;
}

/** First difference between the events Basalt emitted and the recorded ones, if any. */
export function firstEventDifference(actual: RecordedEvent[], expected: RecordedEvent[]): string | undefined {
  const count = Math.max(actual.length, expected.length);
  for (let i = 0; i < count; i += 1) {
    const got = actual[i];
    const want = expected[i];
    if (JSON.stringify(got) === JSON.stringify(want)) continue;
    return [
      `event #${i} differs (${actual.length} emitted, ${expected.length} recorded)`,
      `  expected: ${describeEvent(want)}`,
      `  actual:   ${describeEvent(got)}`,
    ].join('\n');
  }
  return undefined;
}

function describeEvent(event: RecordedEvent | undefined): string {
  if (event === undefined) return '(none)';
  const { module, name, data, topics } = event as { module: string; name: string; data: string; topics: string[] };
  return `${module}:${name} data=${data} topics=[${topics.join(',')}]`;
}

/**
 * Executes `block` on the chain's committed state without storing anything, for a block the
 * processor refused: its events and how many entries it wrote per store, or the error execution
 * itself threw.
 */
async function dryRun(chain: OpenChain, block: Block): Promise<{ events: RecordedEvent[]; writes: string } | { error: string }> {
  const executor = createBlockExecutor(chain);
  const finalized = chain.chainStore.getHeaderByHeight(chain.chainStore.finalizedHeight()) as BlockHeader;
  try {
    const executed = await executor.execute(
      block,
      chain.stateDb.moduleReader,
      chain.stateDb.engineReader,
      finalized.aggregateCommit.height,
    );
    const events = executed.events.map((event) => ({ ...eventToJSON(event) }));
    return { events, writes: writesPerStore(chain, executed.moduleState.changes()) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** `module/store xN` for every store the changes touch (a hint where a stateRoot differs). */
function writesPerStore(chain: OpenChain, changes: StateChange[]): string {
  const stores = chain.modules.list.flatMap((module) =>
    module.stores.map((store) => ({ name: `${module.name}/${store.name}`, prefix: store.prefix })),
  );
  const counts = new Map<string, number>();
  for (const { key } of changes) {
    const store = stores.find((candidate) => key.subarray(0, candidate.prefix.length).equals(candidate.prefix));
    const name = store?.name ?? `?${key.subarray(0, 6).toString('hex')}`;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].map(([name, count]) => `${name} x${count}`).join(', ');
}

/**
 * Replays the recorded blocks after genesis onto `chain` through `processBlocks` (each block
 * executes while the one before it commits, as sync and `blockchain:replay` apply blocks),
 * checking as each one is stored that the tip has the recorded ID and that the stored events are
 * the recorded ones (the processor itself refuses a block whose roots differ). Returns the first
 * divergence (undefined when all blocks agree): the height, and either the first event that
 * differs (recorded vs emitted), or the ID or error that the processor reported.
 */
export async function replayInteropBlocks(
  chain: OpenChain,
  lines: DevBlockLine[],
  events: Map<number, RecordedEvent[]>,
): Promise<ReplayDivergence | undefined> {
  const after = lines.filter((line) => line.height !== 0);
  let divergence: ReplayDivergence | undefined;
  let storedCount = 0;
  const checkStored = (): void => {
    const line = after[storedCount] as DevBlockLine;
    storedCount += 1;
    const tip = chain.processor.tipHeader();
    if (tip.id.toString('hex') !== line.id) {
      divergence = { height: line.height, message: `tip ID ${tip.id.toString('hex')}, recorded ${line.id}` };
      return;
    }
    const stored = (chain.chainStore.getEvents(line.height) ?? []).map((event) => ({ ...eventToJSON(event) }));
    const eventDiff = firstEventDifference(stored, events.get(line.height) ?? []);
    if (eventDiff !== undefined) divergence = { height: line.height, message: `stored events: ${eventDiff}` };
  };
  const blocks = after.map((line) => Block.fromBytes(Buffer.from(line.blockHex, 'hex')));
  try {
    await chain.processor.processBlocks(blocks, checkStored, () => divergence !== undefined);
  } catch (error) {
    if (divergence !== undefined) return divergence;
    const line = after[storedCount] as DevBlockLine;
    const block = blocks[storedCount] as Block;
    const outcome = await dryRun(chain, block);
    const expected = events.get(line.height) ?? [];
    const eventDiff = 'events' in outcome ? firstEventDifference(outcome.events, expected) : undefined;
    const parts = [`block ${line.id} refused: ${(error as Error).message}`];
    if ('error' in outcome) parts.push(`execution threw: ${outcome.error}`);
    if (eventDiff !== undefined) parts.push(eventDiff);
    else if ('events' in outcome) parts.push(`all ${expected.length} events as recorded; the block writes ${outcome.writes}`);
    return { height: line.height, message: parts.join('\n') };
  }
  return divergence;
}

/** A divergence as one line-broken message, the first line naming the chain and height. */
export function formatDivergence(chain: InteropChainName, divergence: ReplayDivergence | undefined): string {
  if (divergence === undefined) return `${chain}: every block as recorded`;
  return `${chain}: first divergence at height ${divergence.height}\n${divergence.message}`;
}

/** Every state entry at the tip (final_state_kv.json) as an in-memory state. */
export function interopTipState(chain: InteropChainName): MemoryState {
  const { entries } = JSON.parse(readFileSync(join(interopChainDir(chain), 'final_state_kv.json'), 'utf8')) as {
    entries: [string, string][];
  };
  return new MemoryState(entries.map(([key, value]) => ({ key: Buffer.from(key, 'hex'), value: Buffer.from(value, 'hex') })));
}
