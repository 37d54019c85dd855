/**
 * Replays the dynamicReward part of the dev chain (lisk-sdk 6.1.0, heights 0..420, README
 * "rewardMinted events by reduction code {"0":420}"): with the real validators method over the
 * BFT parameters of each height, the real random module, and faithful in-test token/pos, every block's token mint
 * and rewardMinted events must equal the chain's, and the end-of-round timestamp at the tip must
 * equal final_state_kv.json. The random module is the real one (its reveals decide reduction 1).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { codec } from '../../../../src/codec/index.js';
import { decodeLisk32 } from '../../../../src/crypto/lisk32.js';
import { DynamicRewardModule } from '../../../../src/modules/dynamic-reward/index.js';
import { RandomModule } from '../../../../src/modules/random/index.js';
import { ValidatorsMethod, validatorsParamsStore } from '../../../../src/modules/validators/index.js';
import { fixturePath, loadJsonFixture } from '../../../support/fixtures.js';
import { ModuleHarness } from '../../../support/module-harness.js';
import { InTestPos, InTestToken } from './in-test-deps.js';

interface ChainEvent {
  module: string;
  name: string;
  data: string;
  topics: string[];
}
interface BlockLine {
  height: number;
  blockJson: {
    header: { height: number; timestamp: number; generatorAddress: string; impliesMaxPrevotes: boolean };
    assets: { module: string; data: string }[];
  };
}
interface BftRange {
  fromHeight: number;
  toHeight: number;
  params: { validators: { address: string; bftWeight: string; blsKey: string }[] };
}

const readLines = <T>(file: string): T[] =>
  readFileSync(fixturePath(file), 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as T);

/**
 * The chain's rewardMinted event (always the block's last) and, when a reward was minted, the
 * token mint just before it. Between them PoS updateSharedRewards may add token `lock` events
 * (the stakers' share, which the in-test PoS does not compute); they are checked and skipped.
 */
function chainRewardEvents(all: ChainEvent[]): ChainEvent[] {
  const strip = ({ module, name, data, topics }: ChainEvent): ChainEvent => ({ module, name, data, topics });
  const last = all.at(-1)!;
  expect(`${last.module}:${last.name}`).toBe('dynamicReward:rewardMinted');
  const isLock = (event: ChainEvent | undefined) => event?.module === 'token' && event.name === 'lock';
  let index = all.length - 2;
  while (isLock(all[index])) index -= 1;
  const mint = all[index];
  if (mint?.module === 'token' && mint.name === 'mint') return [strip(mint), strip(last)];
  // Nothing minted: then nothing was locked either.
  expect(index).toBe(all.length - 2);
  return [strip(last)];
}

describe('dynamicReward over the dev chain', () => {
  it('reproduces every rewardMinted and mint event and the final end-of-round timestamp', () => {
    const blocks = readLines<BlockLine>('chains/dev/blocks.ndjson');
    const events = readLines<{ height: number; events: ChainEvent[] }>('chains/dev/events.ndjson');
    const ranges = loadJsonFixture<BftRange[]>('chains/dev/bft_parameters.json');
    const config = loadJsonFixture<{ genesis: { blockTime: number }; modules: Record<string, Record<string, unknown>> }>(
      'chains/dev/config.json',
    );
    const finalKv = loadJsonFixture<{ entries: [string, string][] }>('chains/dev/final_state_kv.json');
    expect(blocks.length).toBe(421);
    expect(events.length).toBe(421);

    const calls: string[] = [];
    const token = new InTestToken(calls);
    const random = new RandomModule();
    const pos = new InTestPos(calls, 103);
    const validators = new ValidatorsMethod();
    validators.init({ blockTime: config.genesis.blockTime });
    const module = new DynamicRewardModule({ token, random: random.method, validators, pos });
    const genesisConfig = {
      chainID: Buffer.from('04000000', 'hex'),
      blockTime: config.genesis.blockTime,
      bftBatchSize: 103,
      maxTransactionsSize: 15360,
      minimumCertifyHeight: 1,
    };
    module.init({ genesisConfig, moduleConfig: config.modules.dynamicReward! });
    random.init({ genesisConfig, moduleConfig: config.modules.random! });

    const genesis = blocks[0]!.blockJson.header;
    const harness = new ModuleHarness({ header: { height: 0, timestamp: genesis.timestamp } });
    random.initGenesisState(harness.genesisContext());
    module.initGenesisState(harness.genesisContext());
    const tokenID = module.config.tokenID;
    // Every validator of the chain has an LSK account from genesis (no reduction 3 on this chain).
    const everyValidator = new Set(ranges.flatMap((range) => range.params.validators.map((v) => v.address)));
    for (const address of everyValidator) token.createAccount(harness.genesisContext(), decodeLisk32(address), tokenID);

    let checked = 0;
    for (const { height, blockJson } of blocks.slice(1)) {
      const { header, assets } = blockJson;
      const generatorAddress = decodeLisk32(header.generatorAddress);
      harness.commit({
        height,
        timestamp: header.timestamp,
        generatorAddress,
        impliesMaxPrevotes: header.impliesMaxPrevotes,
      });
      const range = ranges.find((candidate) => candidate.fromHeight === height);
      if (range !== undefined) {
        validatorsParamsStore.set(harness.state, Buffer.alloc(0), {
          preCommitThreshold: 0n,
          certificateThreshold: 0n,
          validators: range.params.validators.map((v) => ({
            address: decodeLisk32(v.address),
            bftWeight: BigInt(v.bftWeight),
            generatorKey: Buffer.alloc(32),
            blsKey: Buffer.from(v.blsKey, 'hex'),
          })),
        });
      }
      harness.assets.set('random', Buffer.from(assets.find((asset) => asset.module === 'random')!.data, 'hex'));

      // lisk-sdk module order: random's after-transactions hook runs before dynamicReward's.
      module.beforeTransactionsExecute(harness.blockExecuteContext('before'));
      random.afterTransactionsExecute(harness.blockExecuteContext('after'));
      module.afterTransactionsExecute(harness.blockExecuteContext('after'));

      const ours = harness.events.events().map((event) => ({
        module: event.module,
        name: event.name,
        data: event.data.toString('hex'),
        topics: event.topics.map((topic) => topic.toString('hex')),
      }));
      expect(ours, `height ${height}`).toEqual(chainRewardEvents(events[height]!.events));
      checked += 1;
    }
    expect(checked).toBe(420);

    const tipEntry = finalKv.entries.find(([key]) => key === '054253ec0000');
    expect(tipEntry).toBeDefined();
    expect(harness.state.get(Buffer.from('054253ec0000', 'hex'))?.toString('hex')).toBe(tipEntry![1]);
    expect(module.config.tokenID.toString('hex')).toBe('0400000000000000');
    expect(blocks[412]!.blockJson.header.timestamp).toBe(
      codec.decode<{ timestamp: number }>(module.stores[0]!.schema, Buffer.from(tipEntry![1], 'hex')).timestamp,
    );
  });
});
