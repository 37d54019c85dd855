/**
 * The auth module alone over the real dev chain (chains/dev, lisk-sdk 6.1.0): auth state depends
 * only on auth's own hooks (genesis asset, nonce increments, registrations), so replaying every
 * transaction of every block through verifyTransaction, beforeCommandExecute and the
 * registerMultisignature command must reproduce the auth substore at the tip
 * (final_state_kv.json), every auth_getAuthAccount answer (final_state.json) and every auth
 * event of events.ndjson. Expected behaviour: lisk-sdk auth module, LIP 0041.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { Block } from '../../../../src/chain/block.js';
import { AuthModule, type RegisterMultisignatureCommand } from '../../../../src/modules/auth/index.js';
import { VerifyStatus, type QueuedEvent } from '../../../../src/modules/base/index.js';
import { recordCases } from '../../../support/conformance-tally.js';
import { fixturePath, loadJsonFixture } from '../../../support/fixtures.js';
import { DEV_CHAIN_ID, ModuleHarness, testGenesisConfig } from '../../../support/module-harness.js';
import { decodeRegistrationParams, endpointContext } from './support.js';

interface RecordedEvent {
  module: string;
  name: string;
  data: string;
  topics: string[];
  height: number;
}

interface FinalStateCall {
  method: string;
  params: Record<string, unknown>;
  result: unknown;
}

function ndjson<T>(file: string): T[] {
  return readFileSync(fixturePath(file), 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as T);
}

const AUTH_PREFIX = '3df49c3c0000';

describe('auth over chains/dev', () => {
  const auth = new AuthModule();
  const command = auth.commands[0] as RegisterMultisignatureCommand;
  const harness = new ModuleHarness({ header: { height: 0 } });
  const emitted: QueuedEvent[] = [];
  const verifyResults: { height: number; id: string; status: VerifyStatus; commandStatus?: VerifyStatus }[] = [];
  let transactions = 0;

  beforeAll(() => {
    auth.init({ genesisConfig: testGenesisConfig, moduleConfig: { maxNumberOfSignatures: 64 } });
    const blocks = ndjson<{ height: number; blockHex: string }>('chains/dev/blocks.ndjson');
    for (const { height, blockHex } of blocks) {
      const block = Block.fromBytes(Buffer.from(blockHex, 'hex'));
      if (height === 0) {
        harness.assets.set('auth', block.assets.getAsset('auth') as Buffer);
        auth.initGenesisState(harness.genesisContext());
      }
      for (const transaction of block.transactions) {
        transactions += 1;
        const result = auth.verifyTransaction(harness.transactionVerifyContext(transaction));
        const record: (typeof verifyResults)[number] = { height, id: transaction.id.toString('hex'), status: result.status };
        verifyResults.push(record);
        const isRegistration = transaction.module === 'auth' && transaction.command === 'registerMultisignature';
        const params = isRegistration ? decodeRegistrationParams(transaction.params) : undefined;
        if (params) record.commandStatus = command.verify?.(harness.commandVerifyContext(transaction, params))?.status;
        auth.beforeCommandExecute(harness.transactionExecuteContext(transaction));
        if (params) command.execute(harness.commandExecuteContext(transaction, params));
      }
      emitted.push(...harness.events.events());
      harness.commit({ height: height + 1 });
    }
    expect(harness.header.height).toBe(421);
  });

  it('verifies every transaction of the chain as OK (exact nonces, valid single and multisignature signatures)', () => {
    expect(transactions).toBe(49);
    expect(verifyResults.filter((r) => r.status !== VerifyStatus.OK)).toEqual([]);
    expect(verifyResults.filter((r) => r.commandStatus !== undefined).map((r) => r.commandStatus)).toEqual([VerifyStatus.OK]);
    expect(DEV_CHAIN_ID.toString('hex')).toBe('04000000');
  });

  it('emits exactly the auth events of events.ndjson (name, data, topics, height)', () => {
    const recorded = ndjson<{ height: number; events: RecordedEvent[] }>('chains/dev/events.ndjson')
      .flatMap((line) => line.events)
      // commandExecutionResult carries the transaction's module name but is the engine's event.
      .filter((event) => event.module === 'auth' && event.name !== 'commandExecutionResult');
    expect(recorded.length).toBeGreaterThan(0);
    expect(
      emitted.map((event) => ({
        module: event.module,
        name: event.name,
        data: event.data.toString('hex'),
        topics: event.topics.map((topic) => topic.toString('hex')),
        height: event.height,
      })),
    ).toEqual(recorded.map(({ module, name, data, topics, height }) => ({ module, name, data, topics, height })));
  });

  it('reproduces the auth substore of final_state_kv.json', () => {
    const { entries } = loadJsonFixture<{ entries: [string, string][] }>('chains/dev/final_state_kv.json');
    const expected = entries.filter(([key]) => key.startsWith(AUTH_PREFIX));
    const actual = harness.base
      .iterate({ gte: Buffer.from(AUTH_PREFIX, 'hex'), lte: Buffer.concat([Buffer.from(AUTH_PREFIX, 'hex'), Buffer.alloc(20, 0xff)]) })
      .map(({ key, value }) => [key.toString('hex'), value.toString('hex')]);
    // Every account that sent a transaction, plus the genesis multisignature account.
    expect(expected.length).toBe(17);
    expect(actual).toEqual(expected);
  });

  it('answers auth_getAuthAccount like final_state.json for all of its addresses', () => {
    const finalState = loadJsonFixture<{ perAddress: Record<string, FinalStateCall[]> }>('chains/dev/final_state.json');
    const calls = Object.values(finalState.perAddress)
      .flat()
      .filter((call) => call.method === 'auth_getAuthAccount');
    expect(calls).toHaveLength(135);
    recordCases('chains/dev/final_state.json', calls.length);
    const handler = auth.endpoints.getAuthAccount;
    for (const call of calls) {
      const answer = handler?.handle(endpointContext(harness, call.params));
      expect(answer).toEqual(call.result);
    }
  });
});
