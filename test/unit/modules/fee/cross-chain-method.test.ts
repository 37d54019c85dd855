/**
 * FeeCrossChainMethod (lisk-sdk fee/cc_method.ts) with the real token module: the relayer's message
 * fee is locked around the message's command, what payFee consumed is burnt or sent to the fee
 * pool, and `relayerFeeProcessed` reports the split under the message's topic. Built on the
 * interop-dev pair's sidechain height 22 (a 0.1 LSK message fee, 0.05 LSK of it spent on a new
 * account).
 */
import { describe, expect, it } from 'vitest';
import { encodeLisk32 } from '../../../../src/crypto/index.js';
import { InvariantError } from '../../../../src/errors.js';
import { CONTEXT_STORE_KEY_AVAILABLE_CCM_FEE } from '../../../../src/modules/fee/constants.js';
import { FeeModule } from '../../../../src/modules/fee/index.js';
import { TokenModule } from '../../../../src/modules/token/index.js';
import { CASES, decodeCcm, LSK, SIDECHAIN_ID, SIDECHAIN_RELAYER, sidechainBench, type CrossChainBench } from '../token/cross-chain-kit.js';
import { testGenesisConfig } from '../../../support/module-harness.js';

const SIDECHAIN_22 = CASES.sidechain22;
const ccm = decodeCcm(SIDECHAIN_22.ccm);
const POOL = Buffer.from('8a45455fb3b574624d0ed3a3ebe98822947fe33a', 'hex');
const RELAYER_START = 1_000_000_000n;
const INITIALIZATION_FEE = 5_000_000n;

function sidechain(feeConfig: Record<string, unknown> = {}): CrossChainBench {
  return sidechainBench(RELAYER_START, feeConfig);
}

function feeEvents(bench: CrossChainBench) {
  return bench.eventsJSON().filter((event) => event.name !== 'beforeCCCExecution' && event.name !== 'initializeUserAccount');
}

describe('fee cross-chain hooks', () => {
  it('lock the message fee and offer it to payFee, then release it and burn what was consumed', () => {
    const bench = sidechain();
    const context = bench.context(ccm, SIDECHAIN_22.txID, SIDECHAIN_RELAYER);
    bench.setBalance(SIDECHAIN_RELAYER, LSK, RELAYER_START + ccm.fee);
    bench.fee.crossChainMethod.beforeCrossChainCommandExecute(context);
    expect(bench.contextStore.get(CONTEXT_STORE_KEY_AVAILABLE_CCM_FEE)).toBe(ccm.fee);

    bench.contextStore.set(CONTEXT_STORE_KEY_AVAILABLE_CCM_FEE, ccm.fee - INITIALIZATION_FEE);
    bench.fee.crossChainMethod.afterCrossChainCommandExecute(context);
    expect(bench.contextStore.has(CONTEXT_STORE_KEY_AVAILABLE_CCM_FEE)).toBe(false);
    expect(bench.balance(SIDECHAIN_RELAYER, LSK)).toBe(RELAYER_START + ccm.fee - INITIALIZATION_FEE);
    // lock, unlock, burn and relayerFeeProcessed exactly as lisk-sdk emitted them at sidechain height 22.
    expect(bench.eventsJSON()).toEqual(
      SIDECHAIN_22.events.filter((event) => ['lock', 'unlock', 'burn', 'relayerFeeProcessed'].includes(event.name)),
    );
  });

  it('send the consumed part to the fee pool when it holds an account of the fee token', () => {
    const bench = sidechain({ feePoolAddress: encodeLisk32(POOL) });
    bench.setBalance(POOL, LSK, 0n);
    expect(bench.apply(ccm, SIDECHAIN_22.txID, SIDECHAIN_RELAYER)).toEqual({});
    expect(bench.balance(POOL, LSK)).toBe(INITIALIZATION_FEE);
    const names = feeEvents(bench).map((event) => event.name);
    expect(names).toEqual(['lock', 'ccmTransfer', 'unlock', 'transfer', 'relayerFeeProcessed']);
    const relayerFeeProcessed = SIDECHAIN_22.events.find((event) => event.name === 'relayerFeeProcessed');
    expect(feeEvents(bench).at(-1)).toEqual(relayerFeeProcessed);
  });

  it('burn it when the configured fee pool has no account', () => {
    const bench = sidechain({ feePoolAddress: encodeLisk32(POOL) });
    expect(bench.apply(ccm, SIDECHAIN_22.txID, SIDECHAIN_RELAYER)).toEqual({});
    expect(bench.balance(POOL, LSK)).toBeUndefined();
    expect(bench.eventsJSON()).toEqual(SIDECHAIN_22.events);
  });

  it('need the interoperability method, which may be supplied after construction', () => {
    const token = new TokenModule();
    const fee = new FeeModule({ token: token.method });
    const genesisConfig = { ...testGenesisConfig, chainID: SIDECHAIN_ID };
    fee.init({ genesisConfig, moduleConfig: {} });
    const bench = sidechain();
    const context = bench.context(ccm, SIDECHAIN_22.txID, SIDECHAIN_RELAYER);
    expect(() => fee.crossChainMethod.beforeCrossChainCommandExecute(context)).toThrow(InvariantError);
    fee.addDependencies({ interoperability: bench.interoperability });
    bench.setBalance(SIDECHAIN_RELAYER, LSK, ccm.fee);
    fee.crossChainMethod.beforeCrossChainCommandExecute(context);
    expect(bench.contextStore.get(CONTEXT_STORE_KEY_AVAILABLE_CCM_FEE)).toBe(ccm.fee);
  });
});
