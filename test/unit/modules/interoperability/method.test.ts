/**
 * The interoperability method other modules call (LIP 0045 send, getMessageFeeTokenID, ...;
 * lisk-sdk BaseInteroperabilityMethod, MainchainInteroperabilityMethod and the internal
 * sendInternal / isLive / createTerminatedStateAccount).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { sha256 } from '../../../../src/crypto/sha256.js';
import { NotFoundError } from '../../../../src/errors.js';
import type { Command, MethodContext } from '../../../../src/modules/base/index.js';
import {
  chainAccountStore,
  channelDataStore,
  EMPTY_HASH,
  isLive,
  outboxRootStore,
  ownChainAccountStore,
  terminatedStateStore,
  validateCcmFormat,
  type CrossChainMessage,
  type SidechainRegistrationParams,
} from '../../../../src/modules/interoperability/index.js';
import { createTerminatedStateAccount } from '../../../../src/modules/interoperability/terminated-state.js';
import { escrowKey, escrowStore, userKey, userStore } from '../../../../src/modules/token/index.js';
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
const SENDER = Buffer.alloc(20, 0x33);
const PARAMS = Buffer.from('c0ffee', 'hex');
const LIVENESS_LIMIT = 2_419_200;
const TX_TOPIC = `04${'11'.repeat(32)}`;

function ccmBytes(ccm: {
  module: string;
  crossChainCommand: string;
  nonce: bigint;
  fee: bigint;
  receivingChainID: Buffer;
  params: Buffer;
}) {
  return Buffer.concat([
    bytesField(1, ccm.module),
    bytesField(2, ccm.crossChainCommand),
    varintField(3, ccm.nonce),
    varintField(4, ccm.fee),
    bytesField(5, OWN_CHAIN_ID),
    bytesField(6, ccm.receivingChainID),
    bytesField(7, ccm.params),
    varintField(8, 0),
  ]);
}

const leaf = (ccm: Buffer) => sha256(Buffer.concat([Buffer.from([0]), sha256(ccm)]));
const branch = (left: Buffer, right: Buffer) => sha256(Buffer.concat([Buffer.from([1]), left, right]));

describe('interoperability method', () => {
  let ctx: ReturnType<typeof setupAfterDevGenesis>;
  let methodContext: MethodContext;
  let now: number;

  beforeEach(() => {
    ctx = setupAfterDevGenesis();
    const command = ctx.interoperability.commands.find((c) => c.name === 'registerSidechain') as Command<SidechainRegistrationParams>;
    ctx.harness.contextStore.set(AVAILABLE_FEE_KEY, 2n * 10n ** 9n);
    command.execute(
      ctx.harness.commandExecuteContext(fakeTransaction(2n * 10n ** 9n), {
        chainID: SIDECHAIN_ID,
        name: 'one',
        sidechainValidators: [{ blsKey: Buffer.alloc(48, 1), bftWeight: 1n }],
        sidechainCertificateThreshold: 1n,
      }),
    );
    ctx.harness.commit();
    now = ctx.harness.header.timestamp;
    methodContext = ctx.harness.transactionExecuteContext(fakeTransaction(0n, 'transferCrossChain'));
    userStore.set(ctx.harness.state, userKey(SENDER, LSK_TOKEN_ID), { availableBalance: 100n, lockedBalances: [] });
  });

  const activate = (certificateTimestamp = now - 10, status = 1) => {
    const account = chainAccountStore.getOrThrow(ctx.harness.state, SIDECHAIN_ID);
    chainAccountStore.set(ctx.harness.state, SIDECHAIN_ID, {
      ...account,
      status,
      lastCertificate: { ...account.lastCertificate, timestamp: certificateTimestamp },
    });
  };

  const send = (overrides: { module?: string; receivingChainID?: Buffer; fee?: bigint; timestamp?: number } = {}) =>
    ctx.interoperability.method.send(
      methodContext,
      SENDER,
      overrides.module ?? 'token',
      'transfer',
      overrides.receivingChainID ?? SIDECHAIN_ID,
      overrides.fee ?? 0n,
      PARAMS,
      'timestamp' in overrides ? overrides.timestamp : now,
    );

  /** The non-revertible ccmSentFailed event lisk-sdk emits before each send refusal. */
  const sentFailed = (code: number, receivingChainID = SIDECHAIN_ID, module = 'token', fee = 0n) => ({
    module: 'interoperability',
    name: 'ccmSentFailed',
    data: Buffer.concat([
      bytesField(1, ccmBytes({ module, crossChainCommand: 'transfer', nonce: 1n, fee, receivingChainID, params: Buffer.alloc(0) })),
      varintField(2, code),
    ]).toString('hex'),
    topics: [TX_TOPIC],
  });

  it('sends to an active live chain: outbox appended, nonce incremented, ccmSendSuccess', () => {
    activate();
    send();
    const ccm = ccmBytes({
      module: 'token',
      crossChainCommand: 'transfer',
      nonce: 1n,
      fee: 0n,
      receivingChainID: SIDECHAIN_ID,
      params: PARAMS,
    });
    expect(blockEvents(ctx.harness)).toEqual([
      {
        module: 'interoperability',
        name: 'ccmSendSuccess',
        data: bytesField(1, ccm).toString('hex'),
        topics: [TX_TOPIC, '04000000', '04000001', sha256(ccm).toString('hex')],
      },
    ]);
    // The registration CCM was message 0 of this channel, this one is message 1.
    const channel = channelDataStore.getOrThrow(ctx.harness.state, SIDECHAIN_ID);
    expect(channel.outbox.size).toBe(2);
    expect(outboxRootStore.get(ctx.harness.state, SIDECHAIN_ID)).toEqual({ root: channel.outbox.root });
    expect(ownChainAccountStore.get(ctx.harness.state, Buffer.alloc(0))?.nonce).toBe(2n);
  });

  it('builds the outbox as a regular Merkle tree of H(ccm) leaves', () => {
    activate();
    const before = channelDataStore.getOrThrow(ctx.harness.state, SIDECHAIN_ID).outbox;
    send();
    const ccm = ccmBytes({
      module: 'token',
      crossChainCommand: 'transfer',
      nonce: 1n,
      fee: 0n,
      receivingChainID: SIDECHAIN_ID,
      params: PARAMS,
    });
    const after = channelDataStore.getOrThrow(ctx.harness.state, SIDECHAIN_ID).outbox;
    expect(before.size).toBe(1);
    expect(after.root).toEqual(branch(before.root, leaf(ccm)));
    expect(after.appendPath).toEqual([after.root]);
  });

  it('pays the message fee from the sender into the escrow of the receiving chain', () => {
    activate();
    send({ fee: 40n });
    expect(userStore.get(ctx.harness.state, userKey(SENDER, LSK_TOKEN_ID))?.availableBalance).toBe(60n);
    expect(escrowStore.get(ctx.harness.state, escrowKey(SIDECHAIN_ID, LSK_TOKEN_ID))?.amount).toBe(40n);
  });

  it('refuses when the message fee cannot be paid (code 11)', () => {
    activate();
    expect(() => send({ fee: 101n })).toThrow('Failed to pay message fee.');
    expect(blockEvents(ctx.harness)).toEqual([sentFailed(11, SIDECHAIN_ID, 'token', 101n)]);
  });

  it('refuses a chain that is only registered (code 1), after charging the fee like lisk-sdk', () => {
    expect(() => send({ fee: 1n })).toThrow('Receiving chain is not active.');
    expect(blockEvents(ctx.harness)).toEqual([sentFailed(1, SIDECHAIN_ID, 'token', 1n)]);
    // lisk-sdk pays the fee before testing the status; the failed command's rollback undoes it.
    expect(userStore.get(ctx.harness.state, userKey(SENDER, LSK_TOKEN_ID))?.availableBalance).toBe(99n);
    // The failure event is non-revertible: it survives that rollback.
    ctx.harness.events.restore(0);
    expect(blockEvents(ctx.harness)).toEqual([sentFailed(1, SIDECHAIN_ID, 'token', 1n)]);
  });

  it('refuses unknown, terminated and expired chains as not live (code 1)', () => {
    const unknown = Buffer.from('04000009', 'hex');
    expect(() => send({ receivingChainID: unknown })).toThrow('Receiving chain is not live.');
    activate(now - 10, 2);
    expect(() => send()).toThrow('Receiving chain is not live.');
    activate(now - LIVENESS_LIMIT - 1);
    expect(() => send()).toThrow('Receiving chain is not live.');
    expect(blockEvents(ctx.harness)).toEqual([sentFailed(1, unknown), sentFailed(1), sentFailed(1)]);
    activate(now - LIVENESS_LIMIT);
    expect(() => send()).not.toThrow();
  });

  it('refuses the own chain (code 14) and a malformed message (code 13)', () => {
    expect(() => send({ receivingChainID: OWN_CHAIN_ID })).toThrow('Sending chain cannot be the receiving chain.');
    expect(() => send({ module: 'to-ken' })).toThrow('Invalid CCM format.');
    expect(blockEvents(ctx.harness)).toEqual([sentFailed(14, OWN_CHAIN_ID), sentFailed(13, SIDECHAIN_ID, 'to-ken')]);
  });

  it('requires the block timestamp on the mainchain', () => {
    activate();
    expect(() => send({ timestamp: undefined })).toThrow('Timestamp must be provided in mainchain context.');
    expect(blockEvents(ctx.harness)).toEqual([]);
  });

  it('validates the CCM format like lisk-sdk validateFormat', () => {
    const ccm: CrossChainMessage = {
      module: 'token',
      crossChainCommand: 'transfer',
      nonce: 0n,
      fee: 0n,
      sendingChainID: OWN_CHAIN_ID,
      receivingChainID: SIDECHAIN_ID,
      params: Buffer.alloc(10_000),
      status: 0,
    };
    expect(() => validateCcmFormat(ccm)).not.toThrow();
    expect(() => validateCcmFormat({ ...ccm, params: Buffer.alloc(10_300) })).toThrow('Cross-chain message size is larger than 10240.');
    expect(() => validateCcmFormat({ ...ccm, crossChainCommand: 'trans_fer' })).toThrow(
      'Cross-chain message crossChainCommand name must be alphanumeric.',
    );
    expect(() => validateCcmFormat({ ...ccm, module: '' })).toThrow();
  });

  it('reads accounts, channels and fee settings, throwing NotFoundError for missing entries', () => {
    const { method } = ctx.interoperability;
    expect(method.getOwnChainAccount(ctx.harness)).toEqual({ name: 'lisk_mainchain', chainID: OWN_CHAIN_ID, nonce: 1n });
    expect(method.getChainAccount(ctx.harness, SIDECHAIN_ID).name).toBe('one');
    expect(method.getChannel(ctx.harness, SIDECHAIN_ID).outbox.size).toBe(1);
    expect(method.getMessageFeeTokenID(ctx.harness, SIDECHAIN_ID)).toEqual(LSK_TOKEN_ID);
    expect(method.getMinReturnFeePerByte(ctx.harness, SIDECHAIN_ID)).toBe(1000n);
    expect(() => method.getChainAccount(ctx.harness, Buffer.from('04000009', 'hex'))).toThrow(NotFoundError);
    expect(() => method.getTerminatedStateAccount(ctx.harness, SIDECHAIN_ID)).toThrow(NotFoundError);
    expect(() => method.getMessageFeeTokenID(ctx.harness, OWN_CHAIN_ID)).toThrow('Channel with own chain account does not exist.');
    expect(() => method.getMessageFeeTokenID(ctx.harness, Buffer.from('04000009', 'hex'))).toThrow('Channel does not exist.');
  });

  it('isChannelActive needs an active, live chain other than the own one', () => {
    const { method } = ctx.interoperability;
    expect(method.isChannelActive(ctx.harness, SIDECHAIN_ID, now)).toBe(false);
    activate();
    expect(method.isChannelActive(ctx.harness, SIDECHAIN_ID, now)).toBe(true);
    expect(method.isChannelActive(ctx.harness, SIDECHAIN_ID, now + LIVENESS_LIMIT)).toBe(false);
    expect(method.isChannelActive(ctx.harness, OWN_CHAIN_ID, now)).toBe(false);
    expect(isLive(ctx.harness, OWN_CHAIN_ID, now)).toBe(true);
  });

  it('terminateChain and error send without a timestamp, which the mainchain refuses (as lisk-sdk)', () => {
    const { method } = ctx.interoperability;
    activate();
    expect(() => method.terminateChain(methodContext, SIDECHAIN_ID)).toThrow('Timestamp must be provided in mainchain context.');
    const ccm: CrossChainMessage = {
      module: 'token',
      crossChainCommand: 'transfer',
      nonce: 0n,
      fee: 0n,
      sendingChainID: SIDECHAIN_ID,
      receivingChainID: OWN_CHAIN_ID,
      params: PARAMS,
      status: 0,
    };
    expect(() => method.error(methodContext, ccm, 63)).toThrow(
      'Error codes from 0 to 63 (inclusive) are reserved to the Interoperability module.',
    );
    expect(() => method.error(methodContext, ccm, 64)).toThrow('Timestamp must be provided in mainchain context.');
    // An already terminated chain is left alone.
    terminatedStateStore.set(ctx.harness.state, SIDECHAIN_ID, { stateRoot: EMPTY_HASH, mainchainStateRoot: EMPTY_HASH, initialized: true });
    expect(() => method.terminateChain(methodContext, SIDECHAIN_ID)).not.toThrow();
  });

  it('createTerminatedStateAccount terminates a chain and logs its previous account', () => {
    activate();
    const account = chainAccountStore.getOrThrow(ctx.harness.state, SIDECHAIN_ID);
    createTerminatedStateAccount(methodContext, SIDECHAIN_ID);
    expect(chainAccountStore.get(ctx.harness.state, SIDECHAIN_ID)?.status).toBe(2);
    expect(outboxRootStore.has(ctx.harness.state, SIDECHAIN_ID)).toBe(false);
    const terminated = { stateRoot: account.lastCertificate.stateRoot, mainchainStateRoot: EMPTY_HASH, initialized: true };
    expect(terminatedStateStore.get(ctx.harness.state, SIDECHAIN_ID)).toEqual(terminated);
    const events = blockEvents(ctx.harness);
    expect(events.map((event) => [event.name, event.topics])).toEqual([
      ['chainAccountUpdated', [TX_TOPIC, '04000001']],
      ['terminatedStateCreated', [TX_TOPIC, '04000001']],
    ]);
    // status field 3 = 1: the account as it was before termination.
    expect(events[0]!.data.endsWith('1801')).toBe(true);
    expect(events[1]!.data).toBe(
      Buffer.concat([bytesField(1, terminated.stateRoot), bytesField(2, EMPTY_HASH), varintField(3, true)]).toString('hex'),
    );
    expect(() => createTerminatedStateAccount(methodContext, Buffer.from('04000009', 'hex'))).toThrow(
      'Chain to be terminated is not valid.',
    );
  });
});
