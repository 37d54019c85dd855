/**
 * The pos module driven through the whole real lisk-sdk 6.1 dev chain (chains/dev, heights
 * 0..420), in isolation: genesis, every pos transaction of every block (verify + execute, with
 * the command results of the real chain), the after-transactions hook, and the reward sharing
 * dynamic reward triggers (with the block rewards the real chain minted). The validators and
 * random methods are the real ones; token and fee are the faithful in-test ones, fed with the
 * genesis balances, the successful transfers and the fees.
 *
 * Checked against the real chain: every pos event (name, data, topics, order) and every token
 * lock/unlock of the pos module, the validator sets handed to BFT at heights 309 and 412
 * (bft_parameters.json), the whole pos, validators and random state at the tip
 * (final_state_kv.json), and every pos_* RPC answer at the tip (final_state.json).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Block } from '../../src/chain/block.js';
import { codec, type Schema } from '../../src/codec/index.js';
import { encodeLisk32 } from '../../src/crypto/index.js';
import { silentLogger } from '../../src/logger.js';
import { VerifyStatus, type EndpointContext, type ExecutionHeader } from '../../src/modules/base/index.js';
import { EMPTY_KEY } from '../../src/modules/pos/index.js';
import { isSeedRevealValidAgainst } from '../../src/modules/random/seed-reveal.js';
import { validatorRevealsStore } from '../../src/modules/random/stores.js';
import { DEV_CHAIN_ID, ModuleHarness, type NextValidatorsCall } from '../support/module-harness.js';
import {
  devBftParameters,
  devBlocks,
  devConfig,
  devEvents,
  finalState,
  finalStateKV,
  genesisPosAssetBytes,
  genesisTokenAccounts,
  type EventJSON,
  type RpcAnswer,
} from '../unit/modules/pos/dev-chain.js';
import { AVAILABLE_FEE_KEY, createPos, TOKEN_ID, userStore, type PosSetup } from '../unit/modules/pos/pos-test-kit.js';

const MIN_FEE_PER_BYTE = 1000n;
const MAX_LENGTH_REVEALS = 206;

const transferParamsSchema: Schema = {
  $id: '/test/token/transfer',
  type: 'object',
  required: ['tokenID', 'amount', 'recipientAddress', 'data'],
  properties: {
    tokenID: { dataType: 'bytes', fieldNumber: 1 },
    amount: { dataType: 'uint64', fieldNumber: 2 },
    recipientAddress: { dataType: 'bytes', fieldNumber: 3 },
    data: { dataType: 'string', fieldNumber: 4 },
  },
};
const randomAssetSchema: Schema = {
  $id: '/test/random/asset',
  type: 'object',
  required: ['seedReveal'],
  properties: { seedReveal: { dataType: 'bytes', fieldNumber: 1 } },
};
const rewardMintedSchema: Schema = {
  $id: '/test/dynamicReward/rewardMinted',
  type: 'object',
  required: ['amount', 'reduction'],
  properties: { amount: { dataType: 'uint64', fieldNumber: 1 }, reduction: { dataType: 'uint32', fieldNumber: 2 } },
};
const lockDataSchema: Schema = {
  $id: '/test/token/lock',
  type: 'object',
  required: ['address', 'module', 'tokenID', 'amount', 'result'],
  properties: {
    address: { dataType: 'bytes', fieldNumber: 1 },
    module: { dataType: 'string', fieldNumber: 2 },
    tokenID: { dataType: 'bytes', fieldNumber: 3 },
    amount: { dataType: 'uint64', fieldNumber: 4 },
    result: { dataType: 'uint32', fieldNumber: 5 },
  },
};

interface SimpleEvent {
  module: string;
  name: string;
  data: string;
  topics: string[];
}

/** The events pos is answerable for: its own, and token locks/unlocks under module `pos`. */
function posRelevant(events: readonly SimpleEvent[]): SimpleEvent[] {
  return events.filter((event) => {
    if (event.module === 'pos') return event.name !== 'commandExecutionResult';
    if (event.module === 'token' && (event.name === 'lock' || event.name === 'unlock')) {
      return codec.decode<{ module: string }>(lockDataSchema, Buffer.from(event.data, 'hex')).module === 'pos';
    }
    return false;
  });
}

function toHeader(block: Block): ExecutionHeader {
  const h = block.header;
  return {
    version: h.version,
    height: h.height,
    timestamp: h.timestamp,
    previousBlockID: h.previousBlockID,
    generatorAddress: h.generatorAddress,
    maxHeightPrevoted: h.maxHeightPrevoted,
    maxHeightGenerated: h.maxHeightGenerated,
    impliesMaxPrevotes: h.impliesMaxPrevotes,
    aggregateCommit: h.aggregateCommit,
  };
}

interface ReplayResult {
  harness: ModuleHarness;
  setup: PosSetup;
  tip: ExecutionHeader;
  eventMismatches: string[];
  resultMismatches: string[];
  verifyFailures: string[];
  validatorSets: Map<number, NextValidatorsCall>;
  posTransactions: number;
  comparedEvents: number;
}

function replay(): ReplayResult {
  const setup = createPos(devConfig.modules.pos, devConfig.genesis.blockTime);
  const blocks = devBlocks();
  const events = devEvents();
  const genesis = Block.fromBytes(Buffer.from(blocks[0]!.blockHex, 'hex'));
  const harness = new ModuleHarness({ header: toHeader(genesis) });
  harness.assets.set('pos', genesisPosAssetBytes());
  for (const user of genesisTokenAccounts()) {
    setup.token.setAccount(
      harness,
      user.address,
      { availableBalance: user.availableBalance, lockedBalances: user.lockedBalances },
      user.tokenID,
    );
  }
  validatorRevealsStore.set(harness.state, EMPTY_KEY, { validatorReveals: [] });
  setup.pos.initGenesisState(harness.genesisContext('init'));
  setup.pos.finalizeGenesisState(harness.genesisContext('finalize'));

  const result: ReplayResult = {
    harness,
    setup,
    tip: harness.header,
    eventMismatches: [],
    resultMismatches: [],
    verifyFailures: [],
    validatorSets: new Map(),
    posTransactions: 0,
    comparedEvents: 0,
  };
  const commands = new Map(setup.pos.commands.map((command) => [command.name, command]));

  for (const line of blocks.slice(1)) {
    const block = Block.fromBytes(Buffer.from(line.blockHex, 'hex'));
    harness.commit(toHeader(block));
    harness.assets = new Map([['random', block.assets.getAsset('random')!]]);
    const expectedEvents = events.get(block.header.height) ?? [];

    for (const tx of block.transactions) {
      const sender = tx.senderAddress();
      const resultEvent = expectedEvents.find(
        (e: EventJSON) => e.name === 'commandExecutionResult' && e.topics[0] === `04${tx.id.toString('hex')}`,
      );
      const succeededOnChain = resultEvent?.data === '0801';
      // The fee module locks the whole fee before the command and never gives it back to the sender.
      setup.token.debit(harness, sender, tx.fee);
      harness.contextStore.set(AVAILABLE_FEE_KEY, tx.fee - MIN_FEE_PER_BYTE * BigInt(tx.size));

      if (tx.module === 'pos') {
        result.posTransactions += 1;
        const command = commands.get(tx.command)!;
        const params = codec.decode<object>(command.schema, tx.params);
        const verification = command.verify?.(harness.commandVerifyContext(tx, params));
        if (verification !== undefined && (verification as { status: VerifyStatus }).status !== VerifyStatus.OK) {
          result.verifyFailures.push(`${block.header.height} ${tx.command}`);
        }
        const stateSnapshot = harness.state.snapshot();
        const eventSnapshot = harness.events.snapshot();
        let succeeded = true;
        try {
          void command.execute(harness.commandExecuteContext(tx, params));
        } catch {
          succeeded = false;
          harness.state.restore(stateSnapshot);
          harness.events.restore(eventSnapshot);
        }
        if (succeeded !== succeededOnChain) {
          result.resultMismatches.push(`${block.header.height} ${tx.command} ${tx.id.toString('hex')}: ${succeeded}`);
        }
      } else if (tx.module === 'token' && tx.command === 'transfer' && succeededOnChain) {
        const transfer = codec.decode<{ amount: bigint; recipientAddress: Buffer }>(transferParamsSchema, tx.params);
        setup.token.debit(harness, sender, transfer.amount);
        setup.token.credit(harness, transfer.recipientAddress, transfer.amount);
      }
    }

    // Hooks in the application's module order: pos, random, dynamicReward.
    const afterContext = harness.blockExecuteContext('after', block.transactions);
    setup.pos.afterTransactionsExecute(afterContext);
    if (harness.nextValidators) result.validatorSets.set(block.header.height, harness.nextValidators);

    const { seedReveal } = codec.decode<{ seedReveal: Buffer }>(randomAssetSchema, block.assets.getAsset('random')!);
    const { validatorReveals } = validatorRevealsStore.getOrThrow(harness.state, EMPTY_KEY);
    const valid = isSeedRevealValidAgainst(block.header.generatorAddress, seedReveal, validatorReveals);
    const nextReveals = validatorReveals.length === MAX_LENGTH_REVEALS ? validatorReveals.slice(1) : validatorReveals;
    nextReveals.push({ generatorAddress: block.header.generatorAddress, seedReveal, height: block.header.height, valid });
    validatorRevealsStore.set(harness.state, EMPTY_KEY, { validatorReveals: nextReveals });

    const minted = expectedEvents.find((e) => e.module === 'dynamicReward' && e.name === 'rewardMinted');
    const { amount: reward } = codec.decode<{ amount: bigint }>(rewardMintedSchema, Buffer.from(minted!.data, 'hex'));
    if (reward > 0n) {
      setup.token.credit(harness, block.header.generatorAddress, reward);
      setup.pos.method.updateSharedRewards(afterContext, block.header.generatorAddress, TOKEN_ID, reward);
    }

    const actual = posRelevant(
      harness.events.events().map((e) => ({
        module: e.module,
        name: e.name,
        data: e.data.toString('hex'),
        topics: e.topics.map((t) => t.toString('hex')),
      })),
    );
    const wanted = posRelevant(expectedEvents);
    result.comparedEvents += wanted.length;
    if (JSON.stringify(actual) !== JSON.stringify(wanted.map(({ module, name, data, topics }) => ({ module, name, data, topics })))) {
      result.eventMismatches.push(`height ${block.header.height}: ${JSON.stringify(actual)} vs ${JSON.stringify(wanted)}`);
    }
    result.tip = harness.header;
  }
  harness.commit();
  return result;
}

function setToJSON(call: NextValidatorsCall | undefined): unknown {
  if (call === undefined) return undefined;
  return {
    precommitThreshold: call.precommitThreshold.toString(),
    certificateThreshold: call.certificateThreshold.toString(),
    validators: call.validators.map((v) => ({
      address: encodeLisk32(v.address),
      bftWeight: v.bftWeight.toString(),
      blsKey: v.blsKey.toString('hex'),
    })),
  };
}

describe('pos over the real dev chain (0..420)', () => {
  let run: ReplayResult;
  beforeAll(() => {
    run = replay();
  }, 240_000);

  it('replays every pos transaction (22 of the 49) with the real outcome', () => {
    expect(run.posTransactions).toBe(22);
    expect(run.verifyFailures).toEqual([]);
    expect(run.resultMismatches).toEqual([]);
  });

  it('emits exactly the real pos events and pos token locks/unlocks, block by block', () => {
    expect(run.eventMismatches).toEqual([]);
    // 2 validatorRegistered, 14 validatorStaked, 3 commissionChange, 1 rewardsAssigned, 42 locks, 2 unlocks.
    expect(run.comparedEvents).toBe(64);
  });

  it('hands BFT the real validator sets at the ends of rounds 3 and 4 and nowhere else', () => {
    expect([...run.validatorSets.keys()]).toEqual([309, 412]);
    for (const [height, range] of [
      [309, devBftParameters[1]!],
      [412, devBftParameters[2]!],
    ] as const) {
      expect(range.fromHeight).toBe(height + 1);
      const { precommitThreshold, certificateThreshold, validators } = range.params;
      expect(setToJSON(run.validatorSets.get(height))).toEqual({ precommitThreshold, certificateThreshold, validators });
    }
  });

  it('leaves the pos state of the tip byte for byte (final_state_kv.json)', () => {
    const prefix = '7160f868';
    const expected = finalStateKV.filter(([key]) => key.startsWith(prefix));
    const from = Buffer.from(prefix, 'hex');
    const actual = run.harness.base
      .iterate({ gte: from, lte: Buffer.concat([from, Buffer.alloc(64, 0xff)]) })
      .map(({ key, value }) => [key.toString('hex'), value.toString('hex')]);
    expect(actual).toEqual(expected);
    expect(actual).toHaveLength(225);
  });

  it('drives the validators module to its real tip state, and the random emulation matches too', () => {
    for (const prefix of ['66d18af4', '2441b15f']) {
      const expected = finalStateKV.filter(([key]) => key.startsWith(prefix));
      const from = Buffer.from(prefix, 'hex');
      const actual = run.harness.base
        .iterate({ gte: from, lte: Buffer.concat([from, Buffer.alloc(64, 0xff)]) })
        .map(({ key, value }) => [key.toString('hex'), value.toString('hex')]);
      expect(actual).toEqual(expected);
    }
  });

  it('locks under `pos` exactly the amounts of the real token state', () => {
    const prefix = Buffer.from('3c469e9d0000', 'hex');
    for (const [key, value] of finalStateKV.filter(([k]) => k.startsWith('3c469e9d0000'))) {
      const stateKey = Buffer.from(key, 'hex');
      const real = codec.decode<UserLocks>(userStore.schema, Buffer.from(value, 'hex'));
      const ours = userStore.get(run.harness.base, stateKey.subarray(prefix.length));
      const posLocked = (u: UserLocks | undefined) => u?.lockedBalances.find((l) => l.module === 'pos')?.amount ?? 0n;
      expect(posLocked(ours), encodeLisk32(stateKey.subarray(6, 26))).toBe(posLocked(real));
    }
  });

  it('answers every pos_* RPC call of the tip as the real node (final_state.json)', () => {
    const answers: RpcAnswer[] = [...finalState.global, ...Object.values(finalState.perAddress).flat()].filter((answer) =>
      answer.method.startsWith('pos_'),
    );
    expect(answers.length).toBeGreaterThan(700);
    const mismatches: string[] = [];
    for (const answer of answers) {
      const handler = run.setup.pos.endpoints[answer.method.slice('pos_'.length)];
      const context: EndpointContext = {
        state: run.harness.base,
        chainID: DEV_CHAIN_ID,
        logger: silentLogger,
        header: run.tip,
        params: answer.params,
      };
      const wanted = answer.result as Record<string, unknown> & { error?: { message: string } };
      let got: unknown;
      try {
        got = JSON.parse(JSON.stringify(handler!.handle(context)));
      } catch (error) {
        got = { error: { message: (error as Error).message } };
      }
      if (JSON.stringify(sortKeys(got)) !== JSON.stringify(sortKeys(wanted))) {
        mismatches.push(
          `${answer.method} ${JSON.stringify(answer.params)}: ${JSON.stringify(got).slice(0, 300)} vs ${JSON.stringify(wanted).slice(0, 300)}`,
        );
      }
    }
    expect(mismatches).toEqual([]);
  });
});

interface UserLocks {
  lockedBalances: { module: string; amount: bigint }[];
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, sortKeys(v)]),
    );
  }
  return value;
}
