/**
 * End-to-end check of the validators module against the real lisk-sdk 6.1 dev chain
 * (test/fixtures/chains/dev): the calls PoS makes on this chain — genesis registration of the
 * 103 validators (pos finalizeGenesisState), the two validator registrations and two generator
 * key updates of the workload, and the validator sets of bft_parameters.json — must reproduce the
 * validators events of events.ndjson byte for byte and the module's state in final_state_kv.json,
 * and getValidator must answer as final_state.json.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Transaction } from '../../../../src/chain/transaction.js';
import { decodeLisk32 } from '../../../../src/crypto/index.js';
import { silentLogger } from '../../../../src/logger.js';
import type { EventQueue, MethodContext } from '../../../../src/modules/base/index.js';
import { computeStorePrefix } from '../../../../src/modules/base/index.js';
import { ValidatorsModule, type NextValidatorsSetter } from '../../../../src/modules/validators/index.js';
import { recordCases } from '../../../support/conformance-tally.js';
import { fixturePath, hex, loadJsonFixture } from '../../../support/fixtures.js';
import { makeHeader, ModuleHarness, testGenesisConfig } from '../../../support/module-harness.js';
import { genesisValidators } from './keys.js';

interface FixtureEvent {
  module: string;
  name: string;
  data: string;
  topics: string[];
}
interface WorkloadEntry {
  module: string;
  command: string;
  sender: string;
  params: Record<string, string>;
  txHex: string;
  includedAtHeight: number;
  success: boolean;
}
interface BftParameters {
  fromHeight: number;
  params: {
    validators: { address: string; bftWeight: string; blsKey: string }[];
    precommitThreshold: string;
    certificateThreshold: string;
  };
}
interface RpcCall {
  method: string;
  params: Record<string, unknown>;
  result: unknown;
}

function readNdjson<T>(relativePath: string): T[] {
  return readFileSync(fixturePath(relativePath), 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as T);
}

const validatorsEventsByHeight = new Map<number, FixtureEvent[]>();
for (const { height, events } of readNdjson<{ height: number; events: FixtureEvent[] }>('chains/dev/events.ndjson')) {
  validatorsEventsByHeight.set(
    height,
    events.filter((event) => event.module === 'validators'),
  );
}

function summary(queue: EventQueue): FixtureEvent[] {
  return queue
    .events()
    .filter((event) => event.module === 'validators')
    .map((event) => ({
      module: event.module,
      name: event.name,
      data: event.data.toString('hex'),
      topics: event.topics.map((topic) => topic.toString('hex')),
    }));
}

function project(events: FixtureEvent[] | undefined): FixtureEvent[] {
  return (events ?? []).map(({ module, name, data, topics }) => ({ module, name, data, topics }));
}

/** Replays the validators module through the chain and returns the harness at the tip. */
function replay() {
  const module = new ValidatorsModule();
  module.init({ genesisConfig: { ...testGenesisConfig, blockTime: 3 }, moduleConfig: {} });
  const harness = new ModuleHarness({ header: { height: 0 } });
  const checkedHeights: number[] = [];

  // Genesis (pos finalizeGenesisState): register every validator in asset order, then the init set.
  const genesis = harness.genesisContext('finalize');
  for (const v of genesisValidators()) {
    module.method.registerValidatorKeys(genesis, v.address, v.blsKey, v.generatorKey, v.proofOfPossession);
  }
  expect(summary(harness.events)).toEqual(project(validatorsEventsByHeight.get(0)));
  checkedHeights.push(0);
  const bft = loadJsonFixture<BftParameters[]>('chains/dev/bft_parameters.json');
  // The hook context is both the method context and the setter, as PoS passes it.
  const applySet = (ctx: MethodContext & NextValidatorsSetter, set: BftParameters) => {
    module.method.setValidatorsParams(
      ctx,
      ctx,
      BigInt(set.params.precommitThreshold),
      BigInt(set.params.certificateThreshold),
      set.params.validators.map((v) => ({ address: decodeLisk32(v.address), bftWeight: BigInt(v.bftWeight) })),
    );
  };
  applySet(genesis, bft[0] as BftParameters);
  expect(harness.nextValidators?.validators.map((v) => v.blsKey.toString('hex'))).toEqual(bft[0]?.params.validators.map((v) => v.blsKey));

  // The workload's validator-key transactions, at their heights, with their real transaction IDs.
  const keyTransactions = readNdjson<WorkloadEntry>('chains/dev/workload.ndjson').filter(
    (entry) => entry.module === 'pos' && ['registerValidator', 'updateGeneratorKey'].includes(entry.command),
  );
  expect(keyTransactions).toHaveLength(4);
  for (const entry of keyTransactions) {
    harness.commit({ height: entry.includedAtHeight });
    const transaction = Transaction.fromBytes(hex(entry.txHex));
    const ctx = harness.transactionExecuteContext(transaction);
    const sender = decodeLisk32(entry.sender);
    if (entry.command === 'registerValidator') {
      module.method.registerValidatorKeys(
        ctx,
        sender,
        hex(entry.params.blsKey as string),
        hex(entry.params.generatorKey as string),
        hex(entry.params.proofOfPossession as string),
      );
    } else {
      module.method.setValidatorGeneratorKey(ctx, sender, hex(entry.params.generatorKey as string));
    }
    expect(summary(harness.events)).toEqual(project(validatorsEventsByHeight.get(entry.includedAtHeight)));
    checkedHeights.push(entry.includedAtHeight);
  }

  // The validator sets PoS set at the ends of rounds 3 and 4 (after the key updates above).
  for (const set of bft.slice(1)) {
    harness.commit({ height: set.fromHeight - 1 });
    applySet(harness.blockExecuteContext('after'), set);
    expect(harness.nextValidators?.validators.map((v) => v.address)).toEqual(set.params.validators.map((v) => decodeLisk32(v.address)));
  }
  harness.commit({ height: 421 });
  return { module, harness, checkedHeights };
}

describe('validators module on the dev chain', () => {
  const { module, harness, checkedHeights } = replay();

  it('emits exactly the validators events of every height that has any', () => {
    const heightsWithEvents = [...validatorsEventsByHeight.entries()].filter(([, events]) => events.length > 0).map(([height]) => height);
    expect(checkedHeights).toEqual(heightsWithEvents);
    recordCases('chains/dev/events.ndjson', checkedHeights.length);
  });

  it('ends with the validators state of final_state_kv.json, key for key', () => {
    const prefix = computeStorePrefix('validators').toString('hex');
    const { entries } = loadJsonFixture<{ entries: [string, string][] }>('chains/dev/final_state_kv.json');
    const expected = entries.filter(([key]) => key.startsWith(prefix));
    const actual = harness.base
      .iterate({ gte: hex(prefix), lte: hex(`${prefix}${'ff'.repeat(60)}`) })
      .map(({ key, value }) => [key.toString('hex'), value.toString('hex')]);
    expect(expected.length).toBe(1 + 105 + 105);
    expect(actual).toEqual(expected);
    recordCases('chains/dev/final_state_kv.json', expected.length);
  });

  it('answers validators_getValidator as the real node did at the tip', () => {
    const { perAddress } = loadJsonFixture<{ perAddress: Record<string, RpcCall[]> }>('chains/dev/final_state.json');
    const calls = Object.values(perAddress)
      .flat()
      .filter((call) => call.method === 'validators_getValidator');
    expect(calls).toHaveLength(105);
    const handler = module.endpoints.getValidator;
    for (const call of calls) {
      const answer = handler?.handle({
        state: harness.state,
        chainID: testGenesisConfig.chainID,
        logger: silentLogger,
        header: makeHeader({ height: 420 }),
        params: call.params,
      });
      expect(answer).toEqual(call.result);
    }
    recordCases('chains/dev/final_state.json', calls.length);
  });
});
