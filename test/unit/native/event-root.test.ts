/**
 * The block event root and the fresh-tree root through the addon (native/src/fresh_smt.rs) equal
 * the TypeScript ones (the dev chain replay checks them against lisk-sdk's own eventRoots block by
 * block; this covers sizes and shapes that chain has not).
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { blockEventRoot, encodeEvent, eventSmtLeaves, type EventProps } from '../../../src/chain/event.js';
import { EMPTY_HASH } from '../../../src/merkle/hash.js';
import {
  computeEventRoot as typescriptEventRoot,
  computeEventRootOfEvents as typescriptEventRootOfEvents,
  freshSmtRoot as typescriptFreshRoot,
  InMemorySmtNodeStore,
  SparseMerkleTree,
} from '../../../src/merkle/smt/index.js';
import { computeEventRoot, computeEventRootOfEvents, freshSmtRoot } from '../../../src/merkle/native/index.js';
import { nativeAddon } from '../../../src/native/addon.js';
import { adversarialBatch } from '../merkle/fresh-root-batches.js';
import { nativeMissing, Random } from './native-test-support.js';

const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('computeEventRoot (native when built)', () => {
  it('equals the TypeScript root for 0 to 2,000 leaves, duplicates of topic prefixes included', () => {
    for (const count of [0, 1, 2, 3, 17, 256, 2000]) {
      const prefix = randomBytes(8);
      const leaves = Array.from({ length: count }, (_, i) => {
        // Events share the 8-byte topic hash prefix and differ in the index, as real ones do.
        const key = Buffer.concat([i % 3 === 0 ? prefix : randomBytes(8), Buffer.from([0, 0, i >> 8, i & 0xff])]);
        return { key, value: randomBytes(32) };
      });
      expect(computeEventRoot(leaves).toString('hex'), `${count} leaves`).toBe(typescriptEventRoot(leaves).toString('hex'));
    }
    expect(computeEventRoot([])).toEqual(EMPTY_HASH);
  });
});

describe.skipIf(nativeMissing('fresh SMT root'))('freshSmtRoot and eventRoot of the addon', () => {
  it('equal the TypeScript builder and the batch update on random and adversarial batches', () => {
    for (let seed = 1; seed <= 150; seed += 1) {
      const random = new Random(seed * 7919);
      const { keyLength, keys, values } = adversarialBatch(random, seed % 50 === 0 ? 2000 : random.int(400));
      const expected = toHex(new SparseMerkleTree(new InMemorySmtNodeStore(), keyLength).update(EMPTY_HASH, keys, values).root);
      expect(toHex(freshSmtRoot(keys, values, keyLength)), `seed ${seed}`).toBe(expected);
      expect(toHex(typescriptFreshRoot(keys, values)), `seed ${seed}`).toBe(expected);
    }
  });

  it('gives the block eventRoot of whole events as the leaf-by-leaf computation does', () => {
    for (let seed = 1; seed <= 60; seed += 1) {
      const random = new Random(seed);
      const events = randomEvents(random, seed === 60 ? 700 : random.int(120));
      const encoded = events.map(encodeEvent);
      const expected = toHex(typescriptEventRoot(events.flatMap((event) => eventSmtLeaves(event))));
      expect(toHex(computeEventRootOfEvents(events, encoded)), `seed ${seed}`).toBe(expected);
      expect(toHex(typescriptEventRootOfEvents(events, encoded)), `seed ${seed}`).toBe(expected);
      expect(toHex(blockEventRoot(events)), `seed ${seed}`).toBe(expected);
    }
    expect(blockEventRoot([]).equals(EMPTY_HASH)).toBe(true);
  });

  it('treats repeated keys (a repeated index) and indices at the uint32 edge as the leaves do', () => {
    const random = new Random(99);
    const topic = random.bytes(33);
    const events: EventProps[] = [
      event(random, [topic, random.bytes(20)], 5),
      event(random, [topic], 5), // same key as the first event's first topic: the later one wins
      event(random, [random.bytes(20), topic, random.bytes(1), random.bytes(40)], 2 ** 30 - 1),
      event(random, [topic, topic], 2 ** 30), // index << 2 wraps to 0 within 32 bits
      event(random, [], 7),
    ];
    const encoded = events.map(encodeEvent);
    const expected = toHex(typescriptEventRoot(events.flatMap((item, i) => eventSmtLeaves(item, encoded[i]))));
    expect(toHex(blockEventRoot(events, encoded))).toBe(expected);
    // More than four topics are never emitted; they take the leaf-by-leaf path and throw as it does.
    const tooMany = [
      event(
        random,
        [1, 2, 3, 4, 5].map(() => random.bytes(8)),
        2 ** 30 - 1,
      ),
    ];
    expect(() => blockEventRoot(tooMany)).toThrow(RangeError);
    expect(() => eventSmtLeaves(tooMany[0] as EventProps)).toThrow(RangeError);
  });

  it('rejects flat arrays that disagree', () => {
    const addon = nativeAddon!;
    const one = new Uint32Array([1]);
    expect(() => addon.eventRoot(Buffer.alloc(2), one, Buffer.alloc(0), new Uint32Array(0), new Uint32Array([0]), one)).toThrow(RangeError);
    expect(() => addon.smtRootOf(Buffer.alloc(11), 12, Buffer.alloc(1), one)).toThrow(RangeError);
    expect(() => addon.smtRootOf(Buffer.alloc(12), 12, Buffer.alloc(1), new Uint32Array([2]))).toThrow(RangeError);
  });
});

function event(random: Random, topics: Buffer[], index: number): EventProps {
  return { module: 'token', name: 'transfer', data: random.bytes(random.int(90)), topics, height: 42, index };
}

/** Events shaped like a block's: topics shared across events (transaction IDs, addresses). */
function randomEvents(random: Random, count: number): EventProps[] {
  const shared = Array.from({ length: 1 + random.int(12) }, () => random.bytes(random.pick([1, 20, 33])));
  return Array.from({ length: count }, (_, index) => {
    const topics = Array.from({ length: random.int(5) }, () => (random.int(3) === 0 ? random.bytes(20) : random.pick(shared)));
    return event(random, topics, index);
  });
}
