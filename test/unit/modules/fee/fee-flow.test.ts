/**
 * Fee module hooks and payFee with the real token module over one state.
 * Expected behaviour: lisk-sdk framework/src/modules/fee/module.ts (verifyTransaction,
 * beforeCommandExecute, afterCommandExecute), fee/method.ts (payFee), LIP 0048.
 */
import { describe, expect, it } from 'vitest';
import { codec } from '../../../../src/codec/index.js';
import { addressFromPublicKey } from '../../../../src/crypto/index.js';
import { VerifyStatus } from '../../../../src/modules/base/index.js';
import { generatorFeeProcessedEvent } from '../../../../src/modules/fee/index.js';
import { keyPair, singleSigned } from '../auth/support.js';
import { account, fund, setupFee, totalSupply } from './support.js';

const sender = keyPair('fee-sender');
const senderAddress = addressFromPublicKey(sender.publicKey);
const generator = Buffer.alloc(20, 0xaa);
const AVAILABLE = 'CONTEXT_STORE_KEY_AVAILABLE_FEE';

function eventSummary(setupEvents: { module: string; name: string }[]): string[] {
  return setupEvents.map((event) => `${event.module}:${event.name}`);
}

describe('fee verifyTransaction', () => {
  it('demands fee ≥ minFeePerByte × size of the signed transaction', () => {
    const setup = setupFee();
    fund(setup, senderAddress, 10n ** 9n);
    const probe = singleSigned(sender, { fee: 100_000n });
    const minFee = 1000n * BigInt(probe.size);
    const atMinimum = singleSigned(sender, { fee: minFee });
    expect(atMinimum.size).toBe(probe.size);
    expect(setup.fee.verifyTransaction(setup.harness.transactionVerifyContext(atMinimum))).toEqual({ status: VerifyStatus.OK });
    const below = singleSigned(sender, { fee: minFee - 1n });
    const result = setup.fee.verifyTransaction(setup.harness.transactionVerifyContext(below));
    expect(result.status).toBe(VerifyStatus.FAIL);
    expect(result.error?.message).toBe(`Insufficient transaction fee. Minimum required fee is ${1000n * BigInt(below.size)}.`);
  });

  it('asks no minimum below maxBlockHeightZeroFeePerByte', () => {
    const setup = setupFee({ feeConfig: { maxBlockHeightZeroFeePerByte: 11 }, header: { height: 10 } });
    fund(setup, senderAddress, 10n);
    expect(setup.fee.verifyTransaction(setup.harness.transactionVerifyContext(singleSigned(sender, { fee: 0n }))).status).toBe(
      VerifyStatus.OK,
    );
    const atLimit = setupFee({ feeConfig: { maxBlockHeightZeroFeePerByte: 10 }, header: { height: 10 } });
    fund(atLimit, senderAddress, 10n);
    expect(atLimit.fee.verifyTransaction(atLimit.harness.transactionVerifyContext(singleSigned(sender, { fee: 0n }))).status).toBe(
      VerifyStatus.FAIL,
    );
  });

  it('demands fee ≤ available balance of the fee token (locked amounts do not count)', () => {
    const setup = setupFee();
    const tx = singleSigned(sender, { fee: 500_000n });
    const verify = () => setup.fee.verifyTransaction(setup.harness.transactionVerifyContext(tx));
    expect(verify().error?.message).toBe('Insufficient balance.');
    fund(setup, senderAddress, 499_999n, [{ module: 'pos', amount: 10n ** 10n }]);
    expect(verify().error?.message).toBe('Insufficient balance.');
    fund(setup, senderAddress, 500_000n);
    expect(verify().status).toBe(VerifyStatus.OK);
  });

  it('uses minFeePerByte from the config', () => {
    const setup = setupFee({ feeConfig: { minFeePerByte: 2000 } });
    fund(setup, senderAddress, 10n ** 9n);
    const tx = singleSigned(sender, { fee: 1000n * 200n });
    expect(setup.fee.verifyTransaction(setup.harness.transactionVerifyContext(tx)).error?.message).toBe(
      `Insufficient transaction fee. Minimum required fee is ${2000n * BigInt(tx.size)}.`,
    );
  });
});

describe('fee beforeCommandExecute / afterCommandExecute', () => {
  const fee = 1_000_000n;

  function runHooks(
    options: {
      generatorAccount?: boolean;
      poolAccount?: boolean;
      poolConfigured?: boolean;
      command?: (s: ReturnType<typeof setupFee>) => void;
    } = {},
  ) {
    const setup = setupFee({
      header: { generatorAddress: generator },
      feeConfig: options.poolConfigured ? { feePoolAddress: 'lskzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz5fw596' } : {},
    });
    fund(setup, senderAddress, 5_000_000n);
    if (options.generatorAccount) fund(setup, generator, 7n);
    if (options.poolAccount) fund(setup, Buffer.alloc(20, 0), 0n);
    const tx = singleSigned(sender, { fee });
    const minFee = 1000n * BigInt(tx.size);
    const context = setup.harness.transactionExecuteContext(tx);
    setup.fee.beforeCommandExecute(context);
    const afterBefore = {
      sender: account(setup, senderAddress),
      available: setup.harness.contextStore.get(AVAILABLE),
    };
    options.command?.(setup);
    setup.fee.afterCommandExecute(context);
    return { setup, tx, minFee, afterBefore };
  }

  it('locks the whole fee and records fee − minimum as available', () => {
    const { afterBefore, minFee } = runHooks();
    expect(afterBefore.sender).toEqual({ availableBalance: 4_000_000n, lockedBalances: [{ module: 'fee', amount: fee }] });
    expect(afterBefore.available).toBe(fee - minFee);
  });

  it('burns everything when the generator has no fee-token account', () => {
    const { setup, tx } = runHooks();
    expect(account(setup, senderAddress)).toEqual({ availableBalance: 4_000_000n, lockedBalances: [] });
    expect(account(setup, generator)).toBeUndefined();
    expect(totalSupply(setup)).toBe(10n ** 12n - fee);
    expect(setup.harness.contextStore.has(AVAILABLE)).toBe(false);
    const events = setup.harness.events.events();
    expect(eventSummary(events)).toEqual(['token:lock', 'token:unlock', 'token:burn', 'fee:generatorFeeProcessed']);
    const last = events[3];
    expect(last?.topics).toEqual([Buffer.concat([Buffer.from([4]), tx.id]), senderAddress, generator]);
    expect(last?.data).toEqual(
      codec.encode(generatorFeeProcessedEvent.schema, {
        senderAddress,
        generatorAddress: generator,
        burntAmount: fee,
        generatorAmount: 0n,
      }),
    );
  });

  it('pays fee − minimum to a generator with an account and burns the minimum', () => {
    const { setup, minFee } = runHooks({ generatorAccount: true });
    expect(account(setup, generator)?.availableBalance).toBe(7n + fee - minFee);
    expect(account(setup, senderAddress)?.availableBalance).toBe(4_000_000n);
    expect(totalSupply(setup)).toBe(10n ** 12n - minFee);
    const events = setup.harness.events.events();
    expect(eventSummary(events)).toEqual(['token:lock', 'token:unlock', 'token:transfer', 'token:burn', 'fee:generatorFeeProcessed']);
    expect(codec.decode(generatorFeeProcessedEvent.schema, events[4]?.data as Buffer)).toEqual({
      senderAddress,
      generatorAddress: generator,
      burntAmount: minFee,
      generatorAmount: fee - minFee,
    });
  });

  it('sends the consumed fee to a fee pool that has an account (still reported as burntAmount)', () => {
    const { setup, minFee } = runHooks({ generatorAccount: true, poolConfigured: true, poolAccount: true });
    expect(account(setup, Buffer.alloc(20, 0))?.availableBalance).toBe(minFee);
    expect(totalSupply(setup)).toBe(10n ** 12n);
    const events = setup.harness.events.events();
    expect(eventSummary(events)).toEqual(['token:lock', 'token:unlock', 'token:transfer', 'token:transfer', 'fee:generatorFeeProcessed']);
    expect(codec.decode(generatorFeeProcessedEvent.schema, events[4]?.data as Buffer)).toMatchObject({ burntAmount: minFee });
  });

  it('burns when the configured fee pool has no account', () => {
    const { setup, minFee } = runHooks({ generatorAccount: true, poolConfigured: true });
    expect(account(setup, Buffer.alloc(20, 0))).toBeUndefined();
    expect(totalSupply(setup)).toBe(10n ** 12n - minFee);
  });

  it('pays the generator only what payFee left', () => {
    const { setup, minFee } = runHooks({
      generatorAccount: true,
      command: (s) => s.fee.method.payFee(s.harness.transactionExecuteContext(singleSigned(sender)), 300_000n),
    });
    expect(account(setup, generator)?.availableBalance).toBe(7n + fee - minFee - 300_000n);
    expect(totalSupply(setup)).toBe(10n ** 12n - minFee - 300_000n);
  });

  it('rejects a fee below the minimum before locking anything', () => {
    const setup = setupFee();
    fund(setup, senderAddress, 5_000_000n);
    const tx = singleSigned(sender, { fee: 10n });
    expect(() => setup.fee.beforeCommandExecute(setup.harness.transactionExecuteContext(tx))).toThrow(
      `Insufficient transaction fee. Minimum required fee is ${1000n * BigInt(tx.size)}.`,
    );
    expect(account(setup, senderAddress)).toEqual({ availableBalance: 5_000_000n, lockedBalances: [] });
    expect(setup.harness.events.events()).toEqual([]);
  });

  it('fails (block invalid) when the sender cannot cover the fee at execution', () => {
    const setup = setupFee();
    fund(setup, senderAddress, 10n);
    expect(() => setup.fee.beforeCommandExecute(setup.harness.transactionExecuteContext(singleSigned(sender, { fee })))).toThrow();
  });

  it('locks nothing for a zero fee in the zero-fee period', () => {
    const setup = setupFee({ feeConfig: { maxBlockHeightZeroFeePerByte: 100 }, header: { generatorAddress: generator } });
    fund(setup, senderAddress, 0n);
    const context = setup.harness.transactionExecuteContext(singleSigned(sender, { fee: 0n }));
    setup.fee.beforeCommandExecute(context);
    setup.fee.afterCommandExecute(context);
    expect(eventSummary(setup.harness.events.events())).toEqual(['fee:generatorFeeProcessed']);
  });
});

describe('fee payFee', () => {
  function executeContext() {
    const setup = setupFee();
    const context = setup.harness.transactionExecuteContext(singleSigned(sender));
    return { setup, context };
  }

  it('deducts from the available fee', () => {
    const { setup, context } = executeContext();
    setup.harness.contextStore.set(AVAILABLE, 1000n);
    setup.fee.method.payFee(context, 400n);
    setup.fee.method.payFee(context, 600n);
    expect(setup.harness.contextStore.get(AVAILABLE)).toBe(0n);
    expect(setup.harness.events.events()).toEqual([]);
  });

  it('on shortfall: non-revertible insufficientFee, available fee forfeited, command fails', () => {
    const { setup, context } = executeContext();
    setup.harness.contextStore.set(AVAILABLE, 1000n);
    const eventSnapshot = setup.harness.events.snapshot();
    expect(() => setup.fee.method.payFee(context, 1001n)).toThrow('Transaction ran out of fee.');
    expect(setup.harness.contextStore.has(AVAILABLE)).toBe(false);
    // The state machine reverts the command's events; this one stays.
    setup.harness.events.restore(eventSnapshot);
    const events = setup.harness.events.events();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ module: 'fee', name: 'insufficientFee', data: Buffer.alloc(0) });
    expect(events[0]?.topics).toEqual([Buffer.concat([Buffer.from([4]), singleSigned(sender).id])]);
  });

  it('outside a transaction nothing is available', () => {
    const { setup, context } = executeContext();
    expect(() => setup.fee.method.payFee(context, 1n)).toThrow('Transaction ran out of fee.');
    expect(() => setup.fee.method.payFee(context, 0n)).not.toThrow();
  });

  it('charges the cross-chain message fee while a CCM is processed', () => {
    const { setup, context } = executeContext();
    const store = setup.harness.contextStore;
    store.set('CONTEXT_STORE_KEY_CCM_PROCESSING', true);
    store.set('CONTEXT_STORE_KEY_AVAILABLE_CCM_FEE', 50n);
    store.set(AVAILABLE, 1000n);
    setup.fee.method.payFee(context, 20n);
    expect(store.get('CONTEXT_STORE_KEY_AVAILABLE_CCM_FEE')).toBe(30n);
    expect(store.get(AVAILABLE)).toBe(1000n);
    expect(() => setup.fee.method.payFee(context, 31n)).toThrow('Cross-chain message ran out of fee.');
    expect(store.has('CONTEXT_STORE_KEY_AVAILABLE_CCM_FEE')).toBe(false);
    expect(store.get(AVAILABLE)).toBe(1000n);
  });

  it('rejects context values of the wrong type', () => {
    const { setup, context } = executeContext();
    setup.harness.contextStore.set(AVAILABLE, 5);
    expect(() => setup.fee.method.payFee(context, 1n)).toThrow(TypeError);
  });
});

describe('fee with a real token transfer to a new account (user-account initialization fee)', () => {
  const recipient = Buffer.alloc(20, 0x11);

  function transfer(feeAboveMinimum: bigint) {
    const setup = setupFee({ header: { generatorAddress: generator } });
    fund(setup, senderAddress, 10n ** 9n);
    const command = setup.token.commands.find((c) => c.name === 'transfer');
    const params = { tokenID: setup.tokenID, amount: 100n, recipientAddress: recipient, data: '' };
    const paramsBytes = codec.encode(command!.schema, params);
    // Same varint length of the fee as the real one, so the same size.
    const probe = singleSigned(sender, { fee: 10_000_000n, params: paramsBytes });
    const tx = singleSigned(sender, { fee: 1000n * BigInt(probe.size) + feeAboveMinimum, params: paramsBytes });
    expect(tx.size).toBe(probe.size);
    const context = setup.harness.transactionExecuteContext(tx);
    setup.fee.beforeCommandExecute(context);
    const stateSnapshot = setup.harness.state.snapshot();
    const eventSnapshot = setup.harness.events.snapshot();
    let failed = false;
    try {
      void command!.execute({ ...context, params });
    } catch {
      failed = true;
      setup.harness.state.restore(stateSnapshot);
      setup.harness.events.restore(eventSnapshot);
    }
    setup.fee.afterCommandExecute(context);
    return { setup, tx, failed };
  }

  it('succeeds when the fee covers the 0.05 LSK initialization fee', () => {
    const { setup, failed, tx } = transfer(5_000_000n);
    expect(failed).toBe(false);
    expect(account(setup, recipient)?.availableBalance).toBe(100n);
    expect(account(setup, senderAddress)?.availableBalance).toBe(10n ** 9n - 100n - tx.fee);
    expect(totalSupply(setup)).toBe(10n ** 12n - tx.fee);
  });

  it('fails the command with insufficientFee when it does not, and burns the whole fee', () => {
    const { setup, failed, tx } = transfer(4_999_999n);
    expect(failed).toBe(true);
    expect(account(setup, recipient)).toBeUndefined();
    expect(account(setup, senderAddress)?.availableBalance).toBe(10n ** 9n - tx.fee);
    expect(eventSummary(setup.harness.events.events())).toEqual([
      'token:lock',
      'fee:insufficientFee',
      'token:unlock',
      'token:burn',
      'fee:generatorFeeProcessed',
    ]);
  });
});
