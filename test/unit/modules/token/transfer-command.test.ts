/**
 * `token:transfer` (lisk-sdk token/commands/transfer.ts, internal_method.ts; LIP 0051):
 * verify and execute paths, and the real dev chain's height-2 token transfers replayed from the
 * genesis state with the real fee module, reproducing every event of those transactions.
 */
import { describe, expect, it } from 'vitest';
import { codec } from '../../../../src/codec/index.js';
import { Transaction } from '../../../../src/chain/transaction.js';
import { addressFromPublicKey, decodeLisk32 } from '../../../../src/crypto/index.js';
import { VerifyStatus } from '../../../../src/modules/base/index.js';
import { CONTEXT_STORE_KEY_AVAILABLE_FEE } from '../../../../src/modules/fee/constants.js';
import {
  InsufficientBalanceError,
  supplyStore,
  transferParamsSchema,
  userKey,
  userStore,
  type TransferParams,
} from '../../../../src/modules/token/index.js';
import { recordCases } from '../../../support/conformance-tally.js';
import { ModuleHarness } from '../../../support/module-harness.js';
import {
  commandOf,
  createTokenAndFee,
  devGenesisHarness,
  eventsJSON,
  loadNdjsonFixture,
  LSK_TOKEN_ID,
  methodContext,
  runTransaction,
  transactionFromHex,
} from './token-test-kit.js';

interface EventJSON {
  module: string;
  name: string;
  data: string;
  topics: string[];
  index: number;
}

const SENDER_KEY = Buffer.alloc(32, 7);
const SENDER = addressFromPublicKey(SENDER_KEY);
const RECIPIENT = Buffer.alloc(20, 0xaa);

function transferTx(params: TransferParams, fee: bigint, nonce = 0n): Transaction {
  return new Transaction({
    module: 'token',
    command: 'transfer',
    nonce,
    fee,
    senderPublicKey: SENDER_KEY,
    params: codec.encode(transferParamsSchema, params),
    signatures: [Buffer.alloc(64)],
  });
}

/** A funded sender on a fresh state, with the real fee module. */
function setup(balance: bigint) {
  const { token, fee } = createTokenAndFee();
  const harness = new ModuleHarness({ header: { height: 5, generatorAddress: Buffer.alloc(20, 0x11) } });
  userStore.set(harness.state, userKey(SENDER, LSK_TOKEN_ID), { availableBalance: balance, lockedBalances: [] });
  // The fee module burns what the generator does not get; burning a native token needs its supply.
  supplyStore.set(harness.state, LSK_TOKEN_ID, { totalSupply: balance });
  return { token, fee, harness };
}

describe('transfer command: verify (before the fee is locked)', () => {
  it('passes when the available balance covers the amount, including exactly', () => {
    const { token, harness } = setup(1000n);
    const command = commandOf(token, 'transfer');
    const params = { tokenID: LSK_TOKEN_ID, amount: 1000n, recipientAddress: RECIPIENT, data: '' };
    const result = command.verify?.(harness.commandVerifyContext(transferTx(params, 0n), params));
    expect(result).toEqual({ status: VerifyStatus.OK });
  });

  it('fails with lisk-sdk InsufficientBalanceError when it does not, or when there is no account', () => {
    const { token, harness } = setup(999n);
    const command = commandOf(token, 'transfer');
    const params = { tokenID: LSK_TOKEN_ID, amount: 1000n, recipientAddress: RECIPIENT, data: '' };
    const result = command.verify?.(harness.commandVerifyContext(transferTx(params, 0n), params)) as {
      status: VerifyStatus;
      error: Error;
    };
    expect(result.status).toBe(VerifyStatus.FAIL);
    expect(result.error).toBeInstanceOf(InsufficientBalanceError);
    expect(result.error.message).toMatch(/^lsk[a-z0-9]{38} balance 999 is not sufficient for 1000\.$/);

    const foreign = { ...params, tokenID: Buffer.from('0400000100000000', 'hex'), amount: 1n };
    const noAccount = command.verify?.(harness.commandVerifyContext(transferTx(foreign, 0n), foreign)) as {
      error: Error;
    };
    expect(noAccount.error.message).toMatch(/balance 0 is not sufficient for 1\.$/);
  });
});

describe('transfer command: execute', () => {
  it('to an existing account: moves the amount and emits transfer', () => {
    const { token, fee, harness } = setup(10_000_000n);
    userStore.set(harness.state, userKey(RECIPIENT, LSK_TOKEN_ID), { availableBalance: 1n, lockedBalances: [] });
    const params = { tokenID: LSK_TOKEN_ID, amount: 300n, recipientAddress: RECIPIENT, data: 'x' };
    const tx = transferTx(params, 200_000n);
    const outcome = runTransaction(harness, token, fee, tx);
    expect(outcome.success).toBe(true);
    expect(userStore.get(harness.state, userKey(RECIPIENT, LSK_TOKEN_ID))?.availableBalance).toBe(301n);
    // The fee is burnt (the generator has no account): 10_000_000 - 300 - 200_000.
    expect(userStore.get(harness.state, userKey(SENDER, LSK_TOKEN_ID))).toEqual({
      availableBalance: 9_799_700n,
      lockedBalances: [],
    });
    expect(eventsJSON(harness).map((event) => `${event.module}:${event.name}`)).toEqual([
      'token:lock',
      'token:transfer',
      'token:unlock',
      'token:burn',
      'fee:generatorFeeProcessed',
      'token:commandExecutionResult',
    ]);
    const transferEventJSON = eventsJSON(harness)[1];
    expect(transferEventJSON?.topics).toEqual([
      Buffer.concat([Buffer.from([4]), tx.id]).toString('hex'),
      SENDER.toString('hex'),
      RECIPIENT.toString('hex'),
    ]);
  });

  it('to a new account: pays the initialization fee, creates the account, emits initializeUserAccount then transfer', () => {
    const { token, fee, harness } = setup(10_000_000n);
    const params = { tokenID: LSK_TOKEN_ID, amount: 300n, recipientAddress: RECIPIENT, data: '' };
    const outcome = runTransaction(harness, token, fee, transferTx(params, 5_200_000n));
    expect(outcome.success).toBe(true);
    expect(userStore.get(harness.state, userKey(RECIPIENT, LSK_TOKEN_ID))).toEqual({
      availableBalance: 300n,
      lockedBalances: [],
    });
    const names = eventsJSON(harness).map((event) => event.name);
    expect(names.slice(0, 3)).toEqual(['lock', 'initializeUserAccount', 'transfer']);
  });

  it('to self: the balance is unchanged by the transfer itself', () => {
    const { token, harness } = setup(1000n);
    const command = commandOf(token, 'transfer');
    const params = { tokenID: LSK_TOKEN_ID, amount: 400n, recipientAddress: SENDER, data: '' };
    command.execute(harness.commandExecuteContext(transferTx(params, 0n), params));
    expect(userStore.get(harness.state, userKey(SENDER, LSK_TOKEN_ID))?.availableBalance).toBe(1000n);
  });

  it('amount 0 to a new account still creates it and emits a transfer of 0 (no early return, unlike TokenMethod.transfer)', () => {
    const { token, harness } = setup(0n);
    harness.contextStore.set(CONTEXT_STORE_KEY_AVAILABLE_FEE, 5_000_000n);
    const command = commandOf(token, 'transfer');
    const params = { tokenID: LSK_TOKEN_ID, amount: 0n, recipientAddress: RECIPIENT, data: '' };
    command.execute(harness.commandExecuteContext(transferTx(params, 0n), params));
    expect(eventsJSON(harness).map((event) => event.name)).toEqual(['initializeUserAccount', 'transfer']);
  });

  it('fails without events when the sender account does not exist', () => {
    const { token } = setup(0n);
    const harness = new ModuleHarness();
    userStore.set(harness.state, userKey(RECIPIENT, LSK_TOKEN_ID), { availableBalance: 0n, lockedBalances: [] });
    const command = commandOf(token, 'transfer');
    const params = { tokenID: LSK_TOKEN_ID, amount: 0n, recipientAddress: RECIPIENT, data: '' };
    expect(() => command.execute(harness.commandExecuteContext(transferTx(params, 0n), params))).toThrow(/does not exist/);
    expect(harness.events.events()).toEqual([]);
  });

  it('keeps locked balances of sender and recipient', () => {
    const { token, harness } = setup(0n);
    userStore.set(harness.state, userKey(SENDER, LSK_TOKEN_ID), {
      availableBalance: 50n,
      lockedBalances: [{ module: 'pos', amount: 7n }],
    });
    userStore.set(harness.state, userKey(RECIPIENT, LSK_TOKEN_ID), {
      availableBalance: 0n,
      lockedBalances: [{ module: 'fee', amount: 1n }],
    });
    const command = commandOf(token, 'transfer');
    const params = { tokenID: LSK_TOKEN_ID, amount: 50n, recipientAddress: RECIPIENT, data: '' };
    command.execute({ ...harness.commandExecuteContext(transferTx(params, 0n), params), ...methodContext(harness) });
    expect(userStore.get(harness.state, userKey(SENDER, LSK_TOKEN_ID))).toEqual({
      availableBalance: 0n,
      lockedBalances: [{ module: 'pos', amount: 7n }],
    });
    expect(userStore.get(harness.state, userKey(RECIPIENT, LSK_TOKEN_ID))).toEqual({
      availableBalance: 50n,
      lockedBalances: [{ module: 'fee', amount: 1n }],
    });
  });
});

describe('transfer command: the dev chain height-2 token transfers', () => {
  interface Workload {
    seq: number;
    module: string;
    txHex: string;
    txID: string;
    success?: boolean;
  }
  interface BlockLine {
    height: number;
    blockJson: { header: { generatorAddress: string; timestamp: number }; transactions: { id: string }[] };
  }

  it('reproduces every event of each token transfer of block 2 (including the failures #6 and #7)', () => {
    const block = loadNdjsonFixture<BlockLine>('chains/dev/blocks.ndjson').find((line) => line.height === 2) as BlockLine;
    const blockEvents = (
      loadNdjsonFixture<{ height: number; events: EventJSON[] }>('chains/dev/events.ndjson').find((line) => line.height === 2) as {
        events: EventJSON[];
      }
    ).events;
    const submitted = new Map(loadNdjsonFixture<Workload>('chains/dev/workload.ndjson').map((entry) => [entry.txID, entry]));

    // Block 1 has no transactions and mints a zero reward: the token state before block 2 is
    // the genesis state.
    const { token, fee } = createTokenAndFee();
    const harness = devGenesisHarness(token);
    harness.commit({
      height: 2,
      timestamp: block.blockJson.header.timestamp,
      generatorAddress: decodeLisk32(block.blockJson.header.generatorAddress),
    });

    const outcomes = new Map<number, boolean | undefined>();
    for (const { id } of block.blockJson.transactions) {
      const entry = submitted.get(id);
      // The pos and auth transactions of the block touch none of these accounts.
      if (entry === undefined || entry.module !== 'token') continue;
      const tx = transactionFromHex(entry.txHex);
      expect(tx.id.toString('hex')).toBe(id);

      const before = harness.events.snapshot();
      const outcome = runTransaction(harness, token, fee, tx);
      expect(outcome.verify.status).toBe(VerifyStatus.OK);
      expect(outcome.success).toBe(entry.success);
      outcomes.set(entry.seq, outcome.success);

      const txTopic = Buffer.concat([Buffer.from([4]), tx.id]).toString('hex');
      const expected = blockEvents
        .filter((event) => event.topics[0] === txTopic)
        .map(({ module, name, data, topics }) => ({ module, name, data, topics }));
      expect(expected.length).toBeGreaterThan(0);
      expect(eventsJSON(harness).slice(before)).toEqual(expected);
    }
    expect([...outcomes.keys()].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // #6 passes verify and fails in execute without a token event (the fee lock left too little);
    // #7 fails on the initialization fee with fee's non-revertible insufficientFee event.
    expect(outcomes.get(6)).toBe(false);
    expect(outcomes.get(7)).toBe(false);
    recordCases('chains/dev/events.ndjson', outcomes.size);
  });
});
