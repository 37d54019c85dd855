/**
 * `token:transferCrossChain` (lisk-sdk token/commands/transfer_cross_chain.ts): verify checks in
 * order, execution with an in-test interoperability method, and — with the REAL
 * interoperability method on the dev chain's tip state, a mainchain without any registered
 * sidechain — the failure lisk-sdk gives: verify FAIL "Channel does not exist.".
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { codec } from '../../../../src/codec/index.js';
import { Transaction } from '../../../../src/chain/transaction.js';
import { addressFromPublicKey, encodeLisk32 } from '../../../../src/crypto/index.js';
import { VerifyStatus, type VerificationResult } from '../../../../src/modules/base/index.js';
import { CONTEXT_STORE_KEY_AVAILABLE_FEE } from '../../../../src/modules/fee/constants.js';
import { InteroperabilityMethod as RealInteroperabilityMethod } from '../../../../src/modules/interoperability/method.js';
import {
  crossChainTransferMessageParamsSchema,
  escrowKey,
  escrowStore,
  InsufficientBalanceError,
  transferCrossChainParamsSchema,
  userKey,
  userStore,
  type TokenModule,
  type TransferCrossChainParams,
} from '../../../../src/modules/token/index.js';
import { MemoryState } from '../../../../src/state/memory-state.js';
import { loadJsonFixture } from '../../../support/fixtures.js';
import { ModuleHarness } from '../../../support/module-harness.js';
import { commandOf, createTokenAndFee, eventsJSON, LSK_TOKEN_ID, RecordingInteroperability } from './token-test-kit.js';

const SENDER_KEY = Buffer.alloc(32, 9);
const SENDER = addressFromPublicKey(SENDER_KEY);
const RECIPIENT = Buffer.alloc(20, 0xbb);
const SIDECHAIN = Buffer.from('04000002', 'hex');
const SIDECHAIN_TOKEN = Buffer.from('0400000200000000', 'hex');

function params(overrides: Partial<TransferCrossChainParams> = {}): TransferCrossChainParams {
  return {
    tokenID: LSK_TOKEN_ID,
    amount: 100n,
    receivingChainID: SIDECHAIN,
    recipientAddress: RECIPIENT,
    data: 'cc',
    messageFee: 10n,
    messageFeeTokenID: LSK_TOKEN_ID,
    ...overrides,
  };
}

function txFor(p: TransferCrossChainParams): Transaction {
  return new Transaction({
    module: 'token',
    command: 'transferCrossChain',
    nonce: 0n,
    fee: 10_000_000n,
    senderPublicKey: SENDER_KEY,
    params: codec.encode(transferCrossChainParamsSchema, p),
    signatures: [Buffer.alloc(64)],
  });
}

let token: TokenModule;
let interop: RecordingInteroperability;
let harness: ModuleHarness;

function verify(p: TransferCrossChainParams): VerificationResult {
  const command = commandOf(token, 'transferCrossChain');
  return command.verify?.(harness.commandVerifyContext(txFor(p), p)) as VerificationResult;
}

function failure(p: TransferCrossChainParams): string {
  const result = verify(p);
  expect(result.status).toBe(VerifyStatus.FAIL);
  return (result.error as Error).message;
}

beforeEach(() => {
  ({ token } = createTokenAndFee());
  interop = new RecordingInteroperability(new Map([[SIDECHAIN.toString('hex'), LSK_TOKEN_ID]]));
  token.addDependencies({ interoperability: interop });
  harness = new ModuleHarness({ header: { height: 10, timestamp: 1_800_000_000 } });
  userStore.set(harness.state, userKey(SENDER, LSK_TOKEN_ID), { availableBalance: 110n, lockedBalances: [] });
});

describe('transferCrossChain verify', () => {
  it('passes when amount + message fee are covered', () => {
    expect(verify(params())).toEqual({ status: VerifyStatus.OK });
  });

  it('fails in lisk-sdk order', () => {
    expect(failure(params({ receivingChainID: Buffer.from('04000000', 'hex') }))).toBe('Receiving chain cannot be the sending chain.');
    expect(failure(params({ tokenID: Buffer.from('0400000300000000', 'hex') }))).toBe(
      'Token must be native to either the sending or the receiving chain.',
    );
    expect(failure(params({ receivingChainID: Buffer.from('04000005', 'hex') }))).toBe('Channel does not exist.');
    expect(failure(params({ messageFeeTokenID: SIDECHAIN_TOKEN }))).toBe('Invalid message fee Token ID.');
    const sender = encodeLisk32(SENDER);
    // Same token for amount and message fee: one summed check.
    expect(failure(params({ amount: 101n }))).toBe(`${sender} balance 110 for 0400000000000000 is not sufficient for 111.`);
    // A sidechain token (native to the receiving chain) and the LSK message fee: two checks.
    const sidechainToken = params({ tokenID: SIDECHAIN_TOKEN, amount: 1n });
    expect(failure(sidechainToken)).toBe(`${sender} balance 0 for 0400000200000000 is not sufficient for 1.`);
    userStore.set(harness.state, userKey(SENDER, SIDECHAIN_TOKEN), { availableBalance: 1n, lockedBalances: [] });
    expect(verify(sidechainToken)).toEqual({ status: VerifyStatus.OK });
    expect(verify(params({ tokenID: SIDECHAIN_TOKEN, amount: 1n, messageFee: 111n })).error).toBeInstanceOf(InsufficientBalanceError);
  });

  it('fails (does not throw) when no interoperability method was provided', () => {
    const { token: bare } = createTokenAndFee();
    token = bare;
    expect(failure(params())).toBe('token: the interoperability module method has not been provided');
  });
});

describe('transferCrossChain execute', () => {
  it('native token: creates the escrow (init fee), debits the sender, escrows, emits, sends with the block timestamp', () => {
    const p = params();
    const tx = txFor(p);
    harness.contextStore.set(CONTEXT_STORE_KEY_AVAILABLE_FEE, 5_000_000n);
    commandOf(token, 'transferCrossChain').execute(harness.commandExecuteContext(tx, p));
    expect(userStore.get(harness.state, userKey(SENDER, LSK_TOKEN_ID))?.availableBalance).toBe(10n);
    expect(escrowStore.get(harness.state, escrowKey(SIDECHAIN, LSK_TOKEN_ID))).toEqual({ amount: 100n });
    const events = eventsJSON(harness);
    expect(events.map((event) => event.name)).toEqual(['initializeEscrowAccount', 'transferCrossChain']);
    const txTopic = Buffer.concat([Buffer.from([4]), tx.id]).toString('hex');
    expect(events[1]?.topics).toEqual([txTopic, SENDER.toString('hex'), RECIPIENT.toString('hex'), SIDECHAIN.toString('hex')]);
    expect(interop.sent).toHaveLength(1);
    const sent = interop.sent[0];
    expect(sent).toMatchObject({ module: 'token', crossChainCommand: 'transferCrossChain', fee: 10n, timestamp: 1_800_000_000 });
    expect(sent?.feeAddress.equals(SENDER)).toBe(true);
    expect(codec.decode(crossChainTransferMessageParamsSchema, sent?.parameters as Buffer)).toEqual({
      tokenID: LSK_TOKEN_ID,
      amount: 100n,
      senderAddress: SENDER,
      recipientAddress: RECIPIENT,
      data: 'cc',
    });
  });

  it('token of the receiving chain: no escrow', () => {
    userStore.set(harness.state, userKey(SENDER, SIDECHAIN_TOKEN), { availableBalance: 5n, lockedBalances: [] });
    const p = params({ tokenID: SIDECHAIN_TOKEN, amount: 5n });
    commandOf(token, 'transferCrossChain').execute(harness.commandExecuteContext(txFor(p), p));
    expect(userStore.get(harness.state, userKey(SENDER, SIDECHAIN_TOKEN))?.availableBalance).toBe(0n);
    expect(escrowStore.iterate(harness.state, { keyLength: 12 })).toEqual([]);
    expect(eventsJSON(harness).map((event) => event.name)).toEqual(['transferCrossChain']);
  });

  it('throws InsufficientBalanceError when the balance no longer covers the amount', () => {
    escrowStore.set(harness.state, escrowKey(SIDECHAIN, LSK_TOKEN_ID), { amount: 0n });
    const p = params({ amount: 111n });
    expect(() => commandOf(token, 'transferCrossChain').execute(harness.commandExecuteContext(txFor(p), p))).toThrow(
      InsufficientBalanceError,
    );
  });
});

describe('transferCrossChain on the dev chain tip (real interoperability module, no sidechain)', () => {
  it('verify fails with "Channel does not exist."', () => {
    const kv = loadJsonFixture<{ entries: [string, string][] }>('chains/dev/final_state_kv.json');
    const base = new MemoryState(kv.entries.map(([key, value]) => ({ key: Buffer.from(key, 'hex'), value: Buffer.from(value, 'hex') })));
    const { token: devToken } = createTokenAndFee();
    devToken.addDependencies({ interoperability: new RealInteroperabilityMethod(() => devToken.method) });
    token = devToken;
    harness = new ModuleHarness({ base });
    // A genesis account with plenty of LSK at the tip.
    const richKey = Buffer.from('a3f96c50d0446220ef2f98240898515cbba8155730679ca35326d98dcfb680f0', 'hex');
    expect(userStore.has(harness.state, userKey(addressFromPublicKey(richKey), LSK_TOKEN_ID))).toBe(true);
    const p = params();
    const tx = new Transaction({ ...txFor(p), senderPublicKey: richKey, signatures: [Buffer.alloc(64)] });
    const result = commandOf(token, 'transferCrossChain').verify?.(harness.commandVerifyContext(tx, p)) as VerificationResult;
    expect(result.status).toBe(VerifyStatus.FAIL);
    expect(result.error?.message).toBe('Channel does not exist.');
  });
});
