/**
 * Hash onion use and the `random_*` hash onion endpoints, after lisk-sdk v6.1
 * framework/src/modules/random/{module.ts (_getNextHashOnion), endpoint.ts,
 * stores/used_hash_onions.ts} and docs/protocol/random.md (vector: seed 00112233…eeff, count 10,
 * distance 5).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encodeLisk32 } from '../../../../src/crypto/index.js';
import { InvalidParamsError, NotFoundError } from '../../../../src/errors.js';
import { silentLogger, type Logger } from '../../../../src/logger.js';
import type { EndpointHandler } from '../../../../src/modules/base/index.js';
import {
  InMemoryHashOnionStore,
  RandomModule,
  revealAtCount,
  StoredHashOnionSource,
  validatorRevealsStore,
} from '../../../../src/modules/random/index.js';
import { latestUsage, recordUsage } from '../../../../src/modules/random/hash-onion-usage.js';
import { makeHeader, ModuleHarness, testGenesisConfig } from '../../../support/module-harness.js';

const H = (value: Buffer): Buffer => createHash('sha256').update(value).digest().subarray(0, 16);
const SEED = Buffer.from('00112233445566778899aabbccddeeff', 'hex');
const A = Buffer.alloc(20, 0xaa);
const B = Buffer.alloc(20, 0x0b);

/** H^n(SEED) computed layer by layer. */
function layer(n: number, seed = SEED): Buffer {
  let value: Buffer = seed;
  for (let i = 0; i < n; i += 1) value = H(value);
  return value;
}

const ONION = { count: 10, distance: 5, hashes: [layer(10), layer(5), SEED] };

describe('revealAtCount', () => {
  it('gives H^(count − c)(seed) for every use-count c, from checkpoints (the random.md vector)', () => {
    expect(ONION.hashes.map((hash) => hash.toString('hex'))).toEqual([
      '82b1b3e46a145d137dc78cdd2e6a897b',
      '6888ea66fc663023490329db8924f0b1',
      '00112233445566778899aabbccddeeff',
    ]);
    for (let c = 0; c <= 10; c += 1) expect(revealAtCount(ONION, c)).toEqual(layer(10 - c));
    expect(revealAtCount(ONION, 1).toString('hex')).toBe('ae3c51a41a6681e56464cc497aefd3da');
    expect(revealAtCount(ONION, 9).toString('hex')).toBe('a8faed6abbf35c12a4b26e40f6feb19d');
  });
});

describe('usage records', () => {
  it('latestUsage takes the greatest height (below a bound), the earlier record on ties', () => {
    const usage = [
      { count: 1, height: 5 },
      { count: 2, height: 9 },
      { count: 3, height: 9 },
      { count: 4, height: 7 },
    ];
    expect(latestUsage(usage)).toEqual({ count: 2, height: 9 });
    expect(latestUsage(usage, 9)).toEqual({ count: 4, height: 7 });
    expect(latestUsage(usage, 5)).toBeUndefined();
    expect(latestUsage([])).toBeUndefined();
  });

  it('recordUsage replaces the same count, restarts on count 0, appends otherwise, and prunes finalized records', () => {
    const usage = [
      { count: 1, height: 10 },
      { count: 2, height: 11 },
    ];
    expect(recordUsage(usage, { count: 3, height: 12 }, 0)).toEqual([...usage, { count: 3, height: 12 }]);
    expect(recordUsage(usage, { count: 2, height: 12 }, 0)).toEqual([
      { count: 1, height: 10 },
      { count: 2, height: 12 },
    ]);
    expect(recordUsage(usage, { count: 0, height: 12 }, 0)).toEqual([{ count: 0, height: 12 }]);
    // Finalized at 11: only records above 11 stay, plus the highest.
    expect(recordUsage(usage, { count: 3, height: 12 }, 11)).toEqual([{ count: 3, height: 12 }]);
    expect(recordUsage(usage, { count: 3, height: 12 }, 10)).toEqual([
      { count: 2, height: 11 },
      { count: 3, height: 12 },
    ]);
    expect(usage).toHaveLength(2);
  });

  it('moves the highest record last and keeps the others in lisk-sdk’s order', () => {
    // Highest so far is displaced when a higher one comes: it joins the others at that point.
    const usage = [
      { count: 5, height: 20 },
      { count: 6, height: 30 },
      { count: 7, height: 25 },
    ];
    expect(recordUsage(usage, { count: 8, height: 22 }, 0)).toEqual([
      { count: 5, height: 20 },
      { count: 7, height: 25 },
      { count: 8, height: 22 },
      { count: 6, height: 30 },
    ]);
  });
});

describe('StoredHashOnionSource', () => {
  function source(randomSeed = () => Buffer.alloc(16, 0xee), logger: Logger = silentLogger) {
    const store = new InMemoryHashOnionStore();
    return { store, source: new StoredHashOnionSource(store, { randomSeed, logger }) };
  }

  it('reveals a random seed (count 0) when there is no onion', () => {
    const { store, source: s } = source();
    expect(s.nextReveal(A, 7, 0)).toEqual(Buffer.alloc(16, 0xee));
    expect(store.getUsage(A)).toEqual([{ count: 0, height: 7 }]);
  });

  it('walks the onion one layer per block; re-generating a height reuses the count below it', () => {
    const { store, source: s } = source();
    store.setHashOnion(A, ONION);
    expect(s.nextReveal(A, 1, 0)).toEqual(layer(10));
    expect(s.nextReveal(A, 2, 0)).toEqual(layer(9));
    expect(s.nextReveal(A, 3, 0)).toEqual(layer(8));
    // A fork replacing height 3: the latest use below 3 is count 1, so count 2 again.
    expect(s.nextReveal(A, 3, 0)).toEqual(layer(8));
    expect(store.getUsage(A)).toEqual([
      { count: 0, height: 1 },
      { count: 1, height: 2 },
      { count: 2, height: 3 },
    ]);
    // Finalization prunes all but the highest record at or below the finalized height.
    expect(s.nextReveal(A, 4, 3)).toEqual(layer(7));
    expect(store.getUsage(A)).toEqual([{ count: 3, height: 4 }]);
  });

  it('after setHashOnion (usage [{0, 0}]) the first block reveals use-count 1, not hashes[0]', () => {
    const { store, source: s } = source();
    store.setHashOnion(A, ONION);
    store.setUsage(A, [{ count: 0, height: 0 }]);
    expect(s.nextReveal(A, 50, 0)).toEqual(layer(9));
  });

  it('falls back to random seeds with a warning once the onion is used up, keeping the count', () => {
    const warnings: string[] = [];
    const logger: Logger = { ...silentLogger, warn: (_fields, message) => void warnings.push(message ?? '') };
    const { store, source: s } = source(() => Buffer.alloc(16, 0xee), logger);
    store.setHashOnion(A, ONION);
    store.setUsage(A, [{ count: 9, height: 100 }]);
    expect(s.nextReveal(A, 101, 0)).toEqual(SEED);
    expect(s.nextReveal(A, 102, 0)).toEqual(Buffer.alloc(16, 0xee));
    expect(warnings).toEqual(['All of the hash onion has been used already. Please update to the new hash onion.']);
    expect(store.getUsage(A)).toEqual([
      { count: 9, height: 100 },
      { count: 10, height: 102 },
    ]);
  });

  it('keeps validators apart', () => {
    const { store, source: s } = source();
    store.setHashOnion(A, ONION);
    store.setHashOnion(B, { count: 5, distance: 5, hashes: [layer(5, Buffer.alloc(16, 1)), Buffer.alloc(16, 1)] });
    expect(s.nextReveal(A, 1, 0)).toEqual(layer(10));
    expect(s.nextReveal(B, 2, 0)).toEqual(layer(5, Buffer.alloc(16, 1)));
    expect(s.nextReveal(A, 3, 0)).toEqual(layer(9));
  });
});

describe('random_* hash onion endpoints', () => {
  function setup() {
    const module = new RandomModule();
    module.init({ genesisConfig: testGenesisConfig, moduleConfig: {} });
    const harness = new ModuleHarness({ header: { height: 0 } });
    module.initGenesisState(harness.genesisContext());
    const call = (name: string, params: Record<string, unknown> = {}): unknown =>
      (module.endpoints[name] as EndpointHandler).handle({
        state: harness.state,
        chainID: testGenesisConfig.chainID,
        logger: silentLogger,
        header: makeHeader(),
        params,
      });
    return { module, harness, call };
  }
  const addressA = encodeLisk32(A);
  const addressB = encodeLisk32(B);

  it('round trip: setHashOnion, getHashOnionSeeds, hasHashOnion, getHashOnionUsage, setHashOnionUsage', () => {
    const { call, module } = setup();
    expect(call('hasHashOnion', { address: addressA })).toEqual({ hasSeed: false, remaining: 0 });
    expect(call('setHashOnion', { address: addressA, seed: SEED.toString('hex'), count: 10, distance: 5 })).toBeUndefined();
    expect(module.hashOnionStore.getHashOnion(A)).toEqual(ONION);
    expect(call('setHashOnion', { address: addressB, seed: 'ff'.repeat(16), count: 20, distance: 10 })).toBeUndefined();
    expect(call('getHashOnionSeeds')).toEqual({
      seeds: [
        // Ascending binary address: 0b… before aa….
        { address: addressB, seed: 'ff'.repeat(16), count: 20, distance: 10 },
        { address: addressA, seed: SEED.toString('hex'), count: 10, distance: 5 },
      ],
    });
    expect(call('getHashOnionUsage', { address: addressA })).toEqual({
      usedHashOnions: [{ count: 0, height: 0 }],
      seed: SEED.toString('hex'),
    });
    expect(call('hasHashOnion', { address: addressA })).toEqual({ hasSeed: true, remaining: 10 });

    expect(
      call('setHashOnionUsage', {
        address: addressA,
        usedHashOnions: [
          { count: 3, height: 40 },
          { count: 4, height: 41 },
        ],
      }),
    ).toBeUndefined();
    expect(call('hasHashOnion', { address: addressA })).toEqual({ hasSeed: true, remaining: 6 });
    expect(call('getHashOnionUsage', { address: addressA })).toEqual({
      usedHashOnions: [
        { count: 3, height: 40 },
        { count: 4, height: 41 },
      ],
      seed: SEED.toString('hex'),
    });
    call('setHashOnionUsage', { address: addressA, usedHashOnions: [{ count: 10, height: 50 }] });
    expect(call('hasHashOnion', { address: addressA })).toEqual({ hasSeed: false, remaining: 0 });
    // Setting a new onion resets its usage.
    call('setHashOnion', { address: addressA, seed: SEED.toString('hex'), count: 10, distance: 5 });
    expect(call('hasHashOnion', { address: addressA })).toEqual({ hasSeed: true, remaining: 10 });
  });

  it('setHashOnion defaults to a random seed, count 10000 and distance 1000', () => {
    const { call, module } = setup();
    call('setHashOnion', { address: addressA });
    const onion = module.hashOnionStore.getHashOnion(A);
    expect(onion?.count).toBe(10000);
    expect(onion?.distance).toBe(1000);
    expect(onion?.hashes).toHaveLength(11);
    expect(H(onion?.hashes[9] as Buffer)).not.toEqual(onion?.hashes[10]);
    expect(revealAtCount(onion!, 9999)).toEqual(H(onion?.hashes[10] as Buffer));
  });

  it('setHashOnion accepts precomputed checkpoints with count and distance', () => {
    const { call, module } = setup();
    call('setHashOnion', { address: addressA, count: 10, distance: 5, hashes: ONION.hashes.map((h) => h.toString('hex')) });
    expect(module.hashOnionStore.getHashOnion(A)).toEqual(ONION);
    // Beyond the computing limit is fine with hashes.
    const hashes = Array.from({ length: 21 }, (_, i) => Buffer.alloc(16, i).toString('hex'));
    call('setHashOnion', { address: addressB, count: 20_000, distance: 1000, hashes });
    expect(module.hashOnionStore.getHashOnion(B)?.count).toBe(20_000);
  });

  it('setHashOnion errors, with lisk-sdk’s messages and order', () => {
    const { call, module } = setup();
    expect(() => call('setHashOnion', { address: addressA, count: 10, distance: 3 })).toThrow(
      new InvalidParamsError('Invalid count. Count must be multiple of distance.'),
    );
    // Default count 10000 with distance 3 fails the multiple check before anything else.
    expect(() => call('setHashOnion', { address: addressA, distance: 3, hashes: ['00'.repeat(16)] })).toThrow(
      'Invalid count. Count must be multiple of distance.',
    );
    // count 10 with the default distance 1000 is not a multiple: that check comes first.
    expect(() => call('setHashOnion', { address: addressA, count: 10, hashes: ['00'.repeat(16)] })).toThrow(
      'Invalid count. Count must be multiple of distance.',
    );
    expect(() => call('setHashOnion', { address: addressA, count: 2000, hashes: ['00'.repeat(16)] })).toThrow(
      new InvalidParamsError('Hashes must be provided with count and distance.'),
    );
    expect(() => call('setHashOnion', { address: addressA, distance: 5, hashes: ['00'.repeat(16)] })).toThrow(
      'Hashes must be provided with count and distance.',
    );
    expect(() => call('setHashOnion', { address: addressA, count: 10, distance: 5, hashes: ['00'.repeat(16)] })).toThrow(
      new InvalidParamsError('Invalid length of hashes. hashes must have 3 elements.'),
    );
    expect(() => call('setHashOnion', { address: addressA, count: 11000, distance: 1000 })).toThrow(
      new InvalidParamsError(
        'Count is too big. In order to set count greater than 10000, please compute locally and request with "hashes".',
      ),
    );
    expect(module.hashOnionStore.listHashOnions()).toEqual([]);
  });

  it('getHashOnionUsage of an address without an onion is not found (lisk-sdk off-chain key message)', () => {
    const { call } = setup();
    expect(() => call('getHashOnionUsage', { address: addressA })).toThrow(
      new NotFoundError(`Specified key 2441b15f59e3${A.toString('hex')} does not exist`),
    );
    expect(call('getHashOnionSeeds')).toEqual({ seeds: [] });
  });

  it('isSeedRevealValid answers under the reward rule against the stored reveals', () => {
    const { call, harness } = setup();
    validatorRevealsStore.set(harness.state, Buffer.alloc(0), {
      validatorReveals: [{ generatorAddress: A, seedReveal: layer(5), height: 3, valid: false }],
    });
    expect(call('isSeedRevealValid', { generatorAddress: addressA, seedReveal: layer(4).toString('hex') })).toEqual({
      valid: true,
    });
    expect(call('isSeedRevealValid', { generatorAddress: addressA, seedReveal: layer(3).toString('hex') })).toEqual({
      valid: false,
    });
    expect(call('isSeedRevealValid', { generatorAddress: addressB, seedReveal: 'abcd' })).toEqual({ valid: true });
  });

  it('the in-memory store hands out copies', () => {
    const store = new InMemoryHashOnionStore();
    const hashes = [Buffer.alloc(16, 1), Buffer.alloc(16, 2)];
    store.setHashOnion(A, { count: 1, distance: 1, hashes });
    hashes[0]?.fill(9);
    (store.getHashOnion(A)?.hashes[1] as Buffer).fill(9);
    expect(store.getHashOnion(A)?.hashes).toEqual([Buffer.alloc(16, 1), Buffer.alloc(16, 2)]);
    const usage = [{ count: 1, height: 2 }];
    store.setUsage(A, usage);
    usage.push({ count: 2, height: 3 });
    expect(store.getUsage(A)).toEqual([{ count: 1, height: 2 }]);
  });
});
