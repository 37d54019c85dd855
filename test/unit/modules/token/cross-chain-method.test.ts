/**
 * TokenCrossChainMethod's failure paths and state recovery (lisk-sdk token/cc_method.ts), built on
 * the interop-dev pair's real messages and its recoverState transaction: which check fails with
 * which message, which non-revertible event it leaves, and what stays untouched.
 */
import { describe, expect, it } from 'vitest';
import { CONTEXT_STORE_KEY_AVAILABLE_FEE } from '../../../../src/modules/fee/constants.js';
import { codec } from '../../../../src/codec/index.js';
import { escrowKey, escrowStore, userKey, userStore, userStoreSchema, type UserAccount } from '../../../../src/modules/token/stores.js';
import { NotFoundError } from '../../../../src/errors.js';
import * as kit from './cross-chain-kit.js';

const { CASES, decodeCcm, LSK, MAINCHAIN_RELAYER, SIDECHAIN_ID } = kit;
const MAINCHAIN_71 = CASES.mainchain71;
const MAINCHAIN_127 = CASES.mainchain127;
const MAINCHAIN_186_RECOVERY = CASES.mainchain186Recovery;
const PHANTOM_ID = Buffer.from('04000077', 'hex');

function mainchainWithEscrow(amount: bigint): kit.CrossChainBench {
  return kit.mainchainBench(0n, amount);
}

/** The fixture event with its trailing `result` varint replaced (every result here is below 128). */
function withResult(data: string, result: number): string {
  return `${data.slice(0, -2)}${result.toString(16).padStart(2, '0')}`;
}

describe('verifyCrossChainMessage', () => {
  const ccm = decodeCcm(MAINCHAIN_71.ccm);

  it('needs the escrow for the sending chain to cover a fee paid in this chain token', () => {
    const bench = mainchainWithEscrow(ccm.fee - 1n);
    const context = bench.context(ccm, MAINCHAIN_71.txID, MAINCHAIN_RELAYER);
    expect(() => bench.token.crossChainMethod.verifyCrossChainMessage(context)).toThrow('Insufficient escrow amount.');
    escrowStore.set(bench.state, escrowKey(SIDECHAIN_ID, LSK), { amount: ccm.fee });
    expect(() => bench.token.crossChainMethod.verifyCrossChainMessage(context)).not.toThrow();
    expect(bench.eventsJSON()).toEqual([]);
  });

  it('checks nothing when the fee token belongs to another chain', () => {
    const bench = kit.sidechainBench(0n);
    const sidechain22 = CASES.sidechain22;
    const context = bench.context(decodeCcm(sidechain22.ccm), sidechain22.txID, kit.SIDECHAIN_RELAYER);
    expect(() => bench.token.crossChainMethod.verifyCrossChainMessage(context)).not.toThrow();
  });
});

describe('beforeCrossChainCommandExecute', () => {
  const ccm = decodeCcm(MAINCHAIN_71.ccm);
  const success = MAINCHAIN_71.events[0];

  it('fails with a kept beforeCCCExecution error when the escrow cannot pay the fee', () => {
    const bench = mainchainWithEscrow(ccm.fee - 1n);
    const snapshot = bench.events.snapshot();
    const context = bench.context(ccm, MAINCHAIN_71.txID, MAINCHAIN_RELAYER);
    expect(() => bench.token.crossChainMethod.beforeCrossChainCommandExecute(context)).toThrow(
      'Insufficient balance in the sending chain for the message fee.',
    );
    bench.events.restore(snapshot);
    // INSUFFICIENT_ESCROW_BALANCE = 13; the error survives the restore of the message's events.
    expect(bench.eventsJSON()).toEqual([{ ...success, data: withResult(success?.data ?? '', 13) }]);
    expect(escrowStore.get(bench.state, escrowKey(SIDECHAIN_ID, LSK))).toEqual({ amount: ccm.fee - 1n });
    expect(bench.balance(MAINCHAIN_RELAYER, LSK)).toBe(0n);
  });

  it('needs an account of the fee token for the relayer', () => {
    const bench = mainchainWithEscrow(ccm.fee);
    userStore.del(bench.state, userKey(MAINCHAIN_RELAYER, LSK));
    const context = bench.context(ccm, MAINCHAIN_71.txID, MAINCHAIN_RELAYER);
    expect(() => bench.token.crossChainMethod.beforeCrossChainCommandExecute(context)).toThrow(NotFoundError);
  });

  it('writes the escrow back even when the fee is 0, creating a missing entry', () => {
    const bench = mainchainWithEscrow(0n);
    escrowStore.del(bench.state, escrowKey(SIDECHAIN_ID, LSK));
    bench.token.crossChainMethod.beforeCrossChainCommandExecute(bench.context({ ...ccm, fee: 0n }, MAINCHAIN_71.txID, MAINCHAIN_RELAYER));
    expect(escrowStore.get(bench.state, escrowKey(SIDECHAIN_ID, LSK))).toEqual({ amount: 0n });
  });
});

describe('beforeCrossChainMessageForwarding', () => {
  const ccm = decodeCcm(MAINCHAIN_127.ccm);
  const success = MAINCHAIN_127.events[0];

  it('fails with a kept beforeCCMForwarding error when the sending chain escrow cannot pay the fee', () => {
    const bench = mainchainWithEscrow(ccm.fee - 1n);
    const context = bench.forwardingContext(ccm, MAINCHAIN_127.txID, MAINCHAIN_RELAYER, false);
    expect(() => bench.token.crossChainMethod.beforeCrossChainMessageForwarding(context)).toThrow(
      'Insufficient balance in the sending chain for the message fee.',
    );
    expect(bench.eventsJSON()).toEqual([{ ...success, data: withResult(success?.data ?? '', 13) }]);
    expect(escrowStore.get(bench.state, escrowKey(ccm.receivingChainID, LSK))).toBeUndefined();
  });

  it('only forwards messages whose fee is paid in LSK', () => {
    const bench = mainchainWithEscrow(ccm.fee);
    bench.interoperability.getMessageFeeTokenIDFromCCM = () => kit.SIDECHAIN_TOKEN;
    const context = bench.forwardingContext(ccm, MAINCHAIN_127.txID, MAINCHAIN_RELAYER, false);
    expect(() => bench.token.crossChainMethod.beforeCrossChainMessageForwarding(context)).toThrow('Message fee token should be LSK.');
    expect(bench.eventsJSON()).toEqual([]);
  });
});

describe('recover', () => {
  const recovery = MAINCHAIN_186_RECOVERY;
  const address = Buffer.from(recovery.storeKey.slice(0, 40), 'hex');
  const recovered = 3_000_000_000n;
  const finalEscrow = 2_505_000_000n;

  /** The mainchain before height 186: the phantom escrow and the transaction's fee left for account creation. */
  function beforeRecovery(escrowAmount = finalEscrow + recovered): kit.CrossChainBench {
    const bench = kit.mainchainBench(0n, undefined);
    bench.setEscrow(PHANTOM_ID, LSK, escrowAmount);
    // fee 5378000 minus the minimum fee of its 377 bytes.
    bench.contextStore.set(CONTEXT_STORE_KEY_AVAILABLE_FEE, 5_378_000n - 377_000n);
    return bench;
  }

  it.each([
    ['mainchain height 186: LSK', () => kit.mainchainBench(0n, undefined), CASES.mainchain186Recovery],
    ['sidechain height 198: a sidechain token', () => kit.sidechainBench(0n), CASES.sidechain198Recovery],
  ] as const)('%s: pays the proven account out of the escrow for the terminated chain', (_label, makeBench, entry) => {
    const bench = makeBench();
    const terminatedChainID = Buffer.from(entry.terminatedChainID, 'hex');
    const tokenID = Buffer.from(entry.storeKey.slice(40), 'hex');
    const amount = codec.decode<UserAccount>(userStoreSchema, Buffer.from(entry.storeValue, 'hex')).availableBalance;
    const escrowLeft = codec.decode<{ amount: bigint }>(escrowStore.schema, Buffer.from(entry.finalEscrowValue, 'hex')).amount;
    bench.setEscrow(terminatedChainID, tokenID, escrowLeft + amount);
    bench.contextStore.set(CONTEXT_STORE_KEY_AVAILABLE_FEE, 5_378_000n - 377_000n);

    bench.token.crossChainMethod.recover(bench.recoverContext(entry.txID, entry));
    expect(bench.eventsJSON()).toEqual(entry.events);
    const owner = Buffer.from(entry.storeKey.slice(0, 40), 'hex');
    expect(bench.state.get(userStore.stateKey(userKey(owner, tokenID)))?.toString('hex')).toBe(entry.finalUserValue);
    expect(bench.state.get(escrowStore.stateKey(escrowKey(terminatedChainID, tokenID)))?.toString('hex')).toBe(entry.finalEscrowValue);
    expect(bench.contextStore.get(CONTEXT_STORE_KEY_AVAILABLE_FEE)).toBe(1_000n);
  });

  it('adds to an existing account without charging an initialization fee', () => {
    const bench = beforeRecovery();
    bench.setBalance(address, LSK, 5n);
    bench.token.crossChainMethod.recover(bench.recoverContext(recovery.txID, recovery));
    expect(bench.balance(address, LSK)).toBe(5n + recovered);
    expect(bench.eventsJSON()).toEqual(recovery.events.slice(1));
  });

  it.each([
    ['another substore', { substorePrefix: '8000' }],
    ['a key of the wrong length', { storeKey: `${recovery.storeKey}00` }],
    ['a value that is not a user account', { storeValue: '08' }],
  ])('refuses %s with RECOVER_FAIL_INVALID_INPUTS and an empty token ID', (_label, change) => {
    const bench = beforeRecovery();
    expect(() => bench.token.crossChainMethod.recover(bench.recoverContext(recovery.txID, { ...recovery, ...change }))).toThrow(
      'Invalid arguments.',
    );
    // terminatedChainID 04000077, tokenID empty, amount 0, result 6.
    expect(bench.eventsJSON()).toEqual([{ ...recovery.events[1], data: '0a0404000077120018002006' }]);
    expect(escrowStore.get(bench.state, escrowKey(PHANTOM_ID, LSK))).toEqual({ amount: finalEscrow + recovered });
  });

  it('refuses an amount above the escrow, or a token of another chain, with RECOVER_FAIL_INSUFFICIENT_ESCROW', () => {
    const short = beforeRecovery(recovered - 1n);
    expect(() => short.token.crossChainMethod.recover(short.recoverContext(recovery.txID, recovery))).toThrow(
      'Insufficient escrow amount.',
    );
    const recoverEvent = recovery.events[1];
    expect(short.eventsJSON()).toEqual([{ ...recoverEvent, data: withResult(recoverEvent?.data ?? '', 7) }]);
    expect(short.balance(address, LSK)).toBeUndefined();

    const foreign = beforeRecovery();
    const storeKey = `${recovery.storeKey.slice(0, 40)}${kit.SIDECHAIN_TOKEN.toString('hex')}`;
    expect(() => foreign.token.crossChainMethod.recover(foreign.recoverContext(recovery.txID, { ...recovery, storeKey }))).toThrow(
      'Insufficient escrow amount.',
    );
  });
});
