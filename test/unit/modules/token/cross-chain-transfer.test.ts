/**
 * The `transferCrossChain` cross-chain command (lisk-sdk token/cc_commands/cc_transfer.ts): its
 * verify checks in lisk-sdk's order and the execute paths the fixture pair does not exercise,
 * starting from the pair's real messages.
 */
import { describe, expect, it } from 'vitest';
import { codec } from '../../../../src/codec/index.js';
import type { CrossChainMessage } from '../../../../src/modules/base/index.js';
import { crossChainTransferMessageParamsSchema, type CrossChainTransferMessageParams } from '../../../../src/modules/token/index.js';
import { NotFoundError } from '../../../../src/errors.js';
import * as kit from './cross-chain-kit.js';

const { CASES, decodeCcm, LSK, MAINCHAIN_RELAYER, SIDECHAIN_ID, SIDECHAIN_TOKEN, transferOf } = kit;

const MAINCHAIN_71 = CASES.mainchain71;
const MAINCHAIN_91 = CASES.mainchain91;
const ccm71 = decodeCcm(MAINCHAIN_71.ccm);
const transfer71 = transferOf(ccm71);

function withTransfer(ccm: CrossChainMessage, change: Partial<CrossChainTransferMessageParams>): CrossChainMessage {
  return { ...ccm, params: codec.encode(crossChainTransferMessageParamsSchema, { ...transferOf(ccm), ...change }) };
}

function mainchain(escrowAmount: bigint | undefined): kit.CrossChainBench {
  return kit.mainchainBench(0n, escrowAmount);
}

function verify(bench: kit.CrossChainBench, ccm: CrossChainMessage): void {
  const command = bench.token.crossChainCommands.find((entry) => entry.name === 'transferCrossChain');
  command?.verify?.(bench.context(ccm, MAINCHAIN_71.txID, MAINCHAIN_RELAYER));
}

describe('transferCrossChain cross-chain command: verify', () => {
  it('is the only cross-chain command of the token module', () => {
    const bench = mainchain(0n);
    expect(bench.token.crossChainCommands.map((command) => command.name)).toEqual(['transferCrossChain']);
    expect(bench.token.crossChainCommands[0]?.schema).toBe(crossChainTransferMessageParamsSchema);
  });

  it('accepts height 71 when the escrow covers the amount, and refuses it one beddows short', () => {
    expect(() => verify(mainchain(transfer71.amount), ccm71)).not.toThrow();
    expect(() => verify(mainchain(transfer71.amount - 1n), ccm71)).toThrow('Insufficient balance in escrow account.');
  });

  it('needs no escrow for a token of the sending chain', () => {
    expect(() => verify(mainchain(undefined), decodeCcm(MAINCHAIN_91.ccm))).not.toThrow();
  });

  it('refuses statuses above the reserved range, then tokens of a third chain', () => {
    const bench = mainchain(transfer71.amount);
    expect(() => verify(bench, { ...ccm71, status: 63 })).not.toThrow();
    expect(() => verify(bench, { ...ccm71, status: 64 })).toThrow('Invalid CCM status code.');
    const thirdChainToken = withTransfer(ccm71, { tokenID: Buffer.from('0400000200000000', 'hex') });
    expect(() => verify(bench, thirdChainToken)).toThrow('Token must be native to either the sending or the receiving chain.');
    // Status is checked first.
    expect(() => verify(bench, { ...thirdChainToken, status: 64 })).toThrow('Invalid CCM status code.');
  });

  it('refuses params that do not decode', () => {
    expect(() => verify(mainchain(transfer71.amount), { ...ccm71, params: Buffer.from('0a', 'hex') })).toThrow();
  });
});

describe('transferCrossChain cross-chain command: execute', () => {
  it('credits a sidechain token once the mainchain supports the tokens of that chain', () => {
    const bench = mainchain(10n * 100_000_000n);
    const ccm = decodeCcm(MAINCHAIN_91.ccm);
    const transfer = transferOf(ccm);
    bench.token.method.supportAllTokensFromChainID(bench.context(ccm, MAINCHAIN_91.txID, MAINCHAIN_RELAYER).methodContext, SIDECHAIN_ID);
    bench.setBalance(transfer.recipientAddress, SIDECHAIN_TOKEN, 0n);
    const eventsBefore = bench.eventsJSON().length;

    expect(bench.apply(ccm, MAINCHAIN_91.txID, MAINCHAIN_RELAYER)).toEqual({});
    expect(bench.balance(transfer.recipientAddress, SIDECHAIN_TOKEN)).toBe(transfer.amount);
    const ccmTransfer = bench
      .eventsJSON()
      .slice(eventsBefore)
      .find((event) => event.name === 'ccmTransfer');
    // The fixture's failed event (result 4 = TOKEN_NOT_SUPPORTED) with result 0 instead.
    expect(ccmTransfer).toEqual({ ...MAINCHAIN_91.events[2], data: `${MAINCHAIN_91.events[2]?.data.slice(0, -2)}00` });
  });

  it('needs an escrow entry for a native token (lisk-sdk reads it with get, not getOrDefault)', () => {
    const bench = mainchain(undefined);
    const command = bench.token.crossChainCommands[0];
    const context = bench.context(ccm71, MAINCHAIN_71.txID, MAINCHAIN_RELAYER);
    bench.setBalance(transfer71.recipientAddress, LSK, 0n);
    expect(() => command?.execute({ ...context, params: transfer71 })).toThrow(NotFoundError);
  });

  it('refuses an amount above the escrow at execution too', () => {
    const bench = mainchain(transfer71.amount - 1n);
    const command = bench.token.crossChainCommands[0];
    bench.setBalance(transfer71.recipientAddress, LSK, 0n);
    const context = bench.context(ccm71, MAINCHAIN_71.txID, MAINCHAIN_RELAYER);
    expect(() => command?.execute({ ...context, params: transfer71 })).toThrow('Insufficient balance in escrow account.');
  });
});
