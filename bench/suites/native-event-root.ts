/**
 * The eventRoot of one full block of token transfers (LIP 0065), three ways: the TypeScript
 * leaves and tree (baseline); the same leaves through the native batch update from the empty tree,
 * as blocks were hashed before the addon had a builder for fresh trees; and `blockEventRoot`, one
 * native call that hashes the topics and events and builds the tree without storing a node.
 * The events have the shape of a dev-chain transfer's (lock, transfer, unlock, burn, fee, result;
 * topics: the transaction ID, sender, recipient, generator), with the encodings already made, as
 * the processor has them.
 */
import { blockEventRoot, encodeEvent, eventSmtLeaves, type EventProps } from '../../src/chain/event.js';
import { sha256 } from '../../src/crypto/index.js';
import { EMPTY_HASH, EVENT_KEY_LENGTH, computeEventRoot } from '../../src/merkle/index.js';
import { NativeSparseMerkleTree } from '../../src/merkle/native/index.js';
import type { NativeAddon } from '../../src/native/index.js';
import type { Measurement } from '../lib/figure.js';
import { interleavedMsPerOp } from '../lib/measure.js';

const TRANSFERS = 94;

/** The events of a block of `transfers` token transfers, in execution order. */
function transferBlockEvents(transfers: number): EventProps[] {
  const events: EventProps[] = [];
  const generator = sha256(Buffer.from('bench:generator')).subarray(0, 20);
  const emit = (module: string, name: string, dataLength: number, topics: Buffer[]) =>
    events.push({ module, name, data: Buffer.alloc(dataLength, events.length), topics, height: 1000, index: events.length });
  for (let i = 0; i < transfers; i++) {
    const transaction = Buffer.concat([Buffer.from([4]), sha256(Buffer.from(`bench:tx:${i}`))]);
    const sender = sha256(Buffer.from(`bench:sender:${i}`)).subarray(0, 20);
    const recipient = sha256(Buffer.from(`bench:recipient:${i}`)).subarray(0, 20);
    emit('token', 'lock', 44, [transaction, sender]);
    emit('token', 'transfer', 62, [transaction, sender, recipient]);
    emit('token', 'unlock', 44, [transaction, sender]);
    emit('token', 'burn', 39, [transaction, sender]);
    emit('fee', 'generatorFeeProcessed', 51, [transaction, sender, generator]);
    emit('token', 'commandExecutionResult', 2, [transaction]);
  }
  emit('dynamicReward', 'rewardMinted', 4, [Buffer.from([3]), generator]);
  return events;
}

export async function eventRootRows(addon: NativeAddon, progress: (line: string) => void): Promise<Measurement[]> {
  const events = transferBlockEvents(TRANSFERS);
  const encoded = events.map(encodeEvent);
  const leaves = () => events.flatMap((event, i) => eventSmtLeaves(event, encoded[i]));
  const noNodes = { get: () => undefined };
  const tasks = [
    { name: 'typescript', fn: () => computeEventRoot(leaves()) },
    {
      name: 'batch update',
      fn: () => new NativeSparseMerkleTree(noNodes, EVENT_KEY_LENGTH, addon).updateEntries(EMPTY_HASH, leaves()).root,
    },
    { name: 'blockEventRoot', fn: () => blockEventRoot(events, encoded) },
  ];
  const expected = tasks[0]!.fn();
  for (const task of tasks) {
    if (!(task.fn() as Buffer).equals(expected)) throw new Error(`native eventRoot (${task.name}) differs from TypeScript's.`);
  }
  const leafCount = events.reduce((n, event) => n + event.topics.length, 0);
  progress(`native: eventRoot of ${TRANSFERS} transfers (${events.length} events, ${leafCount} leaves)`);
  const [tsMs, updateMs, builderMs] = await interleavedMsPerOp(tasks.map((task) => ({ ...task, timeMs: 1500 })));
  const prefix = `native eventRoot, block of ${TRANSFERS} transfers (${leafCount} leaves)`;
  const baseline = `${prefix}: TypeScript`;
  return [
    { name: baseline, value: tsMs! * 1000, unit: 'µs/op' },
    { name: `${prefix}: leaves + native batch update`, value: updateMs! * 1000, unit: 'µs/op', baseline },
    { name: `${prefix}: blockEventRoot (one native call)`, value: builderMs! * 1000, unit: 'µs/op', baseline },
  ];
}
