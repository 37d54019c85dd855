/**
 * The token and fee modules' cross-chain hooks and the `transferCrossChain` cross-chain command
 * replay real messages of the interop-dev pair: every event they emit matches lisk-sdk 6.1's
 * bytes and topics, and balances and escrows move as lisk-sdk moved them.
 */
import { describe, expect, it } from 'vitest';
import { escrowKey, escrowStore } from '../../../../src/modules/token/stores.js';
import {
  MAINCHAIN_49,
  MAINCHAIN_71,
  MAINCHAIN_91,
  MAINCHAIN_115,
  MAINCHAIN_127,
  MAINCHAIN_181,
  SIDECHAIN_22,
  SIDECHAIN_40,
  SIDECHAIN_60,
} from './cross-chain-cases.js';
import {
  CrossChainBench,
  decodeCcm,
  LSK,
  MAINCHAIN_ID,
  MAINCHAIN_RELAYER,
  SIDECHAIN_ID,
  SIDECHAIN_RELAYER,
  SIDECHAIN_TOKEN,
} from './cross-chain-kit.js';
import type { CrossChainTransferMessageParams } from '../../../../src/modules/token/index.js';
import { codec } from '../../../../src/codec/index.js';
import { crossChainTransferMessageParamsSchema } from '../../../../src/modules/token/index.js';

const LSK_UNIT = 100_000_000n;
const RELAYER_START = 50n * LSK_UNIT;
const ESCROW_START = 2_000n * LSK_UNIT;

function transferOf(ccmHex: string): CrossChainTransferMessageParams {
  return codec.decode<CrossChainTransferMessageParams>(crossChainTransferMessageParamsSchema, decodeCcm(ccmHex).params);
}

/** The mainchain with the sidechain's channel, an LSK escrow for it and a funded relayer. */
function mainchain(): CrossChainBench {
  const bench = new CrossChainBench(MAINCHAIN_ID, [SIDECHAIN_ID]);
  bench.setBalance(MAINCHAIN_RELAYER, LSK, RELAYER_START);
  escrowStore.set(bench.state, escrowKey(SIDECHAIN_ID, LSK), { amount: ESCROW_START });
  return bench;
}

/** The sidechain with the mainchain's channel and a relayer holding LSK. */
function sidechain(): CrossChainBench {
  const bench = new CrossChainBench(SIDECHAIN_ID, [MAINCHAIN_ID]);
  bench.setBalance(SIDECHAIN_RELAYER, LSK, RELAYER_START);
  return bench;
}

function escrow(bench: CrossChainBench, chainID: Buffer, tokenID: Buffer): bigint | undefined {
  return escrowStore.get(bench.state, escrowKey(chainID, tokenID))?.amount;
}

describe('received messages on the mainchain', () => {
  it('height 49: a bounced LSK transfer (status 4, fee 0) pays the sender back out of the escrow', () => {
    const bench = mainchain();
    const ccm = decodeCcm(MAINCHAIN_49.ccm);
    const transfer = transferOf(MAINCHAIN_49.ccm);
    bench.setBalance(transfer.senderAddress, LSK, 7n);

    expect(bench.apply(ccm, MAINCHAIN_49.txID, MAINCHAIN_RELAYER)).toEqual({});
    expect(bench.eventsJSON()).toEqual(MAINCHAIN_49.events);
    expect(bench.balance(transfer.senderAddress, LSK)).toBe(7n + transfer.amount);
    expect(bench.balance(transfer.recipientAddress, LSK)).toBeUndefined();
    expect(escrow(bench, SIDECHAIN_ID, LSK)).toBe(ESCROW_START - transfer.amount);
    expect(bench.balance(MAINCHAIN_RELAYER, LSK)).toBe(RELAYER_START);
  });

  it('height 71: LSK back from the sidechain with a message fee that the relayer keeps', () => {
    const bench = mainchain();
    const ccm = decodeCcm(MAINCHAIN_71.ccm);
    const transfer = transferOf(MAINCHAIN_71.ccm);
    bench.setBalance(transfer.recipientAddress, LSK, 1n);

    expect(bench.apply(ccm, MAINCHAIN_71.txID, MAINCHAIN_RELAYER)).toEqual({});
    expect(bench.eventsJSON()).toEqual(MAINCHAIN_71.events);
    expect(bench.balance(transfer.recipientAddress, LSK)).toBe(1n + transfer.amount);
    expect(escrow(bench, SIDECHAIN_ID, LSK)).toBe(ESCROW_START - transfer.amount - ccm.fee);
    expect(bench.balance(MAINCHAIN_RELAYER, LSK)).toBe(RELAYER_START + ccm.fee);
    expect(bench.contextStore.has('CONTEXT_STORE_KEY_AVAILABLE_CCM_FEE')).toBe(false);
  });

  it('height 91: a sidechain token the mainchain does not support fails with a kept ccmTransfer error', () => {
    const bench = mainchain();
    const ccm = decodeCcm(MAINCHAIN_91.ccm);
    const transfer = transferOf(MAINCHAIN_91.ccm);
    expect(transfer.tokenID).toEqual(SIDECHAIN_TOKEN);

    const { executeError } = bench.apply(ccm, MAINCHAIN_91.txID, MAINCHAIN_RELAYER);
    expect((executeError as Error).message).toBe('tokenID 0400000100000000 is not supported');
    expect(bench.eventsJSON()).toEqual(MAINCHAIN_91.events);
    expect(bench.balance(transfer.recipientAddress, SIDECHAIN_TOKEN)).toBeUndefined();
    // The fee is paid from the LSK escrow for the sidechain; nothing was spent from it.
    expect(escrow(bench, SIDECHAIN_ID, LSK)).toBe(ESCROW_START - ccm.fee);
    expect(bench.balance(MAINCHAIN_RELAYER, LSK)).toBe(RELAYER_START + ccm.fee);
  });

  it('height 115: an unsupported token with no message fee (discarded afterwards by interoperability)', () => {
    const bench = mainchain();
    const ccm = decodeCcm(MAINCHAIN_115.ccm);
    const { executeError } = bench.apply(ccm, MAINCHAIN_115.txID, MAINCHAIN_RELAYER);
    expect((executeError as Error).message).toBe('tokenID 0400000100000000 is not supported');
    expect(bench.eventsJSON()).toEqual(MAINCHAIN_115.events);
    expect(escrow(bench, SIDECHAIN_ID, LSK)).toBe(ESCROW_START);
  });
});

describe('forwarded messages on the mainchain', () => {
  it('height 127: a message to an unknown chain fails, so its fee goes from the escrow to the relayer', () => {
    const bench = mainchain();
    const ccm = decodeCcm(MAINCHAIN_127.ccm);
    bench.token.crossChainMethod.beforeCrossChainMessageForwarding(
      bench.forwardingContext(ccm, MAINCHAIN_127.txID, MAINCHAIN_RELAYER, true),
    );
    expect(bench.eventsJSON()).toEqual(MAINCHAIN_127.events);
    expect(escrow(bench, SIDECHAIN_ID, LSK)).toBe(ESCROW_START - ccm.fee);
    expect(escrow(bench, ccm.receivingChainID, LSK)).toBeUndefined();
    expect(bench.balance(MAINCHAIN_RELAYER, LSK)).toBe(RELAYER_START + ccm.fee);
  });

  it('height 181: a message forwarded to another sidechain without a fee only reports', () => {
    const bench = mainchain();
    const ccm = decodeCcm(MAINCHAIN_181.ccm);
    const before = [...bench.state.changes()];
    bench.token.crossChainMethod.beforeCrossChainMessageForwarding(
      bench.forwardingContext(ccm, MAINCHAIN_181.txID, MAINCHAIN_RELAYER, false),
    );
    expect(bench.eventsJSON()).toEqual(MAINCHAIN_181.events);
    expect([...bench.state.changes()]).toEqual(before);
  });

  it('a forwarded fee moves from the sending chain escrow to the receiving chain escrow', () => {
    const bench = mainchain();
    const ccm = { ...decodeCcm(MAINCHAIN_181.ccm), fee: 3_000n };
    bench.token.crossChainMethod.beforeCrossChainMessageForwarding(
      bench.forwardingContext(ccm, MAINCHAIN_181.txID, MAINCHAIN_RELAYER, false),
    );
    expect(escrow(bench, SIDECHAIN_ID, LSK)).toBe(ESCROW_START - 3_000n);
    expect(escrow(bench, ccm.receivingChainID, LSK)).toBe(3_000n);
    expect(bench.balance(MAINCHAIN_RELAYER, LSK)).toBe(RELAYER_START);
  });
});

describe('received messages on the sidechain', () => {
  it('height 22: LSK for a new account, whose initialization fee comes out of the message fee', () => {
    const bench = sidechain();
    const ccm = decodeCcm(SIDECHAIN_22.ccm);
    const transfer = transferOf(SIDECHAIN_22.ccm);
    expect(bench.balance(transfer.recipientAddress, LSK)).toBeUndefined();

    expect(bench.apply(ccm, SIDECHAIN_22.txID, SIDECHAIN_RELAYER)).toEqual({});
    expect(bench.eventsJSON()).toEqual(SIDECHAIN_22.events);
    expect(bench.balance(transfer.recipientAddress, LSK)).toBe(transfer.amount);
    // LSK is not the sidechain's token: no escrow is involved.
    expect(escrow(bench, MAINCHAIN_ID, LSK)).toBeUndefined();
    const initializationFee = 5_000_000n;
    expect(bench.balance(SIDECHAIN_RELAYER, LSK)).toBe(RELAYER_START + ccm.fee - initializationFee);
  });

  it('height 40: a message fee below the account initialization fee fails the transfer and is burnt', () => {
    const bench = sidechain();
    const ccm = decodeCcm(SIDECHAIN_40.ccm);
    const transfer = transferOf(SIDECHAIN_40.ccm);
    const { executeError } = bench.apply(ccm, SIDECHAIN_40.txID, SIDECHAIN_RELAYER);
    expect((executeError as Error).message).toBe('Cross-chain message ran out of fee.');
    expect(bench.eventsJSON()).toEqual(SIDECHAIN_40.events);
    expect(bench.balance(transfer.recipientAddress, LSK)).toBeUndefined();
    expect(bench.balance(SIDECHAIN_RELAYER, LSK)).toBe(RELAYER_START);
  });

  it('height 60: no message fee at all for the new account', () => {
    const bench = sidechain();
    const ccm = decodeCcm(SIDECHAIN_60.ccm);
    const { executeError } = bench.apply(ccm, SIDECHAIN_60.txID, SIDECHAIN_RELAYER);
    expect((executeError as Error).message).toBe('Cross-chain message ran out of fee.');
    expect(bench.eventsJSON()).toEqual(SIDECHAIN_60.events);
    expect(bench.balance(SIDECHAIN_RELAYER, LSK)).toBe(RELAYER_START);
  });
});
