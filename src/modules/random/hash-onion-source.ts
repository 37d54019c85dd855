/**
 * Where block generation gets the next seed reveal of a local validator (lisk-sdk
 * RandomModule.insertAssets / _getNextHashOnion; docs/protocol/random.md).
 */
import { generateHashOnionSeed, hashOnionStep } from '../../crypto/index.js';
import { InvalidParamsError } from '../../errors.js';
import { silentLogger, type Logger } from '../../logger.js';
import type { HashOnionCheckpoints } from './hash-onion-types.js';
import type { HashOnionStore } from './hash-onion-store.js';
import { latestUsage, recordUsage } from './hash-onion-usage.js';

/**
 * Supplies the seed reveal a local validator puts into the block it generates, and remembers
 * that it was used. Injected into the RandomModule; a node that never generates blocks needs
 * none. `finalizedHeight` lets an implementation forget use records that can no longer be
 * reverted.
 */
export interface HashOnionSource {
  nextReveal(address: Buffer, height: number, finalizedHeight: number): Buffer;
}

/** The reveal chosen for a block and the use-count it consumes. */
interface NextReveal {
  readonly seedReveal: Buffer;
  readonly count: number;
}

/**
 * lisk-sdk's reveal selection over a HashOnionStore: the use-count is one more than that of the
 * latest block below `height` (so a re-generated height reuses its predecessor's count), the
 * reveal is H^(count−usedCount)(seed) computed from the nearest checkpoint; without an onion, or
 * once it is used up, a random seed is revealed (the block stays valid, its reward becomes 0).
 */
export class StoredHashOnionSource implements HashOnionSource {
  private readonly logger: Logger;
  private readonly randomSeed: () => Buffer;

  constructor(
    private readonly store: HashOnionStore,
    options: { logger?: Logger; randomSeed?: () => Buffer } = {},
  ) {
    this.logger = options.logger ?? silentLogger;
    this.randomSeed = options.randomSeed ?? generateHashOnionSeed;
  }

  nextReveal(address: Buffer, height: number, finalizedHeight: number): Buffer {
    const usage = this.store.getUsage(address) ?? [];
    const next = this.selectReveal(address, latestUsage(usage, height)?.count, height);
    this.store.setUsage(address, recordUsage(usage, { count: next.count, height }, finalizedHeight));
    return next.seedReveal;
  }

  private selectReveal(address: Buffer, usedCount: number | undefined, height: number): NextReveal {
    const onion = this.store.getHashOnion(address);
    if (onion === undefined) return { seedReveal: this.randomSeed(), count: 0 };
    if (usedCount === undefined) return { seedReveal: checkpoint(onion, 0), count: 0 };

    const count = usedCount + 1;
    if (count > onion.count) {
      this.logger.warn(
        { address: address.toString('hex'), height },
        'All of the hash onion has been used already. Please update to the new hash onion.',
      );
      return { seedReveal: this.randomSeed(), count: usedCount };
    }
    return { seedReveal: revealAtCount(onion, count), count };
  }
}

/**
 * The reveal for use-count `count`: H^(onion.count − count)(seed), taken
 * from checkpoint ⌈count/distance⌉ hashed `distance − count mod distance` more times.
 */
export function revealAtCount(onion: HashOnionCheckpoints, count: number): Buffer {
  const offset = count % onion.distance;
  if (offset === 0) return checkpoint(onion, count / onion.distance);
  let reveal = checkpoint(onion, Math.ceil(count / onion.distance));
  for (let step = offset; step < onion.distance; step += 1) reveal = hashOnionStep(reveal);
  return reveal;
}

function checkpoint(onion: HashOnionCheckpoints, index: number): Buffer {
  const hash = onion.hashes[index];
  if (hash === undefined) {
    throw new InvalidParamsError(`The hash onion has no checkpoint ${index}; its usage records do not match it.`);
  }
  return hash;
}
