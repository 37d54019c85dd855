/**
 * interoperability_* endpoints (lisk-sdk BaseInteroperabilityEndpoint, MainchainInteroperabilityEndpoint):
 * JSON shapes, not-found and invalid-params cases, before and after a sidechain registration.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../../../src/crypto/sha256.js';
import { InvalidParamsError, NotFoundError } from '../../../../src/errors.js';
import { silentLogger } from '../../../../src/logger.js';
import type { Command } from '../../../../src/modules/base/index.js';
import {
  ccmSchema,
  computeValidatorsHash,
  EMPTY_HASH,
  terminatedOutboxStore,
  terminatedStateStore,
  type SidechainRegistrationParams,
} from '../../../../src/modules/interoperability/index.js';
import { createInteroperabilityEndpoints } from '../../../../src/modules/interoperability/endpoint.js';
import { MemoryState } from '../../../../src/state/memory-state.js';
import { makeHeader } from '../../../support/module-harness.js';
import { AVAILABLE_FEE_KEY, fakeTransaction, OWN_CHAIN_ID, setupAfterDevGenesis } from './setup.js';

const validators = [
  { blsKey: Buffer.alloc(48, 1), bftWeight: 3n },
  { blsKey: Buffer.alloc(48, 2), bftWeight: 4n },
];

describe('interoperability endpoints', () => {
  const ctx = setupAfterDevGenesis();
  const call = (name: string, params: Record<string, unknown> = {}) =>
    ctx.interoperability.endpoints[name]!.handle({
      state: ctx.harness.state,
      chainID: OWN_CHAIN_ID,
      logger: silentLogger,
      header: ctx.harness.header,
      params,
    });

  beforeAll(() => {
    const command = ctx.interoperability.commands.find((c) => c.name === 'registerSidechain') as Command<SidechainRegistrationParams>;
    ctx.harness.contextStore.set(AVAILABLE_FEE_KEY, 2n * 10n ** 9n);
    command.execute(
      ctx.harness.commandExecuteContext(fakeTransaction(2n * 10n ** 9n), {
        chainID: Buffer.from('04000005', 'hex'),
        name: 'five',
        sidechainValidators: validators,
        sidechainCertificateThreshold: 5n,
      }),
    );
  });

  it('getChainAccount answers the JSON chain account, NotFoundError otherwise', () => {
    const expected = {
      lastCertificate: {
        height: 0,
        timestamp: 0,
        stateRoot: EMPTY_HASH.toString('hex'),
        validatorsHash: computeValidatorsHash(validators, 5n).toString('hex'),
      },
      name: 'five',
      status: 0,
    };
    expect(call('getChainAccount', { chainID: '04000005' })).toEqual(expected);
    expect(call('getAllChainAccounts', { chainID: '00000000' })).toEqual({ chains: [expected] });
    expect(call('getAllChainAccounts', { chainID: '04000006' })).toEqual({ chains: [] });
    expect(() => call('getChainAccount', { chainID: '04000006' })).toThrow(new NotFoundError('Key 83ed0d25800004000006 does not exist.'));
    expect(() => call('getChainAccount', { chainID: 'zz' })).toThrow(InvalidParamsError);
  });

  it('getChannel answers the channel with hex boxes and a decimal fee', () => {
    const channel = call('getChannel', { chainID: '04000005' }) as { outbox: { appendPath: string[]; root: string; size: number } };
    expect(channel).toEqual({
      messageFeeTokenID: '0400000000000000',
      outbox: { appendPath: [channel.outbox.root], root: channel.outbox.root, size: 1 },
      inbox: { appendPath: [], root: EMPTY_HASH.toString('hex'), size: 0 },
      partnerChainOutboxRoot: EMPTY_HASH.toString('hex'),
      minReturnFeePerByte: '1000',
    });
    expect(channel.outbox.root).toMatch(/^[0-9a-f]{64}$/);
    expect(() => call('getChannel', { chainID: '04000006' })).toThrow(NotFoundError);
  });

  it('getOwnChainAccount answers the nonce as a string', () => {
    expect(call('getOwnChainAccount')).toEqual({ chainID: '04000000', name: 'lisk_mainchain', nonce: '1' });
  });

  it('getChainValidators answers weights as strings, and refuses unknown chains', () => {
    expect(call('getChainValidators', { chainID: '04000005' })).toEqual({
      activeValidators: validators.map((v) => ({ blsKey: v.blsKey.toString('hex'), bftWeight: v.bftWeight.toString() })),
      certificateThreshold: '5',
    });
    expect(() => call('getChainValidators', { chainID: '04000006' })).toThrow('Chain account does not exist.');
  });

  it('isChainIDAvailable: only free IDs of the own network other than the mainchain', () => {
    expect(call('isChainIDAvailable', { chainID: '04000006' })).toEqual({ result: true });
    expect(call('isChainIDAvailable', { chainID: '04000005' })).toEqual({ result: false });
    expect(call('isChainIDAvailable', { chainID: '04000000' })).toEqual({ result: false });
    expect(call('isChainIDAvailable', { chainID: '05000006' })).toEqual({ result: false });
  });

  it('isChainNameAvailable: registered names are taken, invalid names refused', () => {
    expect(call('isChainNameAvailable', { name: 'six' })).toEqual({ result: true });
    expect(call('isChainNameAvailable', { name: 'five' })).toEqual({ result: false });
    expect(call('isChainNameAvailable', { name: 'lisk_mainchain' })).toEqual({ result: false });
    expect(() => call('isChainNameAvailable', { name: 'Six' })).toThrow(
      'Invalid name property. It should contain only characters from the set [a-z0-9!@$&_.].',
    );
  });

  it('answers the fixed fees like lisk-sdk (getRegistrationFee uses the key `fee`)', () => {
    expect(call('getRegistrationFee')).toEqual({ fee: '1000000000' });
    expect(call('getMinimumMessageFee')).toEqual({ fee: '1000' });
    expect(call('getCCMSchema')).toEqual({ schema: ccmSchema });
  });

  it('answers terminated accounts, NotFoundError when absent', () => {
    expect(() => call('getTerminatedStateAccount', { chainID: '04000005' })).toThrow(NotFoundError);
    expect(() => call('getTerminatedOutboxAccount', { chainID: '04000005' })).toThrow(NotFoundError);
    const chainID = Buffer.from('04000007', 'hex');
    terminatedStateStore.set(ctx.harness.state, chainID, {
      stateRoot: sha256(Buffer.from('s')),
      mainchainStateRoot: EMPTY_HASH,
      initialized: true,
    });
    terminatedOutboxStore.set(ctx.harness.state, chainID, { outboxRoot: EMPTY_HASH, outboxSize: 4, partnerChainInboxSize: 3 });
    expect(call('getTerminatedStateAccount', { chainID: '04000007' })).toEqual({
      stateRoot: sha256(Buffer.from('s')).toString('hex'),
      initialized: true,
      mainchainStateRoot: EMPTY_HASH.toString('hex'),
    });
    expect(call('getTerminatedOutboxAccount', { chainID: '04000007' })).toEqual({
      outboxRoot: EMPTY_HASH.toString('hex'),
      outboxSize: 4,
      partnerChainInboxSize: 3,
    });
  });
});

describe('interoperability endpoints of a sidechain', () => {
  const endpoints = createInteroperabilityEndpoints('sidechain');
  const call = (name: string, params: Record<string, unknown> = {}) =>
    endpoints[name]!.handle({
      state: new MemoryState(),
      chainID: Buffer.from('05000007', 'hex'),
      logger: silentLogger,
      header: makeHeader(),
      params,
    });

  it('serves the base endpoints and getMainchainID, without the mainchain-only ones', () => {
    expect(Object.keys(endpoints)).toEqual([
      'getChainAccount',
      'getAllChainAccounts',
      'getChannel',
      'getOwnChainAccount',
      'getTerminatedStateAccount',
      'getTerminatedOutboxAccount',
      'getChainValidators',
      'getMainchainID',
      'getCCMSchema',
    ]);
  });

  it('getMainchainID answers the network byte followed by zeros', () => {
    expect(call('getMainchainID', { chainID: '05000007' })).toEqual({ mainchainID: '05000000' });
    expect(call('getMainchainID', { chainID: '04000000' })).toEqual({ mainchainID: '04000000' });
    expect(() => call('getMainchainID', { chainID: '0500' })).toThrow(InvalidParamsError);
  });

  it('names the full state key when an entry is missing, as lisk-sdk does', () => {
    expect(() => call('getOwnChainAccount')).toThrow(new NotFoundError('Key 83ed0d25b000 does not exist.'));
    expect(() => call('getChainAccount', { chainID: '04000000' })).toThrow('Key 83ed0d25800004000000 does not exist.');
  });
});
