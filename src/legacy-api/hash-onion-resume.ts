/**
 * The delegate's hash onion from the legacy config becomes its source of seed reveals
 * (docs/protocol/random.md). Installing it on a node that has not used it yet (a new node, or a
 * restart: the node keeps onions in memory) continues from the delegate's last reveal on chain when
 * that reveal comes from this onion, so the next reveal hashes to it and the block reward stays
 * (the random module's reward rule). Otherwise the onion starts at its outermost hash, as Core 3.x
 * did. Meant for the forging toggle, on enable, with the random module's store
 * (chain.modules.random).
 */
import { hashOnionStep } from '../crypto/index.js';
import type { HashOnionStore } from '../modules/random/hash-onion-store.js';
import type { HashOnionCheckpoints, UsedHashOnion } from '../modules/random/hash-onion-types.js';
import { EMPTY_KEY } from '../modules/random/constants.js';
import { validatorRevealsStore } from '../modules/random/stores.js';
import type { StateReader } from '../state/state-view.js';

const sameOnion = (a: HashOnionCheckpoints, b: HashOnionCheckpoints): boolean =>
  a.count === b.count &&
  a.distance === b.distance &&
  a.hashes.length === b.hashes.length &&
  a.hashes.every((hash, i) => hash.equals(b.hashes[i] as Buffer));

/**
 * The use-count c whose reveal H^(count−c)(seed) is `reveal`, or undefined. Walks each checkpoint
 * segment once: at most `count` hashes (about a second for a million-reveal onion).
 */
export function findUseCount(onion: HashOnionCheckpoints, reveal: Buffer): number | undefined {
  for (let k = 0; k < onion.hashes.length; k += 1) {
    let value = onion.hashes[k] as Buffer;
    // hashes[k] is the reveal at count k·distance; each further hash is one count lower.
    const steps = k === 0 ? 1 : onion.distance;
    for (let j = 0; j < steps; j += 1) {
      if (value.equals(reveal)) return k * onion.distance - j;
      value = hashOnionStep(value);
    }
  }
  return undefined;
}

/** The delegate's most recent reveal kept on chain (random module validatorReveals), if any. */
export function lastRevealOnChain(state: StateReader, address: Buffer): { seedReveal: Buffer; height: number } | undefined {
  const reveals = validatorRevealsStore.get(state, EMPTY_KEY)?.validatorReveals ?? [];
  let last: { seedReveal: Buffer; height: number } | undefined;
  for (const reveal of reveals) {
    if (reveal.generatorAddress.equals(address) && (last === undefined || reveal.height > last.height)) last = reveal;
  }
  return last;
}

/**
 * Installs `onion` for `address` unless the store already holds it (then its usage is left
 * alone: resetting it would reveal an earlier value and lose the reward). Returns whether it was
 * installed.
 */
export function installHashOnion(store: HashOnionStore, state: StateReader, address: Buffer, onion: HashOnionCheckpoints): boolean {
  const current = store.getHashOnion(address);
  if (current !== undefined && sameOnion(current, onion)) return false;
  store.setHashOnion(address, onion);
  const last = lastRevealOnChain(state, address);
  const count = last === undefined ? undefined : findUseCount(onion, last.seedReveal);
  const usage: UsedHashOnion[] = count === undefined || last === undefined ? [] : [{ count, height: last.height }];
  store.setUsage(address, usage);
  return true;
}
