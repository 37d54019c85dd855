/**
 * The token and fee modules' cross-chain hooks and the `transferCrossChain` cross-chain command
 * replay real messages of the interop-dev pair: every event they emit matches lisk-sdk 6.1's
 * bytes and topics, and balances and escrows move as lisk-sdk moved them.
 */
import { describe, expect, it } from 'vitest';
import {
  CASES,
  decodeCcm,
  LSK,
  MAINCHAIN_RELAYER,
  mainchainBench,
  SIDECHAIN_ID,
  SIDECHAIN_RELAYER,
  SIDECHAIN_TOKEN,
  sidechainBench,
  transferOf,
  type CrossChainBench,
  type MessageCase,
} from './cross-chain-kit.js';

const RELAYER_START = 50n * 100_000_000n;
const ESCROW_START = 2_000n * 100_000_000n;

/**
 * Applies one message of the pair on `bench` (after `prepare`, given its transfer), checks the
 * events against lisk-sdk's and returns what the checks of each case need.
 */
function replay(bench: CrossChainBench, message: MessageCase, prepare: (recipient: Buffer, sender: Buffer) => void = () => {}) {
  const ccm = decodeCcm(message.ccm);
  const transfer = transferOf(ccm);
  prepare(transfer.recipientAddress, transfer.senderAddress);
  const relayer = bench.chainID.equals(SIDECHAIN_ID) ? SIDECHAIN_RELAYER : MAINCHAIN_RELAYER;
  const { executeError } = bench.apply(ccm, message.txID, relayer);
  expect(bench.eventsJSON()).toEqual(message.events);
  return { ccm, transfer, error: (executeError as Error | undefined)?.message };
}

describe('received messages on the mainchain', () => {
  it('height 49: a bounced LSK transfer (status 4, fee 0) pays the sender back out of the escrow', () => {
    const bench = mainchainBench(RELAYER_START, ESCROW_START);
    const { transfer, error } = replay(bench, CASES.mainchain49, (_recipient, sender) => bench.setBalance(sender, LSK, 7n));
    expect(error).toBeUndefined();
    expect(bench.balance(transfer.senderAddress, LSK)).toBe(7n + transfer.amount);
    expect(bench.balance(transfer.recipientAddress, LSK)).toBeUndefined();
    expect(bench.escrow(SIDECHAIN_ID, LSK)).toBe(ESCROW_START - transfer.amount);
    expect(bench.balance(MAINCHAIN_RELAYER, LSK)).toBe(RELAYER_START);
  });

  it('height 71: LSK back from the sidechain with a message fee that the relayer keeps', () => {
    const bench = mainchainBench(RELAYER_START, ESCROW_START);
    const { ccm, transfer, error } = replay(bench, CASES.mainchain71, (recipient) => bench.setBalance(recipient, LSK, 1n));
    expect(error).toBeUndefined();
    expect(bench.balance(transfer.recipientAddress, LSK)).toBe(1n + transfer.amount);
    expect(bench.escrow(SIDECHAIN_ID, LSK)).toBe(ESCROW_START - transfer.amount - ccm.fee);
    expect(bench.balance(MAINCHAIN_RELAYER, LSK)).toBe(RELAYER_START + ccm.fee);
    expect(bench.contextStore.has('CONTEXT_STORE_KEY_AVAILABLE_CCM_FEE')).toBe(false);
  });

  it('height 91: a sidechain token the mainchain does not support fails with a kept ccmTransfer error', () => {
    const bench = mainchainBench(RELAYER_START, ESCROW_START);
    const { ccm, transfer, error } = replay(bench, CASES.mainchain91);
    expect(transfer.tokenID).toEqual(SIDECHAIN_TOKEN);
    expect(error).toBe('tokenID 0400000100000000 is not supported');
    expect(bench.balance(transfer.recipientAddress, SIDECHAIN_TOKEN)).toBeUndefined();
    // The fee is paid from the LSK escrow for the sidechain; nothing else left it.
    expect(bench.escrow(SIDECHAIN_ID, LSK)).toBe(ESCROW_START - ccm.fee);
    expect(bench.balance(MAINCHAIN_RELAYER, LSK)).toBe(RELAYER_START + ccm.fee);
  });

  it('height 115: an unsupported token with no message fee (discarded afterwards by interoperability)', () => {
    const bench = mainchainBench(RELAYER_START, ESCROW_START);
    expect(replay(bench, CASES.mainchain115).error).toBe('tokenID 0400000100000000 is not supported');
    expect(bench.escrow(SIDECHAIN_ID, LSK)).toBe(ESCROW_START);
  });
});

describe('forwarded messages on the mainchain', () => {
  function forward(bench: CrossChainBench, message: MessageCase, ccmFailed: boolean, fee?: bigint) {
    const ccm = { ...decodeCcm(message.ccm), ...(fee === undefined ? {} : { fee }) };
    bench.token.crossChainMethod.beforeCrossChainMessageForwarding(
      bench.forwardingContext(ccm, message.txID, MAINCHAIN_RELAYER, ccmFailed),
    );
    return ccm;
  }

  it('height 127: a message to an unknown chain fails, so its fee goes from the escrow to the relayer', () => {
    const bench = mainchainBench(RELAYER_START, ESCROW_START);
    const ccm = forward(bench, CASES.mainchain127, true);
    expect(bench.eventsJSON()).toEqual(CASES.mainchain127.events);
    expect(bench.escrow(SIDECHAIN_ID, LSK)).toBe(ESCROW_START - ccm.fee);
    expect(bench.escrow(ccm.receivingChainID, LSK)).toBeUndefined();
    expect(bench.balance(MAINCHAIN_RELAYER, LSK)).toBe(RELAYER_START + ccm.fee);
  });

  it('height 181: a message forwarded to another sidechain without a fee only reports', () => {
    const bench = mainchainBench(RELAYER_START, ESCROW_START);
    const before = bench.state.changes();
    forward(bench, CASES.mainchain181, false);
    expect(bench.eventsJSON()).toEqual(CASES.mainchain181.events);
    expect(bench.state.changes()).toEqual(before);
  });

  it('a forwarded fee moves from the sending chain escrow to the receiving chain escrow', () => {
    const bench = mainchainBench(RELAYER_START, ESCROW_START);
    const ccm = forward(bench, CASES.mainchain181, false, 3_000n);
    expect(bench.escrow(SIDECHAIN_ID, LSK)).toBe(ESCROW_START - 3_000n);
    expect(bench.escrow(ccm.receivingChainID, LSK)).toBe(3_000n);
    expect(bench.balance(MAINCHAIN_RELAYER, LSK)).toBe(RELAYER_START);
  });
});

describe('received messages on the sidechain', () => {
  const initializationFee = 5_000_000n;

  it('height 22: LSK for a new account, whose initialization fee comes out of the message fee', () => {
    const bench = sidechainBench(RELAYER_START);
    const { ccm, transfer, error } = replay(bench, CASES.sidechain22, (recipient) => expect(bench.balance(recipient, LSK)).toBeUndefined());
    expect(error).toBeUndefined();
    expect(bench.balance(transfer.recipientAddress, LSK)).toBe(transfer.amount);
    // LSK is not the sidechain's token: no escrow is involved.
    expect(bench.escrow(bench.chainID, LSK)).toBeUndefined();
    expect(bench.balance(SIDECHAIN_RELAYER, LSK)).toBe(RELAYER_START + ccm.fee - initializationFee);
  });

  it.each([
    ['height 40: a message fee below the account initialization fee', 'sidechain40'],
    ['height 60: no message fee at all', 'sidechain60'],
  ] as const)('%s fails the transfer and burns the whole fee', (_label, name) => {
    const bench = sidechainBench(RELAYER_START);
    const { transfer, error } = replay(bench, CASES[name]);
    expect(error).toBe('Cross-chain message ran out of fee.');
    expect(bench.balance(transfer.recipientAddress, LSK)).toBeUndefined();
    expect(bench.balance(SIDECHAIN_RELAYER, LSK)).toBe(RELAYER_START);
  });
});
