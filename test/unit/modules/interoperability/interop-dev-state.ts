/**
 * The interop-dev chain pair (test/fixtures/chains/interop-dev/, made by lisk-sdk 6.1.0) as the
 * recovery command tests need it: the state at the tip, edited back to what it was before a
 * given height with values taken from the chain's own events; block headers; workload
 * transactions with their decoded params; and the events lisk-sdk emitted per transaction.
 */
import { Transaction } from '../../../../src/chain/transaction.js';
import { codec, type Schema } from '../../../../src/codec/index.js';
import type { CrossChainCommand, CrossChainMethod, InteroperableModule, ModuleStore } from '../../../../src/modules/base/index.js';
import type { InteroperableModuleRegistry } from '../../../../src/modules/interoperability/state-recovery.js';
import type { MemoryState } from '../../../../src/state/memory-state.js';
import { hex } from '../../../support/fixtures.js';
import { interopNdjson, interopTipState } from '../../../support/interop-chain.js';
import { ModuleHarness } from '../../../support/module-harness.js';

export type Side = 'mainchain' | 'sidechain';

export const MAINCHAIN_ID = Buffer.from('04000000', 'hex');
export const SIDECHAIN_ID = Buffer.from('04000001', 'hex');
/** Registered on the mainchain, terminated by its own channelTerminated message at height 185. */
export const PHANTOM_ID = Buffer.from('04000077', 'hex');
/** Registered on the mainchain, its last certificate older than the liveness limit from height 184. */
export const STALE_ID = Buffer.from('04000078', 'hex');

export interface FixtureEvent {
  module: string;
  name: string;
  data: string;
  topics: string[];
}

interface BlockLine {
  height: number;
  blockJson: { header: { timestamp: number }; transactions: { id: string }[] };
}
interface WorkloadLine {
  seq: number;
  txHex: string;
  txID: string;
  includedAtHeight: number | null;
  pool: { accepted: boolean; error?: { message: string } };
}

const cache = new Map<string, unknown>();
function cached<T>(key: string, load: () => T): T {
  if (!cache.has(key)) cache.set(key, load());
  return cache.get(key) as T;
}

const blocks = (side: Side) => cached(`${side}:blocks`, () => interopNdjson<BlockLine>(side, 'blocks.ndjson'));
const eventLines = (side: Side) =>
  cached(`${side}:events`, () => interopNdjson<{ height: number; events: FixtureEvent[] }>(side, 'events.ndjson'));
const workload = (side: Side) => cached(`${side}:workload`, () => interopNdjson<WorkloadLine>(side, 'workload.ndjson'));

/** Every key/value of the chain's state at the tip (height 240). */
export { interopTipState as tipState };

/** Puts raw bytes (as a chain event or the tip state shows them) under `key` of `store`. */
export function putRaw(state: MemoryState, store: ModuleStore<object>, key: Buffer, value: Buffer | string | undefined): void {
  state.put(store.stateKey(key), typeof value === 'string' ? hex(value) : value);
}

export function blockTimestamp(side: Side, height: number): number {
  const block = blocks(side)[height];
  if (block?.height !== height) throw new Error(`${side} has no block at height ${height}`);
  return block.blockJson.header.timestamp;
}

/** A harness over `state` for the block at `height` (its real timestamp). */
export function harnessAt(side: Side, state: MemoryState, height: number): ModuleHarness {
  return new ModuleHarness({ base: state, header: { height, timestamp: blockTimestamp(side, height) } });
}

/** All events of the block at `height`. */
export function blockEventsAt(side: Side, height: number): FixtureEvent[] {
  const line = eventLines(side).find((candidate) => candidate.height === height);
  if (line === undefined) throw new Error(`${side} has no events at height ${height}`);
  return line.events;
}

/** The events of one transaction (topic 04 ‖ txID), without the engine's commandExecutionResult. */
export function transactionEvents(side: Side, height: number, txID: Buffer): FixtureEvent[] {
  const topic = `04${txID.toString('hex')}`;
  return blockEventsAt(side, height)
    .filter((event) => event.topics[0] === topic && event.name !== 'commandExecutionResult')
    .map(({ module, name, data, topics }) => ({ module, name, data, topics }));
}

/** Data of the first event `name` at `height` whose last topic is `chainID`. */
export function eventData(side: Side, height: number, name: string, chainID: Buffer): Buffer {
  const event = blockEventsAt(side, height).find((e) => e.name === name && e.topics.at(-1) === chainID.toString('hex'));
  if (event === undefined) throw new Error(`${side} has no ${name} event for ${chainID.toString('hex')} at height ${height}`);
  return hex(event.data);
}

/** A workload transaction (by its seq in workload.ndjson), its params decoded with `schema`. */
export function workloadTransaction<P>(side: Side, seq: number, schema: Schema) {
  const line = workload(side).find((candidate) => candidate.seq === seq);
  if (line === undefined) throw new Error(`${side} workload has no seq ${seq}`);
  const transaction = Transaction.fromBytes(hex(line.txHex));
  if (transaction.id.toString('hex') !== line.txID) throw new Error(`seq ${seq}: transaction ID mismatch`);
  return { transaction, params: codec.decode<P>(schema, transaction.params), line };
}

/** Events as the harness holds them, in the fixture's form. */
export function harnessEvents(harness: ModuleHarness): FixtureEvent[] {
  return harness.events.events().map((event) => ({
    module: event.module,
    name: event.name,
    data: event.data.toString('hex'),
    topics: event.topics.map((topic) => topic.toString('hex')),
  }));
}

/**
 * A registry holding `modules` as the interoperability module registers them (lisk-sdk
 * registerInteroperableModule): each one's hooks and commands by name, and once any module is
 * registered, the interoperability module's own cross-chain commands (`own`).
 */
export function registryOf(
  modules: readonly InteroperableModule[],
  own: readonly CrossChainCommand<unknown>[] = [],
): InteroperableModuleRegistry {
  const methods = new Map<string, CrossChainMethod>();
  const commands = new Map<string, readonly CrossChainCommand<unknown>[]>();
  for (const module of modules) {
    commands.set('interoperability', own);
    if (module.crossChainMethod !== undefined) methods.set(module.name, module.crossChainMethod);
    commands.set(module.name, module.crossChainCommands ?? []);
  }
  return { methods, commands };
}
