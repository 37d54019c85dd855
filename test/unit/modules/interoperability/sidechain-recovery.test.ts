/**
 * The sidechain's LIP 0054 commands against the real transactions of the interop-dev pair made by
 * lisk-sdk 6.1.0 (sidechain heights 197-198), each run on the state as it was before its block:
 * initializeStateRecovery proves stale's chain account in the mainchain state root the sidechain
 * had certified and creates stale's terminated state; recoverState then recovers stale's tokens
 * from it. Then the verification failures in lisk-sdk's order.
 */
import { describe, expect, it } from 'vitest';
import { codec } from '../../../../src/codec/index.js';
import {
  VerifyStatus,
  type Command,
  type CommandExecuteContext,
  type CommandVerifyContext,
  type InteroperableModule,
  type RecoverContext,
  type VerificationResult,
} from '../../../../src/modules/base/index.js';
import {
  InitializeStateRecoveryCommand,
  type StateRecoveryInitParams,
} from '../../../../src/modules/interoperability/commands/initialize-state-recovery.js';
import { SidechainRecoverStateCommand } from '../../../../src/modules/interoperability/commands/recover-state.js';
import {
  chainAccountStore,
  chainDataSchema,
  EMPTY_HASH,
  stateRecoveryParamsSchema,
  terminatedStateStore,
  type ChainAccount,
} from '../../../../src/modules/interoperability/index.js';
import type { StateRecoveryParams } from '../../../../src/modules/interoperability/state-recovery.js';
import type { MemoryState } from '../../../../src/state/memory-state.js';
import type { ModuleHarness } from '../../../support/module-harness.js';
import {
  eventData,
  harnessAt,
  harnessEvents,
  MAINCHAIN_ID,
  putRaw,
  registryOf,
  SIDECHAIN_ID,
  STALE_ID,
  tipState,
  transactionEvents,
  workloadTransaction,
} from './interop-dev-state.js';

const side = 'sidechain';
const PHANTOM_ID = Buffer.from('04000077', 'hex');

/** The harness's contexts are the mainchain's; the sidechain's commands must see its own chain ID. */
function verifyContext<P>(harness: ModuleHarness, transaction: Parameters<ModuleHarness['commandVerifyContext']>[0], params: P) {
  return { ...harness.commandVerifyContext(transaction, params), chainID: SIDECHAIN_ID } satisfies CommandVerifyContext<P>;
}
function executeContext<P>(harness: ModuleHarness, transaction: Parameters<ModuleHarness['commandExecuteContext']>[0], params: P) {
  return { ...harness.commandExecuteContext(transaction, params), chainID: SIDECHAIN_ID } satisfies CommandExecuteContext<P>;
}
function verifyWith<P>(
  command: Command<P>,
  harness: ModuleHarness,
  transaction: Parameters<ModuleHarness['commandVerifyContext']>[0],
  params: P,
) {
  return command.verify?.(verifyContext(harness, transaction, params)) as VerificationResult;
}
function expectFail(result: VerificationResult, message: string): void {
  expect(result.status).toBe(VerifyStatus.FAIL);
  expect(result.error?.message).toBe(message);
}

/** The state before height 197: no terminated state for stale, the mainchain account as last certified before it (height 194). */
function before197(): MemoryState {
  const state = tipState(side);
  putRaw(state, terminatedStateStore, STALE_ID, undefined);
  putRaw(state, chainAccountStore, MAINCHAIN_ID, eventData(side, 194, 'chainAccountUpdated', MAINCHAIN_ID));
  return state;
}

/** The state before height 198: stale's terminated state as height 197 created it. */
function before198(): MemoryState {
  const state = tipState(side);
  putRaw(state, terminatedStateStore, STALE_ID, eventData(side, 197, 'terminatedStateCreated', STALE_ID));
  return state;
}

/** The terminated state of stale is initialized with the state root certified in its proven account. */
function expectInitializedFrom(harness: ModuleHarness, params: StateRecoveryInitParams): void {
  const account = codec.decode<ChainAccount>(chainDataSchema, params.sidechainAccount);
  expect(terminatedStateStore.get(harness.state, STALE_ID)).toEqual({
    stateRoot: account.lastCertificate.stateRoot,
    mainchainStateRoot: EMPTY_HASH,
    initialized: true,
  });
}

describe('initializeStateRecovery (sidechain)', () => {
  const command = new InitializeStateRecoveryCommand();

  it('at height 197 proves stale in the certified mainchain state root and creates its terminated state', () => {
    const { transaction, params } = workloadTransaction<StateRecoveryInitParams>(side, 52, command.schema);
    const harness = harnessAt(side, before197(), 197);
    expect(verifyWith(command, harness, transaction, params)).toEqual({ status: VerifyStatus.OK });
    command.execute(executeContext(harness, transaction, params));

    expectInitializedFrom(harness, params);
    expect(harnessEvents(harness)).toEqual(
      transactionEvents(side, 197, transaction.id).filter((event) => event.module === 'interoperability'),
    );
    expect(harnessEvents(harness).map((event) => event.name)).toEqual(['terminatedStateCreated']);
  });

  it('proves against the mainchain root saved in an uninitialized terminated state, which it overwrites without an event', () => {
    const { transaction, params } = workloadTransaction<StateRecoveryInitParams>(side, 52, command.schema);
    const state = before197();
    const certifiedRoot = chainAccountStore.get(state, MAINCHAIN_ID)!.lastCertificate.stateRoot;
    const harness = harnessAt(side, state, 197);
    terminatedStateStore.set(harness.state, STALE_ID, { stateRoot: EMPTY_HASH, mainchainStateRoot: certifiedRoot, initialized: false });
    command.execute(executeContext(harness, transaction, params));
    expectInitializedFrom(harness, params);
    expect(harnessEvents(harness)).toEqual([]);
  });

  it('fails in execution with invalidSMTVerification when the proof does not match, naming the root it used', () => {
    const { transaction, params } = workloadTransaction<StateRecoveryInitParams>(side, 52, command.schema);
    const harness = harnessAt(side, tipState(side), 197);
    putRaw(harness.base, terminatedStateStore, STALE_ID, undefined);
    // At the tip the sidechain has certified a later mainchain state root than the proof's.
    expect(() => command.execute(executeContext(harness, transaction, params))).toThrow(
      'State recovery initialization proof of inclusion is not valid for mainchainID: 04000000.',
    );
    expect(harnessEvents(harness).map((event) => event.name)).toEqual(['invalidSMTVerification']);

    const other = harnessAt(side, before197(), 197);
    terminatedStateStore.set(other.state, STALE_ID, { stateRoot: EMPTY_HASH, mainchainStateRoot: EMPTY_HASH, initialized: false });
    expect(() => command.execute(executeContext(other, transaction, params))).toThrow(
      'State recovery initialization proof of inclusion is not valid for given chainID: 04000078..',
    );
  });

  it('refuses stale again once initialized, as lisk-sdk refused workload #54 in the pool', () => {
    const { transaction, params, line } = workloadTransaction<StateRecoveryInitParams>(side, 54, command.schema);
    expectFail(verifyWith(command, harnessAt(side, tipState(side), 198), transaction, params), line.pool.error!.message);
    expect(line.pool.error!.message).toBe('Sidechain is already terminated.');
  });

  it('verification failures in lisk-sdk order', () => {
    const { transaction, params } = workloadTransaction<StateRecoveryInitParams>(side, 52, command.schema);
    const harness = harnessAt(side, before197(), 197);
    const account = codec.decode<ChainAccount>(chainDataSchema, params.sidechainAccount);
    const verify = (overrides: Partial<StateRecoveryInitParams>) => verifyWith(command, harness, transaction, { ...params, ...overrides });
    const withAccount = (changes: Partial<ChainAccount>) => codec.encode(chainDataSchema, { ...account, ...changes });

    expectFail(verify({ chainID: MAINCHAIN_ID }), 'Chain ID is not valid.');
    expectFail(verify({ chainID: SIDECHAIN_ID }), 'Chain ID is not valid.');
    expectFail(verify({ sidechainAccount: withAccount({ status: 0 }) }), 'Sidechain has status registered.');
    const mainchain = chainAccountStore.get(harness.state, MAINCHAIN_ID)!;
    const recent = { ...account.lastCertificate, timestamp: mainchain.lastCertificate.timestamp - 2_419_200 };
    expectFail(
      verify({ sidechainAccount: withAccount({ lastCertificate: recent }) }),
      'Sidechain is still active and obeys the liveness requirement.',
    );
    expect(verify({ sidechainAccount: withAccount({ lastCertificate: { ...recent, timestamp: recent.timestamp - 1 } }) })).toEqual({
      status: VerifyStatus.OK,
    });
    expect(verify({ sidechainAccount: withAccount({ status: 2, lastCertificate: recent }) })).toEqual({ status: VerifyStatus.OK });
    expect(() => verify({ sidechainAccount: Buffer.from('0a', 'hex') })).toThrow();
  });
});

describe('recoverState (sidechain)', () => {
  it('at height 198 recovers the stale tokens and marks them recovered in its terminated state root', async () => {
    const { transaction, params } = workloadTransaction<StateRecoveryParams>(side, 53, stateRecoveryParamsSchema);
    const calls: RecoverContext[] = [];
    const token: InteroperableModule = { name: 'token', crossChainMethod: { recover: (context) => void calls.push(context) } };
    const command = new SidechainRecoverStateCommand(registryOf([token]));
    const harness = harnessAt(side, before198(), 198);
    expect(verifyWith(command, harness, transaction, params)).toEqual({ status: VerifyStatus.OK });
    await command.execute(executeContext(harness, transaction, params));

    expect(
      calls.map((call) => [call.chainID, call.terminatedChainID, call.storeKey, call.storeValue].map((b) => b.toString('hex'))),
    ).toEqual([['04000001', '04000078', '644f5ef800272f9b4e833e0b848bee8d50c82f2a0400000100000000', '088090dfc04a']]);
    expect(terminatedStateStore.get(harness.state, STALE_ID)).toEqual(terminatedStateStore.get(tipState(side), STALE_ID));
    expect(harnessEvents(harness)).toEqual([]);
  });

  it('refuses a chain the sidechain never terminated', () => {
    const { transaction, params } = workloadTransaction<StateRecoveryParams>(side, 53, stateRecoveryParamsSchema);
    const command = new SidechainRecoverStateCommand(registryOf([]));
    expectFail(
      verifyWith(command, harnessAt(side, before198(), 198), transaction, { ...params, chainID: PHANTOM_ID }),
      'The terminated state does not exist.',
    );
  });
});
