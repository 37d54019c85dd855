/**
 * Mainchain genesis of the interoperability module: every check of lisk-sdk
 * MainchainInteroperabilityModule.initGenesisState (LIP 0045 "Mainchain" genesis rules) in its
 * order, the state processGenesisState writes, and finalizeGenesisState's escrow check.
 */
import { describe, expect, it } from 'vitest';
import { codec } from '../../../../src/codec/index.js';
import { sha256 } from '../../../../src/crypto/sha256.js';
import { ValidationError } from '../../../../src/errors.js';
import {
  chainAccountStore,
  chainValidatorsStore,
  channelDataStore,
  computeValidatorsHash,
  EMPTY_HASH,
  genesisInteroperabilitySchema,
  outboxRootStore,
  ownChainAccountStore,
  registeredNamesStore,
  terminatedOutboxStore,
  terminatedStateStore,
  type ChainInfo,
  type GenesisInteroperability,
} from '../../../../src/modules/interoperability/index.js';
import { escrowKey, escrowStore } from '../../../../src/modules/token/index.js';
import { ModuleHarness } from '../../../support/module-harness.js';
import { createModules, GENESIS_TIMESTAMP, LSK_TOKEN_ID } from './setup.js';

const blsKey = (byte: number) => Buffer.alloc(48, byte);

function chainInfo(chainIDHex: string, name: string, status = 1): ChainInfo {
  const activeValidators = [
    { blsKey: blsKey(1), bftWeight: 10n },
    { blsKey: blsKey(2), bftWeight: 10n },
  ];
  const certificateThreshold = 15n;
  return {
    chainID: Buffer.from(chainIDHex, 'hex'),
    chainData: {
      name,
      lastCertificate: {
        height: 100,
        timestamp: GENESIS_TIMESTAMP - 100,
        stateRoot: sha256(Buffer.from(name)),
        validatorsHash: computeValidatorsHash(activeValidators, certificateThreshold),
      },
      status,
    },
    channelData: {
      inbox: { appendPath: [], size: 0, root: EMPTY_HASH },
      outbox: { appendPath: [sha256(Buffer.from('leaf'))], size: 1, root: sha256(Buffer.from(`${name} outbox`)) },
      partnerChainOutboxRoot: EMPTY_HASH,
      messageFeeTokenID: Buffer.from(LSK_TOKEN_ID),
      minReturnFeePerByte: 1000n,
    },
    chainValidators: { activeValidators, certificateThreshold },
  };
}

/** A valid mainchain asset with an active chain and a terminated one (with its terminated accounts). */
function validGenesis(): GenesisInteroperability {
  const terminated = chainInfo('04000002', 'gone', 2);
  return {
    ownChainName: 'lisk_mainchain',
    ownChainNonce: 5n,
    chainInfos: [chainInfo('04000001', 'alive'), terminated],
    terminatedStateAccounts: [
      {
        chainID: Buffer.from('04000002', 'hex'),
        terminatedStateAccount: {
          stateRoot: terminated.chainData.lastCertificate.stateRoot,
          mainchainStateRoot: EMPTY_HASH,
          initialized: true,
        },
      },
    ],
    terminatedOutboxAccounts: [
      {
        chainID: Buffer.from('04000002', 'hex'),
        terminatedOutboxAccount: { outboxRoot: sha256(Buffer.from('o')), outboxSize: 3, partnerChainInboxSize: 2 },
      },
    ],
  };
}

function runGenesis(genesis: GenesisInteroperability | Buffer | undefined) {
  const { interoperability } = createModules();
  const harness = new ModuleHarness({ header: { height: 0, timestamp: GENESIS_TIMESTAMP } });
  if (genesis !== undefined) {
    harness.assets.set('interoperability', Buffer.isBuffer(genesis) ? genesis : codec.encode(genesisInteroperabilitySchema, genesis));
  }
  interoperability.initGenesisState(harness.genesisContext());
  return { harness, interoperability };
}

function genesisError(mutate: (genesis: GenesisInteroperability) => void): string {
  const genesis = validGenesis();
  mutate(genesis);
  try {
    runGenesis(genesis);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as Error).message;
  }
  throw new Error('genesis was accepted');
}

describe('interoperability mainchain genesis', () => {
  it('writes nothing without an interoperability asset', () => {
    const { harness } = runGenesis(undefined);
    expect(harness.state.changes()).toEqual([]);
  });

  it('stores own chain account, chains, channels, validators, outbox roots, terminated accounts and names', () => {
    const genesis = validGenesis();
    const { harness } = runGenesis(genesis);
    const [alive, gone] = genesis.chainInfos as [ChainInfo, ChainInfo];
    const state = harness.state;
    expect(ownChainAccountStore.get(state, Buffer.alloc(0))).toEqual({
      name: 'lisk_mainchain',
      chainID: Buffer.from('04000000', 'hex'),
      nonce: 5n,
    });
    for (const info of [alive, gone]) {
      expect(chainAccountStore.get(state, info.chainID)).toEqual(info.chainData);
      expect(channelDataStore.get(state, info.chainID)).toEqual(info.channelData);
      expect(chainValidatorsStore.get(state, info.chainID)).toEqual(info.chainValidators);
      expect(registeredNamesStore.get(state, Buffer.from(info.chainData.name))).toEqual({ chainID: info.chainID });
    }
    expect(outboxRootStore.get(state, alive.chainID)).toEqual({ root: alive.channelData.outbox.root });
    // No outbox root for a terminated chain.
    expect(outboxRootStore.has(state, gone.chainID)).toBe(false);
    expect(terminatedStateStore.get(state, gone.chainID)).toEqual(genesis.terminatedStateAccounts[0]!.terminatedStateAccount);
    expect(terminatedOutboxStore.get(state, gone.chainID)).toEqual(genesis.terminatedOutboxAccounts[0]!.terminatedOutboxAccount);
    expect(registeredNamesStore.get(state, Buffer.from('lisk_mainchain'))).toEqual({ chainID: Buffer.from('04000000', 'hex') });
    expect(state.changes().length).toBe(1 + 2 * 4 + 1 + 1 + 1 + 1);
  });

  it('refuses bytes that do not decode or do not satisfy the schema', () => {
    expect(() => runGenesis(Buffer.from('0a', 'hex'))).toThrow();
    const tooLong = codec.encode(genesisInteroperabilitySchema, { ...validGenesis(), ownChainName: 'x'.repeat(33) });
    expect(() => runGenesis(tooLong)).toThrow(ValidationError);
  });

  it.each<[string, (genesis: GenesisInteroperability) => void, string]>([
    ['own chain name', (g) => void (g.ownChainName = 'lisk_sidechain'), 'ownChainName must be equal to lisk_mainchain.'],
    [
      'nonce without chains',
      (g) => {
        g.chainInfos = [];
        g.terminatedStateAccounts = [];
        g.terminatedOutboxAccounts = [];
      },
      'ownChainNonce must be 0 if chainInfos is empty.',
    ],
    ['zero nonce with chains', (g) => void (g.ownChainNonce = 0n), 'ownChainNonce must be positive if chainInfos is not empty.'],
    [
      'duplicate chain IDs',
      (g) => void (g.chainInfos = [chainInfo('04000001', 'a'), chainInfo('04000001', 'b')]),
      "chainInfos doesn't hold unique chainID.",
    ],
    ['unordered chain IDs', (g) => void g.chainInfos.reverse(), 'chainInfos is not ordered lexicographically by chainID.'],
    ['duplicate names', (g) => void (g.chainInfos[1]!.chainData.name = 'alive'), 'chainData.name must be pairwise distinct.'],
    ['mainchain ID', (g) => void (g.chainInfos[0] = chainInfo('04000000', 'alive')), 'chainInfo.chainID must not be equal to 04000000.'],
    ['other network', (g) => void (g.chainInfos = [chainInfo('05000001', 'alive')]), 'chainInfo.chainID[0] must be equal to 4.'],
    [
      'certificate not older than genesis',
      (g) => void (g.chainInfos[0]!.chainData.lastCertificate.timestamp = GENESIS_TIMESTAMP),
      'chainData.lastCertificate.timestamp must be less than header.timestamp.',
    ],
    [
      'invalid name',
      (g) => void (g.chainInfos[0]!.chainData.name = 'Alive'),
      'Invalid chainData.name property. It should contain only characters from the set [a-z0-9!@$&_.].',
    ],
    ['unknown status', (g) => void (g.chainInfos[0]!.chainData.status = 3), 'chainData.status must be one of 0, 1, 2'],
    [
      'terminated chain without terminated state',
      (g) => {
        g.terminatedStateAccounts = [];
        g.terminatedOutboxAccounts = [];
      },
      'For each chainInfo with status terminated there should be a corresponding entry in terminatedStateAccounts.',
    ],
    [
      'message fee token',
      (g) => void (g.chainInfos[0]!.channelData.messageFeeTokenID = Buffer.from('0400000100000000', 'hex')),
      'channelData.messageFeeTokenID is not equal to Token.getTokenIDLSK().',
    ],
    [
      'min return fee',
      (g) => void (g.chainInfos[0]!.channelData.minReturnFeePerByte = 999n),
      'channelData.minReturnFeePerByte is not equal to 1000.',
    ],
    [
      'unordered validators',
      (g) => void g.chainInfos[0]!.chainValidators.activeValidators.reverse(),
      'activeValidators must be ordered lexicographically by blsKey property.',
    ],
    [
      'duplicate validators',
      (g) => void (g.chainInfos[0]!.chainValidators.activeValidators[1]!.blsKey = blsKey(1)),
      'All blsKey properties must be pairwise distinct.',
    ],
    ['zero weight', (g) => void (g.chainInfos[0]!.chainValidators.activeValidators[1]!.bftWeight = 0n), 'validator.bftWeight must be > 0.'],
    [
      'threshold too small',
      (g) => void (g.chainInfos[0]!.chainValidators.certificateThreshold = 6n),
      'Invalid certificateThreshold input.',
    ],
    [
      'threshold too large',
      (g) => void (g.chainInfos[0]!.chainValidators.certificateThreshold = 21n),
      'Invalid certificateThreshold input.',
    ],
    [
      'validators hash',
      (g) => void (g.chainInfos[0]!.chainValidators.certificateThreshold = 20n),
      'Invalid validatorsHash from chainData.lastCertificate.',
    ],
    [
      'terminated state for an active chain',
      (g) => void (g.chainInfos[1]!.chainData.status = 1),
      'For each terminatedStateAccount there should be a corresponding chainInfo at TERMINATED state.',
    ],
    [
      'terminated state root',
      (g) => void (g.terminatedStateAccounts[0]!.terminatedStateAccount.stateRoot = EMPTY_HASH),
      "stateAccount.stateRoot doesn't match chainInfo.chainData.lastCertificate.stateRoot.",
    ],
    [
      'terminated mainchain state root',
      (g) => void (g.terminatedStateAccounts[0]!.terminatedStateAccount.mainchainStateRoot = Buffer.alloc(32)),
      `stateAccount.mainchainStateRoot is not equal to ${EMPTY_HASH.toString('hex')}.`,
    ],
    [
      'terminated state not initialized',
      (g) => void (g.terminatedStateAccounts[0]!.terminatedStateAccount.initialized = false),
      'stateAccount is not initialized.',
    ],
    [
      'terminated outbox without terminated state',
      (g) => void (g.terminatedOutboxAccounts[0]!.chainID = Buffer.from('04000003', 'hex')),
      'outboxAccount with chainID: 04000003 must have a corresponding entry in terminatedStateAccounts.',
    ],
    [
      'duplicate terminated outboxes',
      (g) => void g.terminatedOutboxAccounts.push(g.terminatedOutboxAccounts[0]!),
      'terminatedOutboxAccounts do not hold unique chainID.',
    ],
  ])('refuses %s', (_label, mutate, message) => {
    expect(genesisError(mutate)).toBe(message);
  });

  it('checks terminated state accounts for uniqueness before order', () => {
    expect(
      genesisError((g) => {
        g.terminatedStateAccounts.push(g.terminatedStateAccounts[0]!);
      }),
    ).toBe("terminatedStateAccounts don't hold unique chainID.");
  });
});

describe('interoperability finalizeGenesisState', () => {
  it('requires the escrow account of every channel paying in the native token', () => {
    const genesis = validGenesis();
    const { harness, interoperability } = runGenesis(genesis);
    expect(() => interoperability.finalizeGenesisState(harness.genesisContext('finalize'))).toThrow(
      "Corresponding escrow account doesn't exist.",
    );
    for (const info of genesis.chainInfos) {
      escrowStore.set(harness.state, escrowKey(info.chainID, LSK_TOKEN_ID), { amount: 0n });
    }
    expect(() => interoperability.finalizeGenesisState(harness.genesisContext('finalize'))).not.toThrow();
  });

  it('fails without an interoperability asset, as lisk-sdk decodes it unconditionally', () => {
    const { harness, interoperability } = runGenesis(undefined);
    expect(() => interoperability.finalizeGenesisState(harness.genesisContext('finalize'))).toThrow(
      'The genesis block has no interoperability asset.',
    );
  });
});
