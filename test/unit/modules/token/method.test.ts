/**
 * TokenMethod (lisk-sdk token/method.ts; LIP 0051 "Methods"): state changes, events (name, data
 * bytes, topics, non-revertible errors) and the order of checks of every method.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { codec } from '../../../../src/codec/index.js';
import { encodeLisk32 } from '../../../../src/crypto/index.js';
import { CONTEXT_STORE_KEY_AVAILABLE_FEE } from '../../../../src/modules/fee/constants.js';
import {
  ALL_SUPPORTED_TOKENS_KEY,
  crossChainTransferMessageParamsSchema,
  escrowKey,
  escrowStore,
  lockEventDataSchema,
  supplyStore,
  supportedTokensStore,
  TokenEventResult,
  type TokenModule,
  userKey,
  userStore,
  type TokenMethod,
} from '../../../../src/modules/token/index.js';
import { EventQueue, type MethodContext } from '../../../../src/modules/base/index.js';
import { ModuleHarness } from '../../../support/module-harness.js';
import { createTokenAndFee, eventsJSON, LSK_TOKEN_ID, methodContext, RecordingInteroperability } from './token-test-kit.js';

const ALICE = Buffer.alloc(20, 0x01);
const BOB = Buffer.alloc(20, 0x02);
const OWN_TOKEN_2 = Buffer.from('0400000000000002', 'hex');
const FOREIGN_CHAIN = Buffer.from('04000001', 'hex');
const FOREIGN_TOKEN = Buffer.from('0400000100000000', 'hex');

let token: TokenModule;
let method: TokenMethod;
let harness: ModuleHarness;
let ctx: MethodContext;

function setAccount(
  address: Buffer,
  availableBalance: bigint,
  lockedBalances: { module: string; amount: bigint }[] = [],
  tokenID = LSK_TOKEN_ID,
) {
  userStore.set(harness.state, userKey(address, tokenID), { availableBalance, lockedBalances });
}

function account(address: Buffer, tokenID = LSK_TOKEN_ID) {
  return userStore.get(harness.state, userKey(address, tokenID));
}

function names(): string[] {
  return eventsJSON(harness).map((event) => event.name);
}

/** The `result` field is the last varint of every token result event. */
function lastResult(): number {
  const events = harness.events.events();
  const data = (events[events.length - 1] as { data: Buffer }).data;
  return data[data.length - 1] as number;
}

beforeEach(() => {
  ({ token } = createTokenAndFee());
  method = token.method;
  harness = new ModuleHarness();
  ctx = methodContext(harness);
});

describe('token IDs', () => {
  it('isNativeToken and getTokenIDLSK follow the own chain ID 04000000', () => {
    expect(method.isNativeToken(LSK_TOKEN_ID)).toBe(true);
    expect(method.isNativeToken(OWN_TOKEN_2)).toBe(true);
    expect(method.isNativeToken(FOREIGN_TOKEN)).toBe(false);
    expect(method.getTokenIDLSK().toString('hex')).toBe('0400000000000000');
    expect(() => method.isNativeToken(Buffer.alloc(7))).toThrow('Token ID must have length 8');
  });
});

describe('lock / unlock', () => {
  it('lock moves available to locked, merges per module, sorts modules and emits lock with the address topic', () => {
    setAccount(ALICE, 100n);
    method.lock(ctx, ALICE, 'pos', LSK_TOKEN_ID, 10n);
    method.lock(ctx, ALICE, 'fee', LSK_TOKEN_ID, 5n);
    method.lock(ctx, ALICE, 'pos', LSK_TOKEN_ID, 1n);
    expect(account(ALICE)).toEqual({
      availableBalance: 84n,
      lockedBalances: [
        { module: 'fee', amount: 5n },
        { module: 'pos', amount: 11n },
      ],
    });
    expect(method.getLockedAmount(ctx, ALICE, LSK_TOKEN_ID, 'pos')).toBe(11n);
    expect(method.getLockedAmount(ctx, ALICE, LSK_TOKEN_ID, 'auth')).toBe(0n);
    expect(method.getLockedAmount(ctx, BOB, LSK_TOKEN_ID, 'pos')).toBe(0n);
    const [first] = eventsJSON(harness);
    expect(first).toEqual({
      module: 'token',
      name: 'lock',
      data: codec
        .encode(lockEventDataSchema, { address: ALICE, module: 'pos', tokenID: LSK_TOKEN_ID, amount: 10n, result: 0 })
        .toString('hex'),
      topics: [ALICE.toString('hex')],
    });
  });

  it('the lock event bytes match the dev chain (fee lock at height 2, event 38)', () => {
    const sender = Buffer.from('b9c9cc02462e7f3f24774c89fbd144f6672f86d7', 'hex');
    setAccount(sender, 200_000_000n);
    method.lock(ctx, sender, 'fee', LSK_TOKEN_ID, 164_000n);
    expect(eventsJSON(harness)[0]?.data).toBe('0a14b9c9cc02462e7f3f24774c89fbd144f6672f86d712036665651a08040000000000000020a0810a2800');
  });

  it('lock failures emit a non-revertible lock error (result 1) and throw', () => {
    setAccount(ALICE, 5n);
    const snapshot = harness.events.snapshot();
    expect(() => method.lock(ctx, ALICE, 'pos', LSK_TOKEN_ID, 6n)).toThrow(
      `Address ${encodeLisk32(ALICE)} does not have sufficient balance for amount 6`,
    );
    expect(lastResult()).toBe(TokenEventResult.FAIL_INSUFFICIENT_BALANCE);
    expect(() => method.lock(ctx, BOB, 'pos', LSK_TOKEN_ID, 1n)).toThrow(/does not exist/);
    expect(names()).toEqual(['lock', 'lock']);
    harness.events.restore(snapshot);
    expect(names()).toEqual(['lock', 'lock']);
    expect(account(ALICE)).toEqual({ availableBalance: 5n, lockedBalances: [] });
  });

  it('amounts of 0 or less do nothing', () => {
    method.lock(ctx, BOB, 'pos', LSK_TOKEN_ID, 0n);
    method.unlock(ctx, BOB, 'pos', LSK_TOKEN_ID, -1n);
    method.mint(ctx, BOB, LSK_TOKEN_ID, 0n);
    method.burn(ctx, BOB, LSK_TOKEN_ID, 0n);
    method.transfer(ctx, BOB, ALICE, LSK_TOKEN_ID, 0n);
    expect(harness.events.events()).toEqual([]);
    expect(harness.state.changes()).toEqual([]);
  });

  it('unlock returns the amount, drops an emptied lock and emits unlock', () => {
    setAccount(ALICE, 0n, [
      { module: 'fee', amount: 3n },
      { module: 'pos', amount: 4n },
    ]);
    method.unlock(ctx, ALICE, 'fee', LSK_TOKEN_ID, 3n);
    method.unlock(ctx, ALICE, 'pos', LSK_TOKEN_ID, 1n);
    expect(account(ALICE)).toEqual({ availableBalance: 4n, lockedBalances: [{ module: 'pos', amount: 3n }] });
    expect(names()).toEqual(['unlock', 'unlock']);
  });

  it('unlock failures: no account (result 1), no lock of the module or too little locked (result 5)', () => {
    expect(() => method.unlock(ctx, BOB, 'pos', LSK_TOKEN_ID, 1n)).toThrow(/does not exist/);
    expect(lastResult()).toBe(TokenEventResult.FAIL_INSUFFICIENT_BALANCE);
    setAccount(ALICE, 0n, [{ module: 'pos', amount: 4n }]);
    expect(() => method.unlock(ctx, ALICE, 'fee', LSK_TOKEN_ID, 1n)).toThrow(
      `Address ${encodeLisk32(ALICE)} does not have locked balance for module fee`,
    );
    expect(lastResult()).toBe(TokenEventResult.INSUFFICIENT_LOCKED_AMOUNT);
    expect(() => method.unlock(ctx, ALICE, 'pos', LSK_TOKEN_ID, 5n)).toThrow(
      `Address ${encodeLisk32(ALICE)} does not have sufficient locked balance for amount 5 for module pos`,
    );
    expect(lastResult()).toBe(TokenEventResult.INSUFFICIENT_LOCKED_AMOUNT);
  });
});

describe('mint / burn / initializeToken', () => {
  it('mint creates the account (paying the init fee), raises balance and supply, emits initializeUserAccount then mint', () => {
    supplyStore.set(harness.state, LSK_TOKEN_ID, { totalSupply: 10n });
    harness.contextStore.set(CONTEXT_STORE_KEY_AVAILABLE_FEE, 5_000_000n);
    method.mint(ctx, ALICE, LSK_TOKEN_ID, 7n);
    expect(account(ALICE)).toEqual({ availableBalance: 7n, lockedBalances: [] });
    expect(supplyStore.get(harness.state, LSK_TOKEN_ID)).toEqual({ totalSupply: 17n });
    expect(names()).toEqual(['initializeUserAccount', 'mint']);
    expect(harness.contextStore.get(CONTEXT_STORE_KEY_AVAILABLE_FEE)).toBe(0n);
    method.mint(ctx, ALICE, LSK_TOKEN_ID, 1n);
    expect(account(ALICE)?.availableBalance).toBe(8n);
  });

  it('mint failures in lisk-sdk order with their results', () => {
    expect(() => method.mint(ctx, ALICE, FOREIGN_TOKEN, 1n)).toThrow('Only native token can be minted.');
    expect(lastResult()).toBe(TokenEventResult.MINT_FAIL_NON_NATIVE_TOKEN);
    expect(() => method.mint(ctx, ALICE, OWN_TOKEN_2, 1n)).toThrow('TokenID: 0400000000000002 is not initialized.');
    expect(lastResult()).toBe(TokenEventResult.MINT_FAIL_TOKEN_NOT_INITIALIZED);
    supplyStore.set(harness.state, LSK_TOKEN_ID, { totalSupply: 2n ** 64n - 2n });
    expect(() => method.mint(ctx, ALICE, LSK_TOKEN_ID, 2n)).toThrow('TokenID: 0400000000000000 with 2 exceeds maximum range allowed.');
    expect(lastResult()).toBe(TokenEventResult.MINT_FAIL_TOTAL_SUPPLY_TOO_BIG);
    // Without a fee available the account creation fails in payFee (fee's insufficientFee event).
    expect(() => method.mint(ctx, ALICE, LSK_TOKEN_ID, 1n)).toThrow('Transaction ran out of fee.');
    expect(eventsJSON(harness).at(-1)).toMatchObject({ module: 'fee', name: 'insufficientFee', data: '' });
  });

  it('burn lowers balance and (native tokens only) supply; emits burn', () => {
    supplyStore.set(harness.state, LSK_TOKEN_ID, { totalSupply: 100n });
    setAccount(ALICE, 10n);
    setAccount(ALICE, 10n, [], FOREIGN_TOKEN);
    method.burn(ctx, ALICE, LSK_TOKEN_ID, 4n);
    method.burn(ctx, ALICE, FOREIGN_TOKEN, 10n);
    expect(account(ALICE)?.availableBalance).toBe(6n);
    expect(account(ALICE, FOREIGN_TOKEN)).toEqual({ availableBalance: 0n, lockedBalances: [] });
    expect(supplyStore.get(harness.state, LSK_TOKEN_ID)).toEqual({ totalSupply: 96n });
    expect(names()).toEqual(['burn', 'burn']);
  });

  it('burn failures emit burn errors with result 1', () => {
    setAccount(ALICE, 1n);
    expect(() => method.burn(ctx, ALICE, LSK_TOKEN_ID, 2n)).toThrow(/does not have sufficient balance for amount 2/);
    expect(() => method.burn(ctx, BOB, LSK_TOKEN_ID, 2n)).toThrow(/does not exist/);
    expect(names()).toEqual(['burn', 'burn']);
    expect(lastResult()).toBe(TokenEventResult.FAIL_INSUFFICIENT_BALANCE);
  });

  it('initializeToken creates a zero supply for a new native token only', () => {
    expect(method.isTokenIDAvailable(ctx, OWN_TOKEN_2)).toBe(true);
    method.initializeToken(ctx, OWN_TOKEN_2);
    expect(supplyStore.get(harness.state, OWN_TOKEN_2)).toEqual({ totalSupply: 0n });
    expect(method.isTokenIDAvailable(ctx, OWN_TOKEN_2)).toBe(false);
    expect(() => method.initializeToken(ctx, OWN_TOKEN_2)).toThrow('The specified token ID is not available.');
    expect(lastResult()).toBe(TokenEventResult.TOKEN_ID_NOT_AVAILABLE);
    expect(() => method.initializeToken(ctx, FOREIGN_TOKEN)).toThrow('Only native token can be initialized.');
    expect(lastResult()).toBe(TokenEventResult.TOKEN_ID_NOT_NATIVE);
    expect(eventsJSON(harness)[0]).toEqual({
      module: 'token',
      name: 'initializeToken',
      data: `0a08${OWN_TOKEN_2.toString('hex')}1000`,
      topics: [OWN_TOKEN_2.toString('hex')],
    });
  });

  it('getTotalSupply lists every supply entry in token ID order', () => {
    supplyStore.set(harness.state, OWN_TOKEN_2, { totalSupply: 2n });
    supplyStore.set(harness.state, LSK_TOKEN_ID, { totalSupply: 1n });
    expect(method.getTotalSupply(ctx)).toEqual({
      totalSupply: [
        { tokenID: LSK_TOKEN_ID, totalSupply: 1n },
        { tokenID: OWN_TOKEN_2, totalSupply: 2n },
      ],
    });
  });
});

describe('transfer / user accounts', () => {
  it('transfer to a new account charges the init fee and emits initializeUserAccount then transfer', () => {
    harness.contextStore.set(CONTEXT_STORE_KEY_AVAILABLE_FEE, 6_000_000n);
    setAccount(ALICE, 10n);
    method.transfer(ctx, ALICE, BOB, LSK_TOKEN_ID, 4n);
    expect(account(BOB)).toEqual({ availableBalance: 4n, lockedBalances: [] });
    expect(account(ALICE)?.availableBalance).toBe(6n);
    expect(harness.contextStore.get(CONTEXT_STORE_KEY_AVAILABLE_FEE)).toBe(1_000_000n);
    const events = eventsJSON(harness);
    expect(events.map((event) => event.name)).toEqual(['initializeUserAccount', 'transfer']);
    expect(events[0]?.topics).toEqual([BOB.toString('hex')]);
    // address, tokenID, initializationFee 5000000, result 0
    expect(events[0]?.data).toBe(`0a14${BOB.toString('hex')}1208${LSK_TOKEN_ID.toString('hex')}18c096b1022000`);
  });

  it('transfer failures emit a non-revertible transfer error with both address topics', () => {
    setAccount(ALICE, 3n);
    expect(() => method.transfer(ctx, ALICE, BOB, LSK_TOKEN_ID, 4n)).toThrow(/sufficient balance for amount 4/);
    expect(() => method.transfer(ctx, BOB, ALICE, LSK_TOKEN_ID, 4n)).toThrow(/does not exist/);
    const events = eventsJSON(harness);
    expect(events.map((event) => event.name)).toEqual(['transfer', 'transfer']);
    expect(events[0]?.topics).toEqual([ALICE.toString('hex'), BOB.toString('hex')]);
    expect(lastResult()).toBe(TokenEventResult.FAIL_INSUFFICIENT_BALANCE);
    // Both are error events: rolling the queue back to its start keeps them.
    harness.events.restore(0);
    expect(names()).toEqual(['transfer', 'transfer']);
  });

  it('initializeUserAccount is a no-op for an existing account', () => {
    setAccount(ALICE, 1n);
    method.initializeUserAccount(ctx, ALICE, LSK_TOKEN_ID);
    expect(harness.events.events()).toEqual([]);
    harness.contextStore.set(CONTEXT_STORE_KEY_AVAILABLE_FEE, 5_000_000n);
    method.initializeUserAccount(ctx, BOB, LSK_TOKEN_ID);
    expect(method.userSubstoreExists(ctx, BOB, LSK_TOKEN_ID)).toBe(true);
    expect(method.getAvailableBalance(ctx, BOB, LSK_TOKEN_ID)).toBe(0n);
    expect(names()).toEqual(['initializeUserAccount']);
  });
});

describe('escrow', () => {
  it('initializeEscrowAccount: native tokens only, never for the own chain, once', () => {
    expect(() => method.initializeEscrowAccount(ctx, FOREIGN_CHAIN, FOREIGN_TOKEN)).toThrow(
      'TokenID 0400000100000000 is not native token.',
    );
    expect(() => method.initializeEscrowAccount(ctx, Buffer.from('04000000', 'hex'), LSK_TOKEN_ID)).toThrow(
      'Can not initialize escrow account for own chain, 04000000',
    );
    harness.contextStore.set(CONTEXT_STORE_KEY_AVAILABLE_FEE, 5_000_000n);
    method.initializeEscrowAccount(ctx, FOREIGN_CHAIN, LSK_TOKEN_ID);
    method.initializeEscrowAccount(ctx, FOREIGN_CHAIN, LSK_TOKEN_ID);
    expect(escrowStore.get(harness.state, escrowKey(FOREIGN_CHAIN, LSK_TOKEN_ID))).toEqual({ amount: 0n });
    expect(method.escrowSubstoreExists(ctx, FOREIGN_CHAIN, LSK_TOKEN_ID)).toBe(true);
    expect(eventsJSON(harness)).toEqual([
      {
        module: 'token',
        name: 'initializeEscrowAccount',
        data: `0a04${FOREIGN_CHAIN.toString('hex')}1208${LSK_TOKEN_ID.toString('hex')}18c096b1022000`,
        topics: [FOREIGN_CHAIN.toString('hex')],
      },
    ]);
  });

  it('getEscrowedAmount', () => {
    expect(method.getEscrowedAmount(ctx, FOREIGN_CHAIN, LSK_TOKEN_ID)).toBe(0n);
    escrowStore.set(harness.state, escrowKey(FOREIGN_CHAIN, LSK_TOKEN_ID), { amount: 9n });
    expect(method.getEscrowedAmount(ctx, FOREIGN_CHAIN, LSK_TOKEN_ID)).toBe(9n);
    expect(() => method.getEscrowedAmount(ctx, FOREIGN_CHAIN, FOREIGN_TOKEN)).toThrow('Only native token can have escrow amount.');
    expect(() => method.getEscrowedAmount(ctx, Buffer.from('04000000', 'hex'), LSK_TOKEN_ID)).toThrow(
      'Escrow is not defined for own chain.',
    );
  });
});

describe('cross-chain methods', () => {
  let interop: RecordingInteroperability;

  beforeEach(() => {
    interop = new RecordingInteroperability(new Map([[FOREIGN_CHAIN.toString('hex'), LSK_TOKEN_ID]]));
    token.addDependencies({ interoperability: interop });
    harness.contextStore.set(CONTEXT_STORE_KEY_AVAILABLE_FEE, 5_000_000n);
  });

  it('transferCrossChain escrows a native token, emits transferCrossChain and sends the CCM', () => {
    setAccount(ALICE, 100n);
    method.transferCrossChain(ctx, ALICE, FOREIGN_CHAIN, BOB, LSK_TOKEN_ID, 60n, 10n, 'hello');
    expect(account(ALICE)?.availableBalance).toBe(40n);
    expect(escrowStore.get(harness.state, escrowKey(FOREIGN_CHAIN, LSK_TOKEN_ID))).toEqual({ amount: 60n });
    expect(names()).toEqual(['initializeEscrowAccount', 'transferCrossChain']);
    expect(eventsJSON(harness)[1]?.topics).toEqual([ALICE, BOB, FOREIGN_CHAIN].map((b) => b.toString('hex')));
    expect(interop.sent).toHaveLength(1);
    expect(interop.sent[0]).toMatchObject({ module: 'token', crossChainCommand: 'transferCrossChain', fee: 10n });
    expect(codec.decode(crossChainTransferMessageParamsSchema, interop.sent[0]?.parameters as Buffer)).toEqual({
      tokenID: LSK_TOKEN_ID,
      amount: 60n,
      senderAddress: ALICE,
      recipientAddress: BOB,
      data: 'hello',
    });
  });

  it('transferCrossChain failures in lisk-sdk order', () => {
    setAccount(ALICE, 100n);
    expect(() => method.transferCrossChain(ctx, ALICE, Buffer.from('04000000', 'hex'), BOB, LSK_TOKEN_ID, 1n, 0n, '')).toThrow(
      'Receiving chain cannot be the sending chain.',
    );
    expect(lastResult()).toBe(TokenEventResult.INVALID_RECEIVING_CHAIN);
    expect(() => method.transferCrossChain(ctx, ALICE, FOREIGN_CHAIN, BOB, LSK_TOKEN_ID, 1n, 0n, 'x'.repeat(65))).toThrow(
      'Maximum data allowed is 64, but received 65',
    );
    expect(lastResult()).toBe(TokenEventResult.DATA_TOO_LONG);
    expect(() => method.transferCrossChain(ctx, ALICE, FOREIGN_CHAIN, BOB, LSK_TOKEN_ID, 95n, 6n, '')).toThrow(
      `Sender ${encodeLisk32(ALICE)} does not have sufficient balance 101 for token 0400000000000000.`,
    );
    expect(lastResult()).toBe(TokenEventResult.FAIL_INSUFFICIENT_BALANCE);
    setAccount(ALICE, 5n, [], Buffer.from('0400000200000000', 'hex'));
    expect(() => method.transferCrossChain(ctx, ALICE, FOREIGN_CHAIN, BOB, Buffer.from('0400000200000000', 'hex'), 1n, 0n, '')).toThrow(
      /Invalid token ID 0400000200000000/,
    );
    expect(lastResult()).toBe(TokenEventResult.INVALID_TOKEN_ID);
    expect(() => method.transferCrossChain(ctx, ALICE, Buffer.from('04000009', 'hex'), BOB, LSK_TOKEN_ID, 1n, 0n, '')).toThrow(
      'Channel does not exist.',
    );
    expect(account(ALICE)?.availableBalance).toBe(100n);
    expect(interop.sent).toEqual([]);
  });

  it('payMessageFee moves the fee into escrow for a native fee token', () => {
    setAccount(ALICE, 100n);
    method.payMessageFee(ctx, ALICE, FOREIGN_CHAIN, 30n);
    expect(account(ALICE)?.availableBalance).toBe(70n);
    expect(escrowStore.get(harness.state, escrowKey(FOREIGN_CHAIN, LSK_TOKEN_ID))).toEqual({ amount: 30n });
    expect(() => method.payMessageFee(ctx, ALICE, FOREIGN_CHAIN, -1n)).toThrow('Invalid Message Fee');
    expect(() => method.payMessageFee(ctx, ALICE, FOREIGN_CHAIN, 71n)).toThrow(
      `Address ${encodeLisk32(ALICE)} does not have sufficient balance 70 to pay 71`,
    );
  });
});

describe('supported tokens', () => {
  const chainA = FOREIGN_CHAIN;
  const tokenA0 = FOREIGN_TOKEN;
  const tokenA1 = Buffer.from('0400000100000001', 'hex');

  it('own tokens and the network LSK token are always supported; others need an entry', () => {
    expect(method.isTokenSupported(ctx, OWN_TOKEN_2)).toBe(true);
    expect(method.isTokenSupported(ctx, LSK_TOKEN_ID)).toBe(true);
    expect(method.isTokenSupported(ctx, tokenA0)).toBe(false);
    method.supportTokenID(ctx, tokenA1);
    method.supportTokenID(ctx, tokenA0);
    method.supportTokenID(ctx, tokenA0);
    expect(supportedTokensStore.get(harness.state, chainA)).toEqual({ supportedTokenIDs: [tokenA0, tokenA1] });
    expect(method.isTokenSupported(ctx, tokenA0)).toBe(true);
    expect(names()).toEqual(['tokenIDSupported', 'tokenIDSupported', 'tokenIDSupported']);
    expect(eventsJSON(harness)[0]).toEqual({
      module: 'token',
      name: 'tokenIDSupported',
      data: `0a08${tokenA1.toString('hex')}`,
      topics: [tokenA1.toString('hex')],
    });
  });

  it('supportAllTokensFromChainID / removeAllTokensSupportFromChainID', () => {
    method.supportAllTokensFromChainID(ctx, Buffer.from('04000000', 'hex'));
    expect(harness.events.events()).toEqual([]);
    method.supportAllTokensFromChainID(ctx, chainA);
    expect(method.isTokenSupported(ctx, tokenA1)).toBe(true);
    expect(eventsJSON(harness)).toEqual([
      { module: 'token', name: 'allTokensFromChainSupported', data: `0a04${chainA.toString('hex')}`, topics: [chainA.toString('hex')] },
    ]);
    // A token of a fully supported chain is not added to a list.
    method.supportTokenID(ctx, tokenA0);
    expect(supportedTokensStore.get(harness.state, chainA)).toEqual({ supportedTokenIDs: [] });
    expect(() => method.removeSupport(ctx, tokenA0)).toThrow('All tokens from the specified chain are supported.');
    expect(() => method.removeAllTokensSupportFromChainID(ctx, Buffer.from('04000000', 'hex'))).toThrow(
      'Invalid operation. All tokens from all the specified chain should be supported.',
    );
    method.removeAllTokensSupportFromChainID(ctx, chainA);
    method.removeAllTokensSupportFromChainID(ctx, chainA);
    expect(supportedTokensStore.has(harness.state, chainA)).toBe(false);
    expect(names().filter((name) => name === 'allTokensFromChainSupportRemoved')).toHaveLength(1);
  });

  it('supportAllTokens replaces the chain entries; removeAllTokensSupport keeps the all-supported entry (as lisk-sdk)', () => {
    method.supportTokenID(ctx, tokenA0);
    method.supportAllTokens(ctx);
    expect(supportedTokensStore.has(harness.state, chainA)).toBe(false);
    expect(supportedTokensStore.get(harness.state, ALL_SUPPORTED_TOKENS_KEY)).toEqual({ supportedTokenIDs: [] });
    expect(method.isTokenSupported(ctx, Buffer.from('0500000100000000', 'hex'))).toBe(true);
    expect(eventsJSON(harness).at(-1)).toEqual({ module: 'token', name: 'allTokensSupported', data: '', topics: [] });
    // Once everything is supported, chain- and token-level calls change nothing.
    method.supportAllTokensFromChainID(ctx, chainA);
    method.supportTokenID(ctx, tokenA1);
    expect(supportedTokensStore.has(harness.state, chainA)).toBe(false);
    expect(() => method.removeSupport(ctx, tokenA0)).toThrow('All tokens are supported.');
    expect(() => method.removeAllTokensSupportFromChainID(ctx, chainA)).toThrow(
      'Invalid operation. All tokens from all chains are supported.',
    );
    method.removeAllTokensSupport(ctx);
    expect(eventsJSON(harness).at(-1)).toEqual({ module: 'token', name: 'allTokensSupportRemoved', data: '', topics: [] });
    expect(supportedTokensStore.has(harness.state, ALL_SUPPORTED_TOKENS_KEY)).toBe(true);
  });

  it('removeSupport: refuses own and LSK tokens; like lisk-sdk 6.1 it never shrinks a list (Buffer identity lookup)', () => {
    expect(() => method.removeSupport(ctx, LSK_TOKEN_ID)).toThrow('Cannot remove support for the specified token.');
    expect(() => method.removeSupport(ctx, OWN_TOKEN_2)).toThrow('Cannot remove support for the specified token.');
    method.removeSupport(ctx, tokenA0);
    expect(names()).toEqual(['tokenIDSupportRemoved']);
    method.supportTokenID(ctx, tokenA0);
    method.removeSupport(ctx, tokenA0);
    expect(supportedTokensStore.get(harness.state, chainA)).toEqual({ supportedTokenIDs: [tokenA0] });
    expect(names()).toEqual(['tokenIDSupportRemoved', 'tokenIDSupported', 'tokenIDSupportRemoved']);
  });
});

describe('event queue integration', () => {
  it('error events survive a rollback of the command, success events do not', () => {
    const queue = EventQueue.forBlock(1);
    const context: MethodContext = { state: harness.state, events: queue, contextStore: harness.contextStore };
    setAccount(ALICE, 5n);
    const snapshot = queue.snapshot();
    method.lock(context, ALICE, 'pos', LSK_TOKEN_ID, 1n);
    expect(() => method.lock(context, ALICE, 'pos', LSK_TOKEN_ID, 100n)).toThrow();
    queue.restore(snapshot);
    expect(queue.events().map((event) => event.name)).toEqual(['lock']);
    expect(queue.events()[0]?.index).toBe(0);
    const data = queue.events()[0]?.data as Buffer;
    expect(data[data.length - 1]).toBe(TokenEventResult.FAIL_INSUFFICIENT_BALANCE);
  });
});
