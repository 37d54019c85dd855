/**
 * Token endpoints (lisk-sdk token/endpoint.ts). Against the dev chain: every token_* answer of
 * chains/dev/final_state.json, computed from the tip state chains/dev/final_state_kv.json
 * (which the lisk-sdk node's SMT root confirms), plus the other endpoints on small states.
 */
import { describe, expect, it } from 'vitest';
import { encodeLisk32 } from '../../../../src/crypto/index.js';
import {
  ALL_SUPPORTED_TOKENS_KEY,
  escrowKey,
  escrowStore,
  supplyStore,
  supportedTokensStore,
  TokenModule,
  userKey,
  userStore,
} from '../../../../src/modules/token/index.js';
import { MemoryState } from '../../../../src/state/memory-state.js';
import { OverlayState } from '../../../../src/state/overlay-state.js';
import { loadJsonFixture } from '../../../support/fixtures.js';
import { caseCounter } from '../../../support/conformance-tally.js';
import { testGenesisConfig } from '../../../support/module-harness.js';
import { callEndpoint, createTokenAndFee, devConfig, LSK_TOKEN_ID } from './token-test-kit.js';

interface RpcAnswer {
  method: string;
  params: Record<string, unknown>;
  result: unknown;
}

interface FinalState {
  perAddress: Record<string, RpcAnswer[]>;
  global: RpcAnswer[];
}

describe('token endpoints at the dev chain tip', () => {
  const finalState = loadJsonFixture<FinalState>('chains/dev/final_state.json');
  const kv = loadJsonFixture<{ entries: [string, string][] }>('chains/dev/final_state_kv.json');
  const state = new MemoryState(kv.entries.map(([key, value]) => ({ key: Buffer.from(key, 'hex'), value: Buffer.from(value, 'hex') })));
  const { token } = createTokenAndFee(devConfig.modules.token);

  const answers = [...Object.values(finalState.perAddress).flat(), ...finalState.global].filter((answer) =>
    answer.method.startsWith('token_'),
  );
  const caseDone = caseCounter('chains/dev/final_state.json');

  it('covers every token_* answer of final_state.json', () => {
    expect(answers.length).toBe(135 * 2 + 4);
  });

  it.each(answers.map((answer) => [`${answer.method} ${JSON.stringify(answer.params)}`, answer] as const))('%s', (_label, answer) => {
    const handler = token.endpoints[answer.method.slice('token_'.length)];
    expect(callEndpoint(handler, state, answer.params)).toStrictEqual(answer.result);
    caseDone();
  });
});

describe('token endpoints on small states', () => {
  const token = new TokenModule();
  token.init({
    genesisConfig: testGenesisConfig,
    moduleConfig: { userAccountInitializationFee: '7', escrowAccountInitializationFee: '9' },
  });
  const alice = Buffer.alloc(20, 0x01);
  const foreignChain = Buffer.from('04000001', 'hex');
  const foreignToken = Buffer.from('0400000100000005', 'hex');

  function stateWith(write: (state: OverlayState) => void): OverlayState {
    const state = new OverlayState(new MemoryState());
    write(state);
    return state;
  }

  it('getBalance: zeros without an account; locked balances as {amount, module}', () => {
    const state = stateWith((s) =>
      userStore.set(s, userKey(alice, LSK_TOKEN_ID), { availableBalance: 5n, lockedBalances: [{ module: 'pos', amount: 2n }] }),
    );
    const params = (tokenID: Buffer) => ({ address: encodeLisk32(alice), tokenID: tokenID.toString('hex') });
    expect(callEndpoint(token.endpoints.getBalance, state, params(LSK_TOKEN_ID))).toStrictEqual({
      availableBalance: '5',
      lockedBalances: [{ amount: '2', module: 'pos' }],
    });
    expect(callEndpoint(token.endpoints.getBalance, state, params(foreignToken))).toStrictEqual({
      availableBalance: '0',
      lockedBalances: [],
    });
  });

  it('getBalances returns every token of the address in token ID order', () => {
    const state = stateWith((s) => {
      userStore.set(s, userKey(alice, foreignToken), { availableBalance: 1n, lockedBalances: [] });
      userStore.set(s, userKey(alice, LSK_TOKEN_ID), { availableBalance: 2n, lockedBalances: [] });
      userStore.set(s, userKey(Buffer.alloc(20, 0x02), LSK_TOKEN_ID), { availableBalance: 3n, lockedBalances: [] });
    });
    expect(callEndpoint(token.endpoints.getBalances, state, { address: encodeLisk32(alice) })).toStrictEqual({
      balances: [
        { tokenID: '0400000000000000', availableBalance: '2', lockedBalances: [] },
        { tokenID: '0400000100000005', availableBalance: '1', lockedBalances: [] },
      ],
    });
  });

  it('getInitializationFees answers the configured fees', () => {
    expect(callEndpoint(token.endpoints.getInitializationFees, new MemoryState())).toStrictEqual({
      userAccount: '7',
      escrowAccount: '9',
    });
  });

  it('getSupportedTokens: LSK, supplies, then per chain a wildcard or the listed tokens; ["*"] when all are supported', () => {
    const state = stateWith((s) => {
      supplyStore.set(s, Buffer.from('0400000000000003', 'hex'), { totalSupply: 1n });
      supportedTokensStore.set(s, foreignChain, { supportedTokenIDs: [] });
      supportedTokensStore.set(s, Buffer.from('04000002', 'hex'), {
        supportedTokenIDs: [Buffer.from('0400000200000001', 'hex')],
      });
    });
    expect(callEndpoint(token.endpoints.getSupportedTokens, state)).toStrictEqual({
      supportedTokens: ['0400000000000000', '0400000000000003', '04000001********', '0400000200000001'],
    });
    supportedTokensStore.set(state, ALL_SUPPORTED_TOKENS_KEY, { supportedTokenIDs: [] });
    expect(callEndpoint(token.endpoints.getSupportedTokens, state)).toStrictEqual({ supportedTokens: ['*'] });
  });

  it('isSupported', () => {
    const state = stateWith((s) => supportedTokensStore.set(s, foreignChain, { supportedTokenIDs: [foreignToken] }));
    const isSupported = (tokenID: string) => callEndpoint(token.endpoints.isSupported, state, { tokenID });
    expect(isSupported('0400000000000000')).toStrictEqual({ supported: true });
    expect(isSupported('0400000000000009')).toStrictEqual({ supported: true });
    expect(isSupported('0400000100000005')).toStrictEqual({ supported: true });
    expect(isSupported('0400000100000006')).toStrictEqual({ supported: false });
    // The LSK token of the network is supported; another network's is not.
    expect(isSupported('0500000000000000')).toStrictEqual({ supported: false });
  });

  it('getEscrowedAmounts and hasEscrowAccount', () => {
    const state = stateWith((s) => escrowStore.set(s, escrowKey(foreignChain, LSK_TOKEN_ID), { amount: 12n }));
    expect(callEndpoint(token.endpoints.getEscrowedAmounts, state)).toStrictEqual({
      escrowedAmounts: [{ escrowChainID: '04000001', amount: '12', tokenID: '0400000000000000' }],
    });
    const has = (escrowChainID: string) =>
      callEndpoint(token.endpoints.hasEscrowAccount, state, { escrowChainID, tokenID: '0400000000000000' });
    expect(has('04000001')).toStrictEqual({ exists: true });
    expect(has('04000002')).toStrictEqual({ exists: false });
  });

  it('hasUserAccount', () => {
    const state = stateWith((s) => userStore.set(s, userKey(alice, LSK_TOKEN_ID), { availableBalance: 0n, lockedBalances: [] }));
    const has = (tokenID: string) => callEndpoint(token.endpoints.hasUserAccount, state, { address: encodeLisk32(alice), tokenID });
    expect(has('0400000000000000')).toStrictEqual({ exists: true });
    expect(has('0400000100000005')).toStrictEqual({ exists: false });
  });

  it('rejects a lisk32 address with a bad checksum', () => {
    const address = encodeLisk32(alice);
    const broken = `${address.slice(0, -1)}${address.endsWith('z') ? 'x' : 'z'}`;
    expect(() => callEndpoint(token.endpoints.getBalances, new MemoryState(), { address: broken })).toThrow();
  });

  it('uses a shared module instance config only after init', () => {
    const fresh = new TokenModule();
    expect(() => callEndpoint(fresh.endpoints.getInitializationFees, new MemoryState())).toThrow(/before init/);
  });
});
