/**
 * RandomModule hooks, config and metadata against lisk-sdk v6.1
 * framework/src/modules/random/module.ts and LIP 0046, and the real node's metadata
 * (chains/dev/metadata.json) and config (chains/dev/config.json).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { InvalidBlockError, ValidationError } from '../../../../src/errors.js';
import { silentLogger } from '../../../../src/logger.js';
import type { InsertAssetContext, Module } from '../../../../src/modules/base/index.js';
import {
  RandomModule,
  validatorRevealsStore,
  type HashOnionSource,
  type ValidatorSeedReveal,
} from '../../../../src/modules/random/index.js';
import { loadJsonFixture } from '../../../support/fixtures.js';
import { DEV_CHAIN_ID, ModuleHarness, testGenesisConfig } from '../../../support/module-harness.js';

const H = (value: Buffer): Buffer => createHash('sha256').update(value).digest().subarray(0, 16);
const EMPTY = Buffer.alloc(0);
const A = Buffer.alloc(20, 0xaa);
const B = Buffer.alloc(20, 0xbb);

function asset(seedReveal: Buffer): Buffer {
  return Buffer.concat([Buffer.from([0x0a, seedReveal.length]), seedReveal]);
}

function initModule(moduleConfig: Record<string, unknown> = {}, options = {}) {
  const module = new RandomModule(options);
  module.init({ genesisConfig: testGenesisConfig, moduleConfig });
  return module;
}

/** Genesis at height 0, then one block per call of `block`. */
function chain(module: RandomModule) {
  const harness = new ModuleHarness({ header: { height: 0 } });
  module.initGenesisState(harness.genesisContext());
  return {
    harness,
    block(generatorAddress: Buffer, seedReveal: Buffer): ValidatorSeedReveal[] {
      harness.commit({ generatorAddress });
      harness.assets.set('random', asset(seedReveal));
      module.afterTransactionsExecute(harness.blockExecuteContext('after'));
      return validatorRevealsStore.getOrThrow(harness.state, EMPTY).validatorReveals;
    },
  };
}

describe('RandomModule metadata and config', () => {
  it('has the metadata of the real node, in the same key order', () => {
    const { modules } = loadJsonFixture<{ modules: ({ name: string } & Record<string, unknown>)[] }>('chains/dev/metadata.json');
    const { name, ...expected } = modules.find((entry) => entry.name === 'random') ?? { name: '' };
    const module = new RandomModule();
    expect(module.name).toBe(name);
    expect(JSON.stringify({ ...module.metadata(), name })).toBe(JSON.stringify({ ...expected, name }));
  });

  it('serves setHashOnionUsage without listing it, and marks all hash onion endpoints sensitive', () => {
    const module = new RandomModule();
    expect(Object.keys(module.endpoints).sort()).toEqual([
      'getHashOnionSeeds',
      'getHashOnionUsage',
      'hasHashOnion',
      'isSeedRevealValid',
      'setHashOnion',
      'setHashOnionUsage',
    ]);
    const sensitive = Object.entries(module.endpoints).filter(([, handler]) => handler.sensitive === true);
    expect(sensitive.map(([name]) => name).sort()).toEqual([
      'getHashOnionSeeds',
      'getHashOnionUsage',
      'hasHashOnion',
      'setHashOnion',
      'setHashOnionUsage',
    ]);
  });

  it('defaults maxLengthReveals to 206, reads the dev chain config and rejects bad values', () => {
    expect(initModule().maxLengthReveals).toBe(206);
    const config = loadJsonFixture<{ modules: { random: Record<string, unknown> } }>('chains/dev/config.json');
    expect(initModule(config.modules.random).maxLengthReveals).toBe(206);
    expect(initModule({ maxLengthReveals: 3 }).maxLengthReveals).toBe(3);
    for (const bad of [-1, 1.5, '206', 2 ** 32, null]) {
      expect(() => initModule({ maxLengthReveals: bad })).toThrow(ValidationError);
    }
    expect(() => initModule({ maxLengthReveals: '5' })).toThrow('.modules.random.maxLengthReveals');
  });
});

describe('initGenesisState', () => {
  it('has no genesis asset: the dev genesis block carries none for random', () => {
    const { assets } = loadJsonFixture<{ assets: { module: string }[] }>('chains/dev/genesis_assets.json');
    expect(assets.map((asset) => asset.module)).not.toContain('random');
    expect((new RandomModule() as Module).genesisAssetSchema).toBeUndefined();
  });

  it('stores an empty validatorReveals list (encoded as empty bytes) and needs no asset', () => {
    const module = initModule();
    const harness = new ModuleHarness({ header: { height: 0 } });
    module.initGenesisState(harness.genesisContext());
    expect(harness.state.get(validatorRevealsStore.stateKey(EMPTY))).toEqual(Buffer.alloc(0));
    expect(validatorRevealsStore.stateKey(EMPTY).toString('hex')).toBe('2441b15f0000');
    expect(harness.events.events()).toEqual([]);
  });
});

describe('verifyAssets', () => {
  const verify = (encoded: Buffer | undefined) => {
    const module = initModule();
    const harness = new ModuleHarness({ header: { height: 5 } });
    module.verifyAssets({
      state: harness.state,
      chainID: DEV_CHAIN_ID,
      logger: silentLogger,
      header: harness.header,
      contextStore: harness.contextStore,
      assets: { getAsset: (name) => (name === 'random' ? encoded : undefined) },
    });
  };

  it('accepts a 16-byte seed reveal', () => {
    expect(() => verify(asset(Buffer.alloc(16, 7)))).not.toThrow();
  });

  it('rejects a missing asset, a wrong length and undecodable bytes', () => {
    expect(() => verify(undefined)).toThrow(new InvalidBlockError('assets', 'Random module asset must exist.', 5));
    expect(() => verify(asset(Buffer.alloc(15)))).toThrow();
    expect(() => verify(asset(Buffer.alloc(17)))).toThrow();
    expect(() => verify(Buffer.alloc(0))).toThrow();
    expect(() => verify(Buffer.from('0a10', 'hex'))).toThrow();
  });
});

describe('afterTransactionsExecute', () => {
  it('appends {generatorAddress, seedReveal, height, valid} with exact bytes', () => {
    const { block, harness } = chain(initModule());
    const reveal = Buffer.alloc(16, 0x5a);
    expect(block(A, reveal)).toEqual([{ generatorAddress: A, seedReveal: reveal, height: 1, valid: false }]);
    // {validatorReveals#1: [{generatorAddress#1, seedReveal#2, height#3 = 1, valid#4 = false}]}
    expect(harness.state.get(validatorRevealsStore.stateKey(EMPTY))?.toString('hex')).toBe(
      `0a2c0a14${'aa'.repeat(20)}1210${'5a'.repeat(16)}18012000`,
    );
    expect(harness.events.events()).toEqual([]);
  });

  it('marks the first reveal invalid, a continuing chain valid, and a wrong reveal invalid', () => {
    const { block } = chain(initModule());
    const seed = Buffer.from('00112233445566778899aabbccddeeff', 'hex');
    const onion = [H(H(H(seed))), H(H(seed)), H(seed), seed];
    block(A, onion[0] as Buffer);
    block(B, Buffer.alloc(16, 1));
    block(A, onion[1] as Buffer);
    block(A, onion[2] as Buffer);
    block(B, Buffer.alloc(16, 2)); // does not hash to B's previous reveal
    const reveals = block(A, onion[2] as Buffer); // repeating a reveal is not continuing the chain
    expect(reveals.map((r) => [r.height, r.valid])).toEqual([
      [1, false],
      [2, false],
      [3, true],
      [4, true],
      [5, false],
      [6, false],
    ]);
    // Validity is judged against the latest entry even when that entry was itself invalid.
    expect(block(A, seed).at(-1)?.valid).toBe(true);
  });

  it('keeps at most maxLengthReveals entries, dropping the oldest (FIFO)', () => {
    const { block } = chain(initModule({ maxLengthReveals: 3 }));
    for (let i = 1; i <= 3; i += 1) block(A, Buffer.alloc(16, i));
    expect(block(A, Buffer.alloc(16, 4)).map((r) => r.height)).toEqual([2, 3, 4]);
    expect(block(B, Buffer.alloc(16, 5)).map((r) => r.height)).toEqual([3, 4, 5]);
  });

  it('forgets a generator whose reveals fell out of the list: its next reveal is invalid', () => {
    const { block } = chain(initModule({ maxLengthReveals: 2 }));
    const seed = Buffer.alloc(16, 9);
    block(A, H(H(seed)));
    block(B, Buffer.alloc(16, 1));
    block(B, Buffer.alloc(16, 2));
    expect(block(A, H(seed)).at(-1)).toEqual({ generatorAddress: A, seedReveal: H(seed), height: 4, valid: false });
  });

  it('drops only one entry when the list is exactly at the limit (a longer stored list stays as long)', () => {
    const module = initModule({ maxLengthReveals: 2 });
    const { block, harness } = chain(module);
    validatorRevealsStore.set(harness.state, EMPTY, {
      validatorReveals: [1, 2, 3].map((height) => ({
        generatorAddress: B,
        seedReveal: Buffer.alloc(16, height),
        height,
        valid: false,
      })),
    });
    harness.commit({ height: 3 });
    expect(block(A, Buffer.alloc(16)).map((r) => r.height)).toEqual([1, 2, 3, 4]);
  });

  it('throws for a block without the asset', () => {
    const module = initModule();
    const { harness } = chain(module);
    harness.commit();
    expect(() => module.afterTransactionsExecute(harness.blockExecuteContext('after'))).toThrow('Random module asset must exist.');
  });
});

describe('insertAssets', () => {
  function insertContext(harness: ModuleHarness, finalizedHeight: number, assets: Map<string, Buffer>): InsertAssetContext {
    return {
      state: harness.state,
      chainID: DEV_CHAIN_ID,
      logger: silentLogger,
      header: harness.header,
      contextStore: harness.contextStore,
      setAsset: (module, data) => void assets.set(module, data),
      getFinalizedHeight: () => finalizedHeight,
    };
  }

  it('asks the injected source for the generator’s reveal at the block height and encodes it', () => {
    const calls: [string, number, number][] = [];
    const source: HashOnionSource = {
      nextReveal(address, height, finalizedHeight) {
        calls.push([address.toString('hex'), height, finalizedHeight]);
        return Buffer.alloc(16, height);
      },
    };
    const module = initModule({}, { hashOnionSource: source });
    const harness = new ModuleHarness({ header: { height: 12, generatorAddress: A } });
    const assets = new Map<string, Buffer>();
    module.insertAssets(insertContext(harness, 9, assets));
    expect(calls).toEqual([[A.toString('hex'), 12, 9]]);
    expect(assets.get('random')?.toString('hex')).toBe(`0a10${'0c'.repeat(16)}`);
  });

  it('by default reveals from the hash onion set through the endpoint, one layer per block', () => {
    const module = initModule();
    const harness = new ModuleHarness({ header: { height: 1, generatorAddress: A } });
    const seed = Buffer.from('00112233445566778899aabbccddeeff', 'hex');
    module.hashOnionStore.setHashOnion(A, {
      count: 10,
      distance: 5,
      hashes: [H(H(H(H(H(H(H(H(H(H(seed)))))))))), H(H(H(H(H(seed))))), seed],
    });
    const revealed: Buffer[] = [];
    for (let height = 1; height <= 3; height += 1) {
      const assets = new Map<string, Buffer>();
      harness.commit({ height, generatorAddress: A });
      module.insertAssets(insertContext(harness, 0, assets));
      revealed.push((assets.get('random') as Buffer).subarray(2));
    }
    // No usage yet: count 0 = hashes[0] = H^10(seed), then H^9, H^8.
    expect(revealed[0]?.toString('hex')).toBe('82b1b3e46a145d137dc78cdd2e6a897b');
    expect(revealed[1]?.toString('hex')).toBe('ae3c51a41a6681e56464cc497aefd3da');
    expect(H(revealed[2] as Buffer)).toEqual(revealed[1]);
    expect(module.hashOnionStore.getUsage(A)).toEqual([
      { count: 0, height: 1 },
      { count: 1, height: 2 },
      { count: 2, height: 3 },
    ]);
  });
});
