/**
 * Sidechain genesis of the interoperability module (LIP 0045 sidechain rules; lisk-sdk
 * sidechain/module.ts initGenesisState): the checks in lisk-sdk's order with its messages, and the
 * state written, which unlike the mainchain's holds no registered names.
 */
import { describe, expect, it } from 'vitest';
import { codec } from '../../../../src/codec/index.js';
import { sha256 } from '../../../../src/crypto/sha256.js';
import { ValidationError } from '../../../../src/errors.js';
import {
  chainAccountStore,
  chainValidatorsStore,
  computeValidatorsHash,
  EMPTY_HASH,
  genesisInteroperabilitySchema,
  outboxRootStore,
  ownChainAccountStore,
  registeredNamesStore,
  terminatedStateStore,
  type ChainInfo,
  type GenesisInteroperability,
} from '../../../../src/modules/interoperability/index.js';
import { SidechainInteroperabilityModule, verifySidechainGenesis } from '../../../../src/modules/interoperability/sidechain/index.js';
import { TokenModule } from '../../../../src/modules/token/index.js';
import { ValidatorsModule } from '../../../../src/modules/validators/index.js';
import { ModuleHarness } from '../../../support/module-harness.js';

const SIDECHAIN_ID = Buffer.from('04000001', 'hex');
const TIMESTAMP = 1_795_640_082;
const chain = { chainID: SIDECHAIN_ID, timestamp: TIMESTAMP };

function mainchainInfo(overrides: Partial<ChainInfo['chainData']> = {}): ChainInfo {
  const activeValidators = [
    { blsKey: Buffer.alloc(48, 1), bftWeight: 10n },
    { blsKey: Buffer.alloc(48, 2), bftWeight: 10n },
  ];
  return {
    chainID: Buffer.from('04000000', 'hex'),
    chainData: {
      name: 'lisk_mainchain',
      lastCertificate: {
        height: 10,
        timestamp: TIMESTAMP - 30,
        stateRoot: sha256(Buffer.from('mainchain')),
        validatorsHash: computeValidatorsHash(activeValidators, 15n),
      },
      status: 1,
      ...overrides,
    },
    channelData: {
      inbox: { appendPath: [], size: 0, root: EMPTY_HASH },
      outbox: { appendPath: [], size: 0, root: EMPTY_HASH },
      partnerChainOutboxRoot: EMPTY_HASH,
      messageFeeTokenID: Buffer.from('0400000000000000', 'hex'),
      minReturnFeePerByte: 1000n,
    },
    chainValidators: { activeValidators, certificateThreshold: 15n },
  };
}

const unregistered = (): GenesisInteroperability => ({
  ownChainName: '',
  ownChainNonce: 0n,
  chainInfos: [],
  terminatedStateAccounts: [],
  terminatedOutboxAccounts: [],
});

const registered = (): GenesisInteroperability => ({
  ...unregistered(),
  ownChainName: 'sidechain_one',
  ownChainNonce: 3n,
  chainInfos: [mainchainInfo()],
});

const terminated = (initialized: boolean) => ({
  chainID: Buffer.from('04000078', 'hex'),
  terminatedStateAccount: {
    stateRoot: initialized ? sha256(Buffer.from('stale')) : EMPTY_HASH,
    mainchainStateRoot: initialized ? EMPTY_HASH : sha256(Buffer.from('mainchain')),
    initialized,
  },
});

function expectRefused(genesis: GenesisInteroperability, message: string): void {
  let error: unknown;
  try {
    verifySidechainGenesis(genesis, chain);
  } catch (thrown) {
    error = thrown;
  }
  expect(error).toBeInstanceOf(ValidationError);
  expect((error as ValidationError).errors).toEqual([message]);
}

describe('sidechain genesis checks', () => {
  it('accepts a chain not yet registered, and one registered with its mainchain', () => {
    expect(() => verifySidechainGenesis(unregistered(), chain)).not.toThrow();
    expect(() => verifySidechainGenesis(registered(), chain)).not.toThrow();
    expect(() => verifySidechainGenesis({ ...registered(), terminatedStateAccounts: [terminated(true)] }, chain)).not.toThrow();
    expect(() => verifySidechainGenesis({ ...registered(), terminatedStateAccounts: [terminated(false)] }, chain)).not.toThrow();
  });

  it('wants everything empty without chain infos', () => {
    expectRefused({ ...unregistered(), ownChainName: 'sidechain_one' }, 'ownChainName must be empty string, if chainInfos is empty..');
    expectRefused({ ...unregistered(), ownChainNonce: 1n }, 'ownChainNonce must be 0, if chainInfos is empty..');
    expectRefused(
      { ...unregistered(), terminatedStateAccounts: [terminated(true)] },
      'terminatedStateAccounts must be empty, if chainInfos is empty..',
    );
  });

  it('checks the own name and nonce of a registered chain', () => {
    expectRefused({ ...registered(), ownChainName: '' }, 'ownChainName.length must be inclusively between 1 and 32.');
    expectRefused(
      { ...registered(), ownChainName: 'Side' },
      'Invalid ownChainName property. It should contain only characters from the set [a-z0-9!@$&_.].',
    );
    expectRefused({ ...registered(), ownChainName: 'lisk_mainchain' }, 'ownChainName must be not equal to lisk_mainchain.');
    expectRefused({ ...registered(), ownChainNonce: 0n }, 'ownChainNonce must be > 0.');
  });

  it('wants exactly the mainchain as chain info', () => {
    const other = { ...mainchainInfo(), chainID: Buffer.from('04000002', 'hex') };
    expectRefused({ ...registered(), chainInfos: [mainchainInfo(), other] }, 'chainInfos must contain exactly one entry.');
    expectRefused({ ...registered(), chainInfos: [other] }, 'mainchainInfo.chainID must be equal to 04000000.');
    expectRefused(
      { ...registered(), chainInfos: [mainchainInfo({ name: 'mainchain' })] },
      'chainData.name must be equal to lisk_mainchain.',
    );
    expectRefused({ ...registered(), chainInfos: [mainchainInfo({ status: 2 })] }, 'chainData.status must be one of 0, 1.');
    const late = mainchainInfo();
    late.chainData.lastCertificate.timestamp = TIMESTAMP;
    expectRefused({ ...registered(), chainInfos: [late] }, 'chainData.lastCertificate.timestamp must be < header.timestamp.');
    const badValidators = mainchainInfo();
    badValidators.chainValidators.certificateThreshold = 16n;
    expectRefused({ ...registered(), chainInfos: [badValidators] }, 'Invalid validatorsHash from chainData.lastCertificate.');
  });

  it('checks the terminated state accounts', () => {
    const own = { ...terminated(true), chainID: SIDECHAIN_ID };
    expectRefused({ ...registered(), terminatedStateAccounts: [own] }, 'stateAccount.chainID must not be equal to OWN_CHAIN_ID.');
    expectRefused(
      { ...registered(), terminatedStateAccounts: [{ ...terminated(true), chainID: Buffer.from('04000000', 'hex') }] },
      'stateAccount.chainID must not be equal to 04000000.',
    );
    const both = terminated(true);
    both.terminatedStateAccount.mainchainStateRoot = sha256(Buffer.from('x'));
    expectRefused(
      { ...registered(), terminatedStateAccounts: [both] },
      `terminatedStateAccount.mainchainStateRoot must be equal to "${EMPTY_HASH.toString('hex')}", if initialized is true`,
    );
    const neither = terminated(false);
    neither.terminatedStateAccount.mainchainStateRoot = EMPTY_HASH;
    expectRefused(
      { ...registered(), terminatedStateAccounts: [neither] },
      `terminatedStateAccount.mainchainStateRoot must not be equal to "${EMPTY_HASH.toString('hex')}", if initialized is false.`,
    );
    expectRefused(
      { ...registered(), terminatedStateAccounts: [terminated(true), terminated(true)] },
      "terminatedStateAccounts don't hold unique chainID.",
    );
  });

  it('refuses terminated outbox accounts', () => {
    const outbox = {
      chainID: Buffer.from('04000078', 'hex'),
      terminatedOutboxAccount: { outboxRoot: EMPTY_HASH, outboxSize: 0, partnerChainInboxSize: 0 },
    };
    expectRefused({ ...registered(), terminatedOutboxAccounts: [outbox] }, 'terminatedOutboxAccounts must be empty.');
  });
});

describe('sidechain genesis state', () => {
  function runGenesis(genesis: GenesisInteroperability): ModuleHarness {
    const module = new SidechainInteroperabilityModule({ validators: new ValidatorsModule().method, token: new TokenModule().method });
    const harness = new ModuleHarness({ header: { height: 0, timestamp: TIMESTAMP } });
    harness.assets.set('interoperability', codec.encode(genesisInteroperabilitySchema, genesis));
    const context = { ...harness.genesisContext(), chainID: SIDECHAIN_ID };
    module.initGenesisState(context);
    return harness;
  }

  it('writes nothing for a chain not yet registered', () => {
    expect(runGenesis(unregistered()).state.changes()).toEqual([]);
  });

  it('writes the own chain account and the mainchain entries, but no registered names', () => {
    const genesis = { ...registered(), terminatedStateAccounts: [terminated(false)] };
    const { state } = runGenesis(genesis);
    const mainchainID = Buffer.from('04000000', 'hex');
    expect(ownChainAccountStore.get(state, Buffer.alloc(0))).toEqual({ name: 'sidechain_one', chainID: SIDECHAIN_ID, nonce: 3n });
    expect(chainAccountStore.get(state, mainchainID)).toEqual(genesis.chainInfos[0]?.chainData);
    expect(chainValidatorsStore.get(state, mainchainID)).toEqual(genesis.chainInfos[0]?.chainValidators);
    expect(outboxRootStore.get(state, mainchainID)).toEqual({ root: EMPTY_HASH });
    expect(terminatedStateStore.get(state, Buffer.from('04000078', 'hex'))).toEqual(terminated(false).terminatedStateAccount);
    expect(registeredNamesStore.has(state, Buffer.from('lisk_mainchain', 'ascii'))).toBe(false);
    expect(registeredNamesStore.has(state, Buffer.from('sidechain_one', 'ascii'))).toBe(false);
  });
});
