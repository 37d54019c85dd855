/**
 * End-to-end check of the random module against the real lisk-sdk 6.1 dev chain
 * (test/fixtures/chains/dev): replaying the `random` asset of blocks 1..420 (blocks.ndjson;
 * header height and generatorAddress) must
 * - pass verifyAssets for every block,
 * - give the seed-reveal reward rule the answer dynamic reward used (rewardMinted reduction 1 =
 *   invalid seed reveal, events.ndjson), checked before the block's reveal is appended,
 * - reproduce the validator order PoS set at the ends of rounds 3 and 4 (bft_parameters.json):
 *   PoS sorts by sha256(getRandomBytes(h + 1 − 154, 103) ‖ address), ties by address,
 * - and end with the validatorReveals entry of final_state_kv.json, byte for byte.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { codec, type Schema } from '../../../../src/codec/index.js';
import { decodeLisk32 } from '../../../../src/crypto/index.js';
import { computeStorePrefix } from '../../../../src/modules/base/index.js';
import { RandomModule } from '../../../../src/modules/random/index.js';
import { recordCases } from '../../../support/conformance-tally.js';
import { fixturePath, hex, loadJsonFixture } from '../../../support/fixtures.js';
import { ModuleHarness, testGenesisConfig } from '../../../support/module-harness.js';

interface BlockLine {
  height: number;
  blockJson: {
    header: { height: number; generatorAddress: string };
    assets: { module: string; data: string }[];
  };
}
interface EventsLine {
  height: number;
  events: { module: string; name: string; data: string }[];
}
interface BftParameters {
  fromHeight: number;
  params: { validators: { address: string }[] };
}

const rewardMintedSchema: Schema = {
  $id: '/test/rewardMinted',
  type: 'object',
  required: ['amount', 'reduction'],
  properties: {
    amount: { dataType: 'uint64', fieldNumber: 1 },
    reduction: { dataType: 'uint32', fieldNumber: 2 },
  },
};
const REDUCTION_SEED_REVEAL = 1;
/** PoS on this chain: roundLength 103 = 101 active + 2 standby. */
const ROUND_LENGTH = 103;

function readNdjson<T>(relativePath: string): T[] {
  return readFileSync(fixturePath(relativePath), 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as T);
}

/** lisk-sdk shuffleValidatorList: ascending sha256(seed ‖ address), ties by address. */
function shuffle(seed: Buffer, addresses: Buffer[]): Buffer[] {
  const withHash = addresses.map((address) => ({
    address,
    hash: createHash('sha256')
      .update(Buffer.concat([seed, address]))
      .digest(),
  }));
  withHash.sort((x, y) => x.hash.compare(y.hash) || x.address.compare(y.address));
  return withHash.map((entry) => entry.address);
}

describe('random module on the dev chain', () => {
  const blocks = readNdjson<BlockLine>('chains/dev/blocks.ndjson');
  const seedRevealValidByHeight = new Map<number, boolean>();
  for (const { height, events } of readNdjson<EventsLine>('chains/dev/events.ndjson')) {
    const minted = events.find((event) => event.module === 'dynamicReward' && event.name === 'rewardMinted');
    if (minted === undefined) continue;
    const { reduction } = codec.decode<{ reduction: number }>(rewardMintedSchema, hex(minted.data));
    seedRevealValidByHeight.set(height, reduction !== REDUCTION_SEED_REVEAL);
  }
  const roundEndSets = new Map(
    loadJsonFixture<BftParameters[]>('chains/dev/bft_parameters.json')
      .slice(1)
      .map((set) => [set.fromHeight - 1, set.params.validators.map((v) => decodeLisk32(v.address))] as const),
  );

  const module = new RandomModule();
  module.init({ genesisConfig: testGenesisConfig, moduleConfig: { maxLengthReveals: 206 } });
  const harness = new ModuleHarness({ header: { height: 0 } });
  module.initGenesisState(harness.genesisContext());

  const rewardRule: boolean[] = [];
  const expectedRewardRule: boolean[] = [];
  const shuffles: { height: number; actual: string[]; expected: string[] }[] = [];
  for (const { height, blockJson } of blocks) {
    if (height === 0) continue;
    expect(blockJson.header.height).toBe(height);
    const generatorAddress = decodeLisk32(blockJson.header.generatorAddress);
    harness.commit({ height, generatorAddress });
    const randomAsset = blockJson.assets.find((asset) => asset.module === 'random');
    harness.assets.set('random', hex(randomAsset?.data ?? ''));

    const context = harness.blockExecuteContext('after');
    module.verifyAssets({ ...context, contextStore: harness.contextStore });
    rewardRule.push(module.method.isSeedRevealValid(harness, generatorAddress, context.assets));
    expectedRewardRule.push(seedRevealValidByHeight.get(height) as boolean);

    const roundSet = roundEndSets.get(height);
    if (roundSet !== undefined) {
      // PoS's afterTransactionsExecute runs before random's: the block's own reveal is not yet in.
      const seed = module.method.getRandomBytes(harness, height + 1 - Math.floor((ROUND_LENGTH * 3) / 2), ROUND_LENGTH);
      shuffles.push({
        height,
        actual: shuffle(seed, roundSet).map((a) => a.toString('hex')),
        expected: roundSet.map((a) => a.toString('hex')),
      });
    }
    module.afterTransactionsExecute(context);
  }
  harness.commit();

  it('accepts every block’s asset and agrees with dynamic reward on every seed reveal', () => {
    expect(rewardRule).toHaveLength(420);
    expect(rewardRule).toEqual(expectedRewardRule);
    recordCases('chains/dev/blocks.ndjson', rewardRule.length);
  });

  it('derives the random seeds that ordered the validator sets of heights 310 and 413', () => {
    expect(shuffles.map((s) => s.height)).toEqual([309, 412]);
    for (const { actual, expected } of shuffles) expect(actual).toEqual(expected);
    recordCases('chains/dev/bft_parameters.json', shuffles.length);
  });

  it('ends with the validatorReveals entry of final_state_kv.json', () => {
    const prefix = computeStorePrefix('random').toString('hex');
    const { entries } = loadJsonFixture<{ entries: [string, string][] }>('chains/dev/final_state_kv.json');
    const expected = entries.filter(([key]) => key.startsWith(prefix));
    const actual = harness.base
      .iterate({ gte: hex(prefix), lte: hex(`${prefix}${'ff'.repeat(8)}`) })
      .map(({ key, value }) => [key.toString('hex'), value.toString('hex')]);
    expect(expected).toHaveLength(1);
    expect(actual).toEqual(expected);
    recordCases('chains/dev/final_state_kv.json', expected.length);
  });
});
