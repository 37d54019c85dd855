/**
 * registerMainchain on the real lisk-sdk 6.1 sidechain of test/fixtures/chains/interop-dev: the
 * transaction of height 3, signed by the sidechain's four validators, executes to exactly the
 * recorded events and state; altered copies of it fail as lisk-sdk's command fails them.
 */
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { codec } from '../../../../src/codec/index.js';
import { sha256 } from '../../../../src/crypto/sha256.js';
import { VerifyStatus } from '../../../../src/modules/base/index.js';
import {
  RegisterMainchainCommand,
  mainchainRegistrationParamsSchema,
  type MainchainRegistrationParams,
} from '../../../../src/modules/interoperability/commands/register-mainchain.js';
import {
  ChainStatus,
  chainAccountStore,
  chainValidatorsStore,
  channelDataStore,
  EMPTY_BYTES,
  EMPTY_HASH,
  outboxRootStore,
  ownChainAccountStore,
  registeredNamesStore,
} from '../../../../src/modules/interoperability/index.js';
import { invalidNameMessage } from '../../../../src/modules/interoperability/utils.js';
import { fixturePath, loadJsonFixture } from '../../../support/fixtures.js';
import { ModuleHarness } from '../../../support/module-harness.js';
import { blockEvents, fakeTransaction } from './setup.js';

const SIDECHAIN_ID = Buffer.from('04000001', 'hex');
const MAINCHAIN_ID = Buffer.from('04000000', 'hex');
const CHAIN_DIR = 'chains/interop-dev/sidechain';
const REGISTRATION_HEIGHT = 3;

interface BlockLine {
  height: number;
  blockJson: { transactions: { module: string; command: string; params: string; fee: string; id: string }[] };
}
interface RecordedEvent {
  module: string;
  name: string;
  data: string;
  topics: string[];
}
interface BftParametersRange {
  fromHeight: number;
  toHeight: number;
  params: { certificateThreshold: string; validators: { blsKey: string; bftWeight: string }[] };
}

function ndjson<T>(file: string): T[] {
  return readFileSync(fixturePath(`${CHAIN_DIR}/${file}`), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

const registrationTx = (() => {
  const block = ndjson<BlockLine>('blocks.ndjson').find((line) => line.height === REGISTRATION_HEIGHT);
  const tx = block?.blockJson.transactions.find((candidate) => candidate.command === 'registerMainchain');
  if (tx === undefined) throw new Error('the fixture has no registerMainchain at height 3');
  return tx;
})();

const recordedEvents = (() => {
  const line = ndjson<{ height: number; events: RecordedEvent[] }>('events.ndjson').find((entry) => entry.height === REGISTRATION_HEIGHT);
  const txTopic = `04${registrationTx.id}`;
  return (line?.events ?? [])
    .filter((event) => event.module === 'interoperability' && event.name !== 'commandExecutionResult' && event.topics[0] === txTopic)
    .map(({ module, name, data, topics }) => ({ module, name, data, topics }));
})();

/** The sidechain's BFT set at height 3, as its validators module answers getValidatorsParams. */
const validatorsAtRegistration = (() => {
  const ranges = loadJsonFixture<BftParametersRange[]>(`${CHAIN_DIR}/bft_parameters.json`);
  const range = ranges.find((entry) => entry.fromHeight <= REGISTRATION_HEIGHT && REGISTRATION_HEIGHT <= entry.toHeight);
  if (range === undefined) throw new Error('no BFT parameters for height 3');
  return {
    certificateThreshold: BigInt(range.params.certificateThreshold),
    validators: range.params.validators.map((validator) => ({
      blsKey: Buffer.from(validator.blsKey, 'hex'),
      bftWeight: BigInt(validator.bftWeight),
    })),
  };
})();

const fixtureParams = (): MainchainRegistrationParams =>
  codec.decode<MainchainRegistrationParams>(mainchainRegistrationParamsSchema, Buffer.from(registrationTx.params, 'hex'));

describe('registerMainchain', () => {
  let harness: ModuleHarness;
  const command = new RegisterMainchainCommand({ getValidatorsParams: () => validatorsAtRegistration });
  const transaction = { ...fakeTransaction(BigInt(registrationTx.fee), 'registerMainchain'), id: Buffer.from(registrationTx.id, 'hex') };

  beforeEach(() => {
    harness = new ModuleHarness({ header: { height: REGISTRATION_HEIGHT } });
  });

  const verify = (params: MainchainRegistrationParams) =>
    command.verify({ ...harness.commandVerifyContext(transaction, params), chainID: SIDECHAIN_ID });
  const execute = (params: MainchainRegistrationParams) =>
    command.execute({ ...harness.commandExecuteContext(transaction, params), chainID: SIDECHAIN_ID });
  const expectFailure = (params: MainchainRegistrationParams, message: string) => {
    const result = verify(params);
    expect(result.status).toBe(VerifyStatus.FAIL);
    expect(result.error?.message).toBe(message);
  };

  it('has lisk-sdk 6.1 name and params schema, as the sidechain metadata reports them', () => {
    const metadata = loadJsonFixture<{ modules: { name: string; commands: { name: string; params: unknown }[] }[] }>(
      `${CHAIN_DIR}/metadata.json`,
    );
    const recorded = metadata.modules
      .find((module) => module.name === 'interoperability')
      ?.commands.find((entry) => entry.name === command.name);
    expect(recorded?.params).toEqual(command.schema);
  });

  it('executes the recorded transaction of height 3 to the recorded events and state', () => {
    const params = fixtureParams();
    expect(verify(params).status).toBe(VerifyStatus.OK);
    execute(params);
    expect(recordedEvents.map((event) => event.name)).toEqual(['chainAccountUpdated', 'ccmSendSuccess']);
    expect(blockEvents(harness)).toEqual(recordedEvents);

    const { state } = harness;
    expect(ownChainAccountStore.get(state, EMPTY_BYTES)).toEqual({ name: 'sidechain_one', chainID: SIDECHAIN_ID, nonce: 1n });
    expect(chainAccountStore.get(state, MAINCHAIN_ID)).toMatchObject({ name: 'lisk_mainchain', status: ChainStatus.REGISTERED });
    expect(chainValidatorsStore.get(state, MAINCHAIN_ID)).toEqual({
      activeValidators: params.mainchainValidators,
      certificateThreshold: params.mainchainCertificateThreshold,
    });
    const channel = channelDataStore.get(state, MAINCHAIN_ID);
    expect(channel).toMatchObject({ messageFeeTokenID: Buffer.from('0400000000000000', 'hex'), minReturnFeePerByte: 1000n });
    expect(channel?.outbox.size).toBe(1);
    // One leaf: the outbox root is the hash of the leaf prefix and the registration CCM's hash.
    const ccmID = Buffer.from(recordedEvents[1]?.topics[3] ?? '', 'hex');
    expect(channel?.outbox.root).toEqual(sha256(Buffer.concat([Buffer.from([0]), ccmID])));
    expect(outboxRootStore.get(state, MAINCHAIN_ID)).toEqual({ root: channel?.outbox.root });
    expect(channel?.inbox).toEqual({ root: EMPTY_HASH, appendPath: [], size: 0 });
    // Unlike registerSidechain on the mainchain, no name is registered.
    expect(registeredNamesStore.has(state, Buffer.from('lisk_mainchain', 'ascii'))).toBe(false);
  });

  it('refuses a second registration', () => {
    execute(fixtureParams());
    expectFailure(fixtureParams(), 'Mainchain has already been registered.');
  });

  it('refuses another chain ID than its own', () => {
    expectFailure({ ...fixtureParams(), ownChainID: Buffer.from('04000002', 'hex') }, 'Invalid ownChainID property.');
  });

  it('refuses an invalid own name', () => {
    expectFailure({ ...fixtureParams(), ownName: 'Sidechain One' }, invalidNameMessage('ownName'));
  });

  it('refuses mainchain validators out of order, repeated or without weight', () => {
    const params = fixtureParams();
    const [first, second, ...rest] = params.mainchainValidators;
    const message = 'Validators blsKeys must be unique and lexicographically ordered.';
    expectFailure({ ...params, mainchainValidators: [second!, first!, ...rest] }, message);
    expectFailure({ ...params, mainchainValidators: [first!, first!, ...rest] }, message);
    expectFailure(
      { ...params, mainchainValidators: [{ ...first!, bftWeight: 0n }, second!, ...rest] },
      'Validator bft weight must be positive integer.',
    );
    expectFailure(
      { ...params, mainchainValidators: [{ ...first!, bftWeight: 2n ** 64n - 1n }, second!, ...rest] },
      'Total BFT weight exceeds maximum value.',
    );
  });

  it('refuses a certificate threshold outside totalWeight/3+1 .. totalWeight', () => {
    const params = fixtureParams();
    const total = params.mainchainValidators.reduce((sum, validator) => sum + validator.bftWeight, 0n);
    expectFailure({ ...params, mainchainCertificateThreshold: total / 3n }, 'Certificate threshold is too small.');
    expectFailure({ ...params, mainchainCertificateThreshold: total + 1n }, 'Certificate threshold is too large.');
  });

  it('fails on a signature short of the threshold, keeping only the invalidRegistrationSignature event', () => {
    // Two signers of weight 1 each, against a certificate threshold of 3.
    const params = { ...fixtureParams(), aggregationBits: Buffer.from([0x03]) };
    expect(verify(params).status).toBe(VerifyStatus.OK);
    expect(() => execute(params)).toThrow('Invalid signature property.');
    expect(blockEvents(harness)).toEqual([
      { module: 'interoperability', name: 'invalidRegistrationSignature', data: '', topics: [`04${registrationTx.id}`, '04000001'] },
    ]);
    expect(chainAccountStore.has(harness.state, MAINCHAIN_ID)).toBe(false);
    expect(ownChainAccountStore.has(harness.state, EMPTY_BYTES)).toBe(false);
  });

  it('fails on a signature over other params (another threshold)', () => {
    const params = fixtureParams();
    const altered = { ...params, mainchainCertificateThreshold: params.mainchainCertificateThreshold + 1n };
    expect(verify(altered).status).toBe(VerifyStatus.OK);
    expect(() => execute(altered)).toThrow('Invalid signature property.');
    expect(blockEvents(harness).map((event) => event.name)).toEqual(['invalidRegistrationSignature']);
  });

  it('fails on a malformed signature or bitmap', () => {
    const params = fixtureParams();
    const signature = Buffer.from(params.signature);
    signature[10] = (signature[10] ?? 0) ^ 0xff;
    expect(() => execute({ ...params, signature })).toThrow('Invalid signature property.');
    expect(() => execute({ ...params, aggregationBits: Buffer.from([0x0f, 0x00]) })).toThrow('Invalid signature property.');
  });
});
