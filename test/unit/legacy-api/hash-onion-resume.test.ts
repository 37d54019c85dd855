/**
 * The legacy config's hash onion as the delegate's seed-reveal source (docs/protocol/random.md):
 * the use-count of an on-chain reveal is found in the onion, and the random module's own reveal
 * source then continues so that the next reveal hashes to the last one on chain.
 */
import { describe, expect, it } from 'vitest';
import { codec } from '../../../src/codec/index.js';
import { generateHashOnion, hashOnionStep } from '../../../src/crypto/index.js';
import { findUseCount, installHashOnion, lastRevealOnChain } from '../../../src/legacy-api/hash-onion-resume.js';
import {
  EMPTY_KEY,
  InMemoryHashOnionStore,
  revealAtCount,
  StoredHashOnionSource,
  validatorRevealsSchema,
  validatorRevealsStore,
} from '../../../src/modules/random/index.js';
import { MemoryState } from '../../../src/state/memory-state.js';

const SEED = Buffer.from('00112233445566778899aabbccddeeff', 'hex');
const onion = { count: 10, distance: 5, hashes: generateHashOnion(SEED, 10, 5) };
const DELEGATE = Buffer.alloc(20, 0xd1);
const OTHER = Buffer.alloc(20, 0x07);

function stateWithReveals(reveals: { generatorAddress: Buffer; seedReveal: Buffer; height: number }[]): MemoryState {
  const state = new MemoryState();
  const value = codec.encode(validatorRevealsSchema, { validatorReveals: reveals.map((reveal) => ({ ...reveal, valid: true })) });
  state.put(validatorRevealsStore.stateKey(EMPTY_KEY), value);
  return state;
}

describe('findUseCount', () => {
  it('finds every use-count of the random.md vector onion, and nothing for a foreign value', () => {
    expect(onion.hashes.map((hash) => hash.toString('hex'))).toEqual([
      '82b1b3e46a145d137dc78cdd2e6a897b',
      '6888ea66fc663023490329db8924f0b1',
      '00112233445566778899aabbccddeeff',
    ]);
    expect(findUseCount(onion, Buffer.from('ae3c51a41a6681e56464cc497aefd3da', 'hex'))).toBe(1);
    expect(findUseCount(onion, Buffer.from('a8faed6abbf35c12a4b26e40f6feb19d', 'hex'))).toBe(9);
    for (let count = 0; count <= onion.count; count += 1) expect(findUseCount(onion, revealAtCount(onion, count))).toBe(count);
    expect(findUseCount(onion, Buffer.alloc(16, 0xab))).toBeUndefined();
  });
});

describe('installHashOnion', () => {
  it("continues after the delegate's last reveal on chain: the next reveal hashes to it", () => {
    const store = new InMemoryHashOnionStore();
    const state = stateWithReveals([
      { generatorAddress: DELEGATE, seedReveal: revealAtCount(onion, 2), height: 40 },
      { generatorAddress: OTHER, seedReveal: Buffer.alloc(16, 1), height: 55 },
      { generatorAddress: DELEGATE, seedReveal: revealAtCount(onion, 3), height: 50 },
    ]);
    expect(lastRevealOnChain(state, DELEGATE)).toEqual({
      generatorAddress: DELEGATE,
      seedReveal: revealAtCount(onion, 3),
      height: 50,
      valid: true,
    });
    expect(installHashOnion(store, state, DELEGATE, onion)).toBe(true);
    expect(store.getUsage(DELEGATE)).toEqual([{ count: 3, height: 50 }]);

    const source = new StoredHashOnionSource(store);
    const next = source.nextReveal(DELEGATE, 60, 0);
    expect(next).toEqual(revealAtCount(onion, 4));
    expect(hashOnionStep(next)).toEqual(revealAtCount(onion, 3));
  });

  it('leaves a stored copy of the same onion and its usage alone (re-enabling keeps the chain of reveals)', () => {
    const store = new InMemoryHashOnionStore();
    const state = stateWithReveals([]);
    expect(installHashOnion(store, state, DELEGATE, onion)).toBe(true);
    const source = new StoredHashOnionSource(store);
    expect(source.nextReveal(DELEGATE, 10, 0)).toEqual(onion.hashes[0]);
    expect(source.nextReveal(DELEGATE, 11, 0)).toEqual(revealAtCount(onion, 1));
    const usage = store.getUsage(DELEGATE);
    expect(installHashOnion(store, state, DELEGATE, onion)).toBe(false);
    expect(store.getUsage(DELEGATE)).toEqual(usage);
  });

  it('starts at the outermost hash when the chain has no reveal from this onion', () => {
    const store = new InMemoryHashOnionStore();
    const state = stateWithReveals([{ generatorAddress: DELEGATE, seedReveal: Buffer.alloc(16, 0xee), height: 12 }]);
    expect(installHashOnion(store, state, DELEGATE, onion)).toBe(true);
    expect(store.getUsage(DELEGATE)).toEqual([]);
    expect(new StoredHashOnionSource(store).nextReveal(DELEGATE, 13, 0)).toEqual(onion.hashes[0]);
  });

  it('replaces a different onion stored for the delegate', () => {
    const store = new InMemoryHashOnionStore();
    const older = { count: 10, distance: 5, hashes: generateHashOnion(Buffer.alloc(16, 3), 10, 5) };
    store.setHashOnion(DELEGATE, older);
    store.setUsage(DELEGATE, [{ count: 7, height: 90 }]);
    expect(installHashOnion(store, stateWithReveals([]), DELEGATE, onion)).toBe(true);
    expect(store.getHashOnion(DELEGATE)?.hashes).toEqual(onion.hashes);
    expect(store.getUsage(DELEGATE)).toEqual([]);
  });
});
