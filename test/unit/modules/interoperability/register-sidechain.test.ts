/**
 * registerSidechain (LIP 0043; lisk-sdk mainchain/commands/register_sidechain.ts): every verify
 * failure in lisk-sdk's order, and a successful registration with its state and events, checked
 * against bytes built independently here in the lisk-codec wire format.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { sha256 } from '../../../../src/crypto/sha256.js';
import { VerifyStatus, type Command, type VerificationResult } from '../../../../src/modules/base/index.js';
import {
  chainAccountStore,
  chainValidatorsStore,
  channelDataStore,
  EMPTY_HASH,
  outboxRootStore,
  ownChainAccountStore,
  registeredNamesStore,
  type SidechainRegistrationParams,
} from '../../../../src/modules/interoperability/index.js';
import { escrowKey, escrowStore } from '../../../../src/modules/token/index.js';
import {
  AVAILABLE_FEE_KEY,
  blockEvents,
  bytesField,
  fakeTransaction,
  LSK_TOKEN_ID,
  OWN_CHAIN_ID,
  setupAfterDevGenesis,
  varintField,
} from './setup.js';

const SIDECHAIN_ID = Buffer.from('04000001', 'hex');
const REGISTRATION_FEE = 1_000_000_000n;
const ESCROW_FEE = 5_000_000n; // dev config token.escrowAccountInitializationFee

function params(overrides: Partial<SidechainRegistrationParams> = {}): SidechainRegistrationParams {
  return {
    chainID: Buffer.from(SIDECHAIN_ID),
    name: 'sidechain_one',
    sidechainValidators: [
      { blsKey: Buffer.alloc(48, 1), bftWeight: 1n },
      { blsKey: Buffer.alloc(48, 2), bftWeight: 1n },
      { blsKey: Buffer.alloc(48, 3), bftWeight: 1n },
    ],
    sidechainCertificateThreshold: 2n,
    ...overrides,
  };
}

describe('registerSidechain', () => {
  let ctx: ReturnType<typeof setupAfterDevGenesis>;
  let command: Command<SidechainRegistrationParams>;
  beforeEach(() => {
    ctx = setupAfterDevGenesis();
    command = ctx.interoperability.commands.find((c) => c.name === 'registerSidechain') as Command<SidechainRegistrationParams>;
  });

  const verify = (p: SidechainRegistrationParams, fee = REGISTRATION_FEE) =>
    command.verify!(ctx.harness.commandVerifyContext(fakeTransaction(fee), p)) as VerificationResult;

  const execute = (p: SidechainRegistrationParams, availableFee: bigint) => {
    ctx.harness.contextStore.set(AVAILABLE_FEE_KEY, availableFee);
    return command.execute(ctx.harness.commandExecuteContext(fakeTransaction(REGISTRATION_FEE + ESCROW_FEE), p));
  };

  it('accepts valid params', () => {
    expect(verify(params())).toEqual({ status: VerifyStatus.OK });
  });

  it.each<[string, Partial<SidechainRegistrationParams>, bigint, string]>([
    [
      'a name outside [a-z0-9!@$&_.]',
      { name: 'Sidechain' },
      0n, // also an insufficient fee: the name is checked first
      'Invalid name property. It should contain only characters from the set [a-z0-9!@$&_.].',
    ],
    ['a registered name', { name: 'lisk_mainchain' }, REGISTRATION_FEE, 'Name already registered.'],
    ['another network', { chainID: Buffer.from('05000001', 'hex') }, REGISTRATION_FEE, 'Chain ID does not match the mainchain network.'],
    ['the mainchain ID', { chainID: Buffer.from(OWN_CHAIN_ID) }, REGISTRATION_FEE, 'Chain ID cannot be the mainchain chain ID.'],
    [
      'unordered BLS keys',
      {
        sidechainValidators: [
          { blsKey: Buffer.alloc(48, 2), bftWeight: 1n },
          { blsKey: Buffer.alloc(48, 1), bftWeight: 1n },
        ],
      },
      REGISTRATION_FEE,
      'Validators blsKeys must be unique and lexicographically ordered',
    ],
    [
      'duplicate BLS keys',
      {
        sidechainValidators: [
          { blsKey: Buffer.alloc(48, 1), bftWeight: 1n },
          { blsKey: Buffer.alloc(48, 1), bftWeight: 1n },
        ],
      },
      REGISTRATION_FEE,
      'Validators blsKeys must be unique and lexicographically ordered',
    ],
    [
      'a zero weight',
      { sidechainValidators: [{ blsKey: Buffer.alloc(48, 1), bftWeight: 0n }] },
      REGISTRATION_FEE,
      'Validator bft weight must be greater than 0',
    ],
    [
      'a total weight above uint64',
      {
        sidechainValidators: [
          { blsKey: Buffer.alloc(48, 1), bftWeight: 2n ** 63n },
          { blsKey: Buffer.alloc(48, 2), bftWeight: 2n ** 63n },
        ],
      },
      REGISTRATION_FEE,
      'Validator bft weight must not exceed 18446744073709551615',
    ],
    [
      'a threshold below total/3 + 1',
      { sidechainCertificateThreshold: 1n },
      REGISTRATION_FEE,
      'Certificate threshold below minimum bft weight ',
    ],
    [
      'a threshold above the total weight',
      { sidechainCertificateThreshold: 4n },
      REGISTRATION_FEE,
      'Certificate threshold above maximum bft weight',
    ],
    ['a fee below the registration fee', {}, REGISTRATION_FEE - 1n, 'Insufficient transaction fee.'],
  ])('refuses %s', (_label, overrides, fee, message) => {
    const result = verify(params(overrides), fee);
    expect(result.status).toBe(VerifyStatus.FAIL);
    expect(result.error?.message).toBe(message);
  });

  it('registers the sidechain: state, fees and events in lisk-sdk order', () => {
    const p = params();
    execute(p, REGISTRATION_FEE + ESCROW_FEE);
    const { state } = ctx.harness;

    const validatorsHashInput = Buffer.concat([
      ...p.sidechainValidators.map((v) => bytesField(1, Buffer.concat([bytesField(1, v.blsKey), varintField(2, v.bftWeight)]))),
      varintField(2, 2n),
    ]);
    const validatorsHash = sha256(validatorsHashInput);
    const chainAccountBytes = Buffer.concat([
      bytesField(1, 'sidechain_one'),
      bytesField(2, Buffer.concat([varintField(1, 0), varintField(2, 0), bytesField(3, EMPTY_HASH), bytesField(4, validatorsHash)])),
      varintField(3, 0),
    ]);
    const registrationParams = Buffer.concat([
      bytesField(1, 'sidechain_one'),
      bytesField(2, SIDECHAIN_ID),
      bytesField(3, LSK_TOKEN_ID),
      varintField(4, 1000n),
    ]);
    const ccm = Buffer.concat([
      bytesField(1, 'interoperability'),
      bytesField(2, 'registration'),
      varintField(3, 0n),
      varintField(4, 0n),
      bytesField(5, OWN_CHAIN_ID),
      bytesField(6, SIDECHAIN_ID),
      bytesField(7, registrationParams),
      varintField(8, 0),
    ]);
    const outboxRoot = sha256(Buffer.concat([Buffer.from([0]), sha256(ccm)]));
    const txTopic = `04${'11'.repeat(32)}`;

    expect(blockEvents(ctx.harness)).toEqual([
      {
        module: 'token',
        name: 'initializeEscrowAccount',
        data: Buffer.concat([
          bytesField(1, SIDECHAIN_ID),
          bytesField(2, LSK_TOKEN_ID),
          varintField(3, ESCROW_FEE),
          varintField(4, 0),
        ]).toString('hex'),
        topics: [txTopic, '04000001'],
      },
      {
        module: 'interoperability',
        name: 'chainAccountUpdated',
        data: chainAccountBytes.toString('hex'),
        topics: [txTopic, '04000001'],
      },
      {
        module: 'interoperability',
        name: 'ccmSendSuccess',
        data: bytesField(1, ccm).toString('hex'),
        topics: [txTopic, '04000000', '04000001', sha256(ccm).toString('hex')],
      },
    ]);

    expect(state.get(chainAccountStore.stateKey(SIDECHAIN_ID))?.toString('hex')).toBe(chainAccountBytes.toString('hex'));
    expect(channelDataStore.get(state, SIDECHAIN_ID)).toEqual({
      inbox: { appendPath: [], size: 0, root: EMPTY_HASH },
      outbox: { appendPath: [outboxRoot], size: 1, root: outboxRoot },
      partnerChainOutboxRoot: EMPTY_HASH,
      messageFeeTokenID: LSK_TOKEN_ID,
      minReturnFeePerByte: 1000n,
    });
    expect(chainValidatorsStore.get(state, SIDECHAIN_ID)).toEqual({
      activeValidators: p.sidechainValidators,
      certificateThreshold: 2n,
    });
    expect(outboxRootStore.get(state, SIDECHAIN_ID)).toEqual({ root: outboxRoot });
    expect(registeredNamesStore.get(state, Buffer.from('sidechain_one'))).toEqual({ chainID: SIDECHAIN_ID });
    expect(ownChainAccountStore.get(state, Buffer.alloc(0))).toEqual({ name: 'lisk_mainchain', chainID: OWN_CHAIN_ID, nonce: 1n });
    expect(escrowStore.get(state, escrowKey(SIDECHAIN_ID, LSK_TOKEN_ID))).toEqual({ amount: 0n });
    expect(ctx.harness.contextStore.get(AVAILABLE_FEE_KEY)).toBe(0n);
    // chain account, channel, validators, outbox root, name, own chain account, and the escrow
    expect(state.changes().length).toBe(7);

    // The chain ID and the name are now taken.
    expect(verify(params({ name: 'other' })).error?.message).toBe('Chain ID already registered.');
    expect(verify(params({ chainID: Buffer.from('04000002', 'hex') })).error?.message).toBe('Name already registered.');
  });

  it('fails when the transaction cannot pay the registration fee', () => {
    expect(() => execute(params(), REGISTRATION_FEE - 1n)).toThrow('Transaction ran out of fee.');
    expect(blockEvents(ctx.harness).map((event) => `${event.module}:${event.name}`)).toEqual(['fee:insufficientFee']);
  });

  it('fails when the transaction cannot also pay the escrow initialization fee', () => {
    expect(() => execute(params(), REGISTRATION_FEE + ESCROW_FEE - 1n)).toThrow('Transaction ran out of fee.');
  });

  it('sends the next registration with the next nonce', () => {
    execute(params(), REGISTRATION_FEE + ESCROW_FEE);
    execute(params({ chainID: Buffer.from('04000002', 'hex'), name: 'sidechain_two' }), REGISTRATION_FEE + ESCROW_FEE);
    expect(ownChainAccountStore.get(ctx.harness.state, Buffer.alloc(0))?.nonce).toBe(2n);
    const last = ctx.harness.events.events().at(-1)!;
    // ccm field 3 (nonce) = 1
    expect(last.data.includes(Buffer.from('1801', 'hex'))).toBe(true);
  });
});
