/**
 * The mainchain's LIP 0054 commands against the real transactions of the interop-dev pair made
 * by lisk-sdk 6.1.0 (mainchain heights 185-188), each run on the state as it was before its
 * block: terminateSidechainForLiveness fails in execution (send without timestamp), recoverState
 * succeeds, initializeMessageRecovery succeeds with terminatedOutboxCreated, recoverMessage fails
 * in execution (proof over raw messages), the replayed recoverState fails in execution. Then the
 * verification failures in lisk-sdk's order, and message recovery past the proof (reachable only
 * with a proof built over raw messages) for both the apply and the forward path.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { codec } from '../../../../src/codec/index.js';
import { sha256 } from '../../../../src/crypto/sha256.js';
import { calculateRootFromUpdateData, generateProof, merkleRoot, verifyDataBlock } from '../../../../src/merkle/rmt/index.js';
import {
  VerifyStatus,
  type Command,
  type CrossChainCommand,
  type CrossChainCommandExecuteContext,
  type CrossChainMessageContext,
  type InteroperableModule,
  type RecoverContext,
  type VerificationResult,
} from '../../../../src/modules/base/index.js';
import {
  InitializeMessageRecoveryCommand,
  type MessageRecoveryInitializationParams,
} from '../../../../src/modules/interoperability/commands/initialize-message-recovery.js';
import { RecoverMessageCommand, type MessageRecoveryParams } from '../../../../src/modules/interoperability/commands/recover-message.js';
import { RecoverStateCommand } from '../../../../src/modules/interoperability/commands/recover-state.js';
import {
  chainAccountStore,
  channelDataStore,
  ccmSchema,
  messageRecoveryInitializationParamsSchema,
  messageRecoveryParamsSchema,
  stateRecoveryParamsSchema,
  terminatedOutboxStore,
  terminatedStateStore,
  terminateSidechainForLivenessParamsSchema,
  type CrossChainMessage,
} from '../../../../src/modules/interoperability/index.js';
import type { StateRecoveryParams } from '../../../../src/modules/interoperability/state-recovery.js';
import { crossChainTransferMessageParamsSchema } from '../../../../src/modules/token/schemas.js';
import type { MemoryState } from '../../../../src/state/memory-state.js';
import type { ModuleHarness } from '../../../support/module-harness.js';
import {
  eventData,
  harnessAt,
  harnessEvents,
  MAINCHAIN_ID,
  PHANTOM_ID,
  putRaw,
  registryOf,
  SIDECHAIN_ID,
  STALE_ID,
  tipState,
  transactionEvents,
  workloadTransaction,
} from './interop-dev-state.js';
import { createModules } from './setup.js';

const side = 'mainchain';
type Verifiable<P> = Command<P> & { verify: NonNullable<Command<P>['verify']> };

function verifyWith<P>(
  command: Command<P>,
  harness: ModuleHarness,
  transaction: Parameters<ModuleHarness['commandVerifyContext']>[0],
  params: P,
) {
  return (command as Verifiable<P>).verify(harness.commandVerifyContext(transaction, params)) as VerificationResult;
}

function expectFail(result: VerificationResult, message: string): void {
  expect(result.status).toBe(VerifyStatus.FAIL);
  expect(result.error?.message).toBe(message);
}

/** A `token` stand-in that records the recover calls (the token module's recovery is not under test here). */
function recordingToken(fail = false) {
  const calls: RecoverContext[] = [];
  const module: InteroperableModule = {
    name: 'token',
    crossChainMethod: {
      recover(context) {
        if (fail) throw new Error('nothing to recover');
        calls.push(context);
      },
    },
  };
  return { module, calls };
}

describe('terminateSidechainForLiveness (mainchain)', () => {
  const command = createModules().interoperability.commands.find((c) => c.name === 'terminateSidechainForLiveness')!;

  it('refuses the live sidechain as lisk-sdk refused workload #39 in the pool', () => {
    const { transaction, params, line } = workloadTransaction(side, 39, terminateSidechainForLivenessParamsSchema);
    const harness = harnessAt(side, tipState(side), 169);
    expectFail(verifyWith(command, harness, transaction, params), line.pool.error!.message);
    expect(line.pool.error!.message).toBe('Sidechain did not violate the liveness condition.');
  });

  it('at height 185 passes verification for stale and fails in execution: the channelTerminated send has no timestamp', async () => {
    const { transaction, params } = workloadTransaction(side, 46, terminateSidechainForLivenessParamsSchema);
    const state = tipState(side);
    putRaw(state, chainAccountStore, STALE_ID, eventData(side, 184, 'chainAccountUpdated', STALE_ID));
    const harness = harnessAt(side, state, 185);
    expect(verifyWith(command, harness, transaction, params)).toEqual({ status: VerifyStatus.OK });
    await expect(async () => command.execute(harness.commandExecuteContext(transaction, params))).rejects.toThrow(
      'Timestamp must be provided in mainchain context.',
    );
    // Nothing was written before the refusal, and lisk-sdk logged nothing for this transaction.
    expect(harness.state.changes()).toEqual([]);
    expect(harnessEvents(harness)).toEqual([]);
    expect(transactionEvents(side, 185, transaction.id).filter((event) => event.module === 'interoperability')).toEqual([]);
  });

  it('refuses an unknown chain and a terminated one', () => {
    const harness = harnessAt(side, tipState(side), 188);
    const { transaction } = workloadTransaction(side, 46, terminateSidechainForLivenessParamsSchema);
    expectFail(verifyWith(command, harness, transaction, { chainID: Buffer.from('04000099', 'hex') }), 'Chain account does not exist.');
    expectFail(verifyWith(command, harness, transaction, { chainID: PHANTOM_ID }), 'Sidechain is already terminated.');
  });
});

describe('recoverState (mainchain)', () => {
  /** The state before height 186: phantom's terminated state as height 185 created it. */
  function before186(): MemoryState {
    const state = tipState(side);
    putRaw(state, terminatedStateStore, PHANTOM_ID, eventData(side, 185, 'terminatedStateCreated', PHANTOM_ID));
    return state;
  }

  it('at height 186 proves the pu0 LSK entry, lets token recover it and marks it recovered in the terminated state root', async () => {
    const { transaction, params } = workloadTransaction<StateRecoveryParams>(side, 48, stateRecoveryParamsSchema);
    const token = recordingToken();
    const command = new RecoverStateCommand(registryOf([token.module]));
    const harness = harnessAt(side, before186(), 186);
    expect(verifyWith(command, harness, transaction, params)).toEqual({ status: VerifyStatus.OK });
    await command.execute(harness.commandExecuteContext(transaction, params));

    expect(token.calls).toHaveLength(1);
    const [call] = token.calls as [RecoverContext];
    expect({
      module: call.module,
      terminatedChainID: call.terminatedChainID.toString('hex'),
      chainID: call.chainID.toString('hex'),
      substorePrefix: call.substorePrefix.toString('hex'),
      storeKey: call.storeKey.toString('hex'),
      storeValue: call.storeValue.toString('hex'),
    }).toEqual({
      module: 'token',
      terminatedChainID: '04000077',
      chainID: '04000000',
      substorePrefix: '0000',
      storeKey: '630e55fcc5e86fc2f32e9a489d3a7610b723eb630400000000000000',
      storeValue: '0880bcc1960b',
    });
    // The root lisk-sdk stored (the tip still holds it: nothing changed it afterwards).
    expect(terminatedStateStore.get(harness.state, PHANTOM_ID)).toEqual(terminatedStateStore.get(tipState(side), PHANTOM_ID));
    expect(terminatedStateStore.get(harness.state, PHANTOM_ID)?.stateRoot).not.toEqual(
      terminatedStateStore.get(before186(), PHANTOM_ID)?.stateRoot,
    );
    // The interoperability module itself logs nothing on success (token's events are token's).
    expect(harnessEvents(harness)).toEqual([]);
    expect(transactionEvents(side, 186, transaction.id).map((event) => `${event.module}:${event.name}`)).toEqual([
      'token:lock',
      'token:initializeUserAccount',
      'token:recover',
      'token:unlock',
      'token:burn',
      'fee:generatorFeeProcessed',
    ]);
  });

  it('at height 188 fails in execution: the proof is for the root before the first recovery', async () => {
    const { transaction, params } = workloadTransaction<StateRecoveryParams>(side, 51, stateRecoveryParamsSchema);
    const token = recordingToken();
    const command = new RecoverStateCommand(registryOf([token.module]));
    const harness = harnessAt(side, tipState(side), 188);
    expect(verifyWith(command, harness, transaction, params)).toEqual({ status: VerifyStatus.OK });
    await expect(command.execute(harness.commandExecuteContext(transaction, params))).rejects.toThrow(
      'State recovery proof of inclusion is not valid.',
    );
    expect(token.calls).toEqual([]);
    expect(harness.state.changes()).toEqual([]);
    // Emitted, then reverted with the failed command by the state machine (none in the block).
    expect(harnessEvents(harness)).toEqual([
      { module: 'interoperability', name: 'invalidSMTVerification', data: '', topics: [`04${transaction.id.toString('hex')}`] },
    ]);
    expect(transactionEvents(side, 188, transaction.id).filter((event) => event.module === 'interoperability')).toEqual([]);
  });

  it('fails when the module recovery throws', async () => {
    const { transaction, params } = workloadTransaction<StateRecoveryParams>(side, 48, stateRecoveryParamsSchema);
    const command = new RecoverStateCommand(registryOf([recordingToken(true).module]));
    const harness = harnessAt(side, before186(), 186);
    await expect(command.execute(harness.commandExecuteContext(transaction, params))).rejects.toThrow('Recovery failed for module: token');
  });

  it('verification failures in lisk-sdk order', () => {
    const { transaction, params } = workloadTransaction<StateRecoveryParams>(side, 48, stateRecoveryParamsSchema);
    const fee: InteroperableModule = { name: 'fee', crossChainMethod: {} };
    const command = new RecoverStateCommand(registryOf([fee, recordingToken().module]));
    const state = before186();
    const harness = harnessAt(side, state, 186);
    const verify = (overrides: Partial<StateRecoveryParams>) => verifyWith(command, harness, transaction, { ...params, ...overrides });

    expectFail(verify({ chainID: STALE_ID }), 'The terminated state does not exist.');
    expectFail(verify({ module: 'nft' }), 'Module is not registered on the chain.');
    expectFail(verify({ module: 'fee' }), "Module is not recoverable, as it doesn't have a recover method.");
    expectFail(
      verify({ storeEntries: [params.storeEntries[0]!, params.storeEntries[0]!] }),
      'Recoverable store keys are not pairwise distinct.',
    );
    const account = terminatedStateStore.get(state, PHANTOM_ID)!;
    terminatedStateStore.set(harness.state, PHANTOM_ID, { ...account, initialized: false });
    expectFail(verify({}), 'The terminated state is not initialized.');
  });
});

describe('initializeMessageRecovery', () => {
  const command = new InitializeMessageRecoveryCommand();
  /** The state before height 187: no terminated outbox yet. */
  function before187(): MemoryState {
    const state = tipState(side);
    putRaw(state, terminatedOutboxStore, PHANTOM_ID, undefined);
    return state;
  }

  it('at height 187 proves phantom channel in its terminated state root and creates the terminated outbox', () => {
    const { transaction, params } = workloadTransaction<MessageRecoveryInitializationParams>(
      side,
      49,
      messageRecoveryInitializationParamsSchema,
    );
    const harness = harnessAt(side, before187(), 187);
    expect(verifyWith(command, harness, transaction, params)).toEqual({ status: VerifyStatus.OK });
    command.execute(harness.commandExecuteContext(transaction, params));

    expect(terminatedOutboxStore.get(harness.state, PHANTOM_ID)).toEqual(terminatedOutboxStore.get(tipState(side), PHANTOM_ID));
    expect(terminatedOutboxStore.get(harness.state, PHANTOM_ID)).toMatchObject({ outboxSize: 3, partnerChainInboxSize: 1 });
    expect(harnessEvents(harness)).toEqual(
      transactionEvents(side, 187, transaction.id).filter((event) => event.module === 'interoperability'),
    );
    expect(harnessEvents(harness).map((event) => event.name)).toEqual(['terminatedOutboxCreated']);
  });

  it('fails in execution with invalidSMTVerification for a wrong proof', () => {
    const { transaction, params } = workloadTransaction<MessageRecoveryInitializationParams>(
      side,
      49,
      messageRecoveryInitializationParamsSchema,
    );
    const harness = harnessAt(side, before187(), 187);
    const wrong = { ...params, siblingHashes: [...params.siblingHashes].reverse() };
    expect(() => command.execute(harness.commandExecuteContext(transaction, wrong))).toThrow(
      'Message recovery initialization proof of inclusion is not valid.',
    );
    expect(harnessEvents(harness).map((event) => event.name)).toEqual(['invalidSMTVerification']);
    expect(harness.state.changes()).toEqual([]);
  });

  it('verification failures in lisk-sdk order', () => {
    const { transaction, params } = workloadTransaction<MessageRecoveryInitializationParams>(
      side,
      49,
      messageRecoveryInitializationParamsSchema,
    );
    const verify = (state: MemoryState, chainID: Buffer) =>
      verifyWith(command, harnessAt(side, state, 188), transaction, { ...params, chainID });
    expectFail(verify(before187(), MAINCHAIN_ID), 'Chain ID is not valid.');
    expectFail(verify(before187(), Buffer.from('04000099', 'hex')), 'Chain is not registered.');
    expectFail(verify(before187(), SIDECHAIN_ID), 'Terminated state account not present.');
    expectFail(verify(tipState(side), PHANTOM_ID), 'Terminated outbox account already exists.');
    const harness = harnessAt(side, before187(), 188);
    expect(() => verifyWith(command, harness, transaction, { ...params, channel: Buffer.from('0a', 'hex') })).toThrow();
  });
});

describe('recoverMessage', () => {
  const transferCommand = (executed: CrossChainCommandExecuteContext<unknown>[]): CrossChainCommand => ({
    name: 'transferCrossChain',
    schema: crossChainTransferMessageParamsSchema,
    execute(context) {
      executed.push(context);
    },
  });

  it('at height 188 passes verification and fails in execution: lisk-sdk proves the raw messages, the outbox holds their hashes', async () => {
    const { transaction, params } = workloadTransaction<MessageRecoveryParams>(side, 50, messageRecoveryParamsSchema);
    const command = new RecoverMessageCommand(registryOf([recordingToken().module]));
    const harness = harnessAt(side, tipState(side), 188);
    expect(verifyWith(command, harness, transaction, params)).toEqual({ status: VerifyStatus.OK });
    await expect(command.execute(harness.commandExecuteContext(transaction, params))).rejects.toThrow(
      'Message recovery proof of inclusion is not valid.',
    );
    expect(harnessEvents(harness)).toEqual([
      { module: 'interoperability', name: 'invalidRMTVerification', data: '', topics: [`04${transaction.id.toString('hex')}`] },
    ]);
    expect(harness.state.changes()).toEqual([]);
    expect(transactionEvents(side, 188, transaction.id).filter((event) => event.module === 'interoperability')).toEqual([]);

    // The same proof is valid for the leaves the outbox really has: the message hashes.
    const outbox = terminatedOutboxStore.get(harness.state, PHANTOM_ID)!;
    const proof = { size: outbox.outboxSize, idxs: params.idxs, siblingHashes: params.siblingHashes };
    expect(
      verifyDataBlock(
        params.crossChainMessages.map((ccm) => sha256(ccm)),
        proof,
        outbox.outboxRoot,
      ),
    ).toBe(true);
  });

  describe('verification failures in lisk-sdk order', () => {
    const { transaction, params } = workloadTransaction<MessageRecoveryParams>(side, 50, messageRecoveryParamsSchema);
    const command = new RecoverMessageCommand(registryOf([]));
    const ccm = codec.decode<CrossChainMessage>(ccmSchema, params.crossChainMessages[0]!);
    const encode = (overrides: Partial<CrossChainMessage>) => codec.encode(ccmSchema, { ...ccm, ...overrides });
    let harness: ModuleHarness;
    beforeEach(() => {
      harness = harnessAt(side, tipState(side), 188);
    });
    const verify = (overrides: Partial<MessageRecoveryParams>) => verifyWith(command, harness, transaction, { ...params, ...overrides });

    it.each<[string, Partial<MessageRecoveryParams>, string]>([
      ['a chain without terminated outbox', { chainID: SIDECHAIN_ID }, 'Terminated outbox account does not exist.'],
      ['no messages', { crossChainMessages: [], idxs: [] }, 'No cross-chain messages to recover.'],
      ['fewer indexes than messages', { idxs: [9] }, 'Inclusion proof indices and cross-chain messages do not have the same length.'],
      ['decreasing indexes', { idxs: [10, 9] }, 'Cross-chain message indexes are not strictly increasing.'],
      ['index 1', { idxs: [1, 9] }, 'Cross-chain message does not have a valid index.'],
      ['a message the chain received', { idxs: [8, 9] }, 'Cross-chain message is not pending.'],
      ['a position past the outbox', { idxs: [9, 11] }, 'Cross-chain message was never in the outbox.'],
    ])('%s', (_, overrides, message) => {
      expectFail(verify(overrides), message);
    });

    it('equal neighbouring indexes pass, as in lisk-sdk', () => {
      expect(verify({ idxs: [9, 9] })).toEqual({ status: VerifyStatus.OK });
    });

    it.each<[string, Partial<CrossChainMessage>, string]>([
      ['a message not in status OK', { status: 1 }, 'Cross-chain message status must be equal to value 0.'],
      ['another receiving chain', { receivingChainID: SIDECHAIN_ID }, 'Cross-chain message receiving chain ID is not valid.'],
      ['a sending chain that is not live', { sendingChainID: PHANTOM_ID }, 'Cross-chain message sending chain is not live.'],
    ])('%s', (_, overrides, message) => {
      expectFail(verify({ crossChainMessages: [params.crossChainMessages[0]!, encode(overrides)] }), message);
    });

    it('a message with a non-alphanumeric module name throws the format error', () => {
      expect(() => verify({ crossChainMessages: [encode({ module: 'to-ken' }), params.crossChainMessages[1]!] })).toThrow(
        'Cross-chain message module name must be alphanumeric.',
      );
    });
  });

  describe('past the proof (an outbox built over raw messages, as lisk-sdk checks it)', () => {
    const { transaction, params } = workloadTransaction<MessageRecoveryParams>(side, 50, messageRecoveryParamsSchema);
    const fromMainchain = codec.decode<CrossChainMessage>(ccmSchema, params.crossChainMessages[0]!);
    const fromSidechain: CrossChainMessage = { ...fromMainchain, sendingChainID: SIDECHAIN_ID, nonce: 7n };
    const messages = [params.crossChainMessages[0]!, codec.encode(ccmSchema, fromSidechain)];
    // Three leaves like the real outbox; the first one counts as received (partnerChainInboxSize 1).
    const leaves = [Buffer.from('received'), ...messages];
    const proof = generateProof(leaves, [1, 2]);

    function setup(hooks: { fail?: 'verifyCrossChainMessage' | 'beforeCrossChainCommandExecute' } = {}) {
      const executed: CrossChainCommandExecuteContext<unknown>[] = [];
      const seen: string[] = [];
      const hook = (name: string) => (context: CrossChainMessageContext) => {
        seen.push(
          `${name}:${context.ccm.sendingChainID.toString('hex')}:${String(context.contextStore.get('CONTEXT_STORE_KEY_CCM_PROCESSING'))}`,
        );
        if (hooks.fail === name) throw new Error(`${name} refused`);
      };
      const token: InteroperableModule = {
        name: 'token',
        crossChainMethod: {
          verifyCrossChainMessage: hook('verifyCrossChainMessage'),
          beforeCrossChainCommandExecute: hook('beforeCrossChainCommandExecute'),
          afterCrossChainCommandExecute: hook('afterCrossChainCommandExecute'),
          beforeCrossChainMessageForwarding: hook('beforeCrossChainMessageForwarding'),
        },
        crossChainCommands: [transferCommand(executed)],
      };
      const command = new RecoverMessageCommand(registryOf([token]));
      const state = tipState(side);
      const harness = harnessAt(side, state, 188);
      terminatedOutboxStore.set(harness.state, PHANTOM_ID, { outboxRoot: merkleRoot(leaves), outboxSize: 3, partnerChainInboxSize: 1 });
      const recoverParams: MessageRecoveryParams = {
        chainID: PHANTOM_ID,
        crossChainMessages: messages,
        idxs: [...proof.idxs],
        siblingHashes: [...proof.siblingHashes],
      };
      return { command, harness, executed, seen, recoverParams };
    }

    const recovered = (ccm: CrossChainMessage): CrossChainMessage => ({
      ...ccm,
      status: 5,
      sendingChainID: ccm.receivingChainID,
      receivingChainID: ccm.sendingChainID,
    });
    const processed = (ccm: CrossChainMessage, encoded: Buffer, result: number, code: number) => ({
      module: 'interoperability',
      name: 'ccmProcessed',
      data: codec
        .encode(
          {
            $id: '/test/ccmProcessed',
            type: 'object',
            required: ['ccm', 'result', 'code'],
            properties: {
              ccm: { ...ccmSchema, fieldNumber: 1 },
              result: { dataType: 'uint32', fieldNumber: 2 },
              code: { dataType: 'uint32', fieldNumber: 3 },
            },
          } as never,
          { ccm, result, code },
        )
        .toString('hex'),
      topics: [`05${sha256(encoded).toString('hex')}`, ccm.sendingChainID.toString('hex'), ccm.receivingChainID.toString('hex')],
    });

    it('applies a mainchain message, forwards a sidechain message and replaces both leaves', async () => {
      const { command, harness, executed, seen, recoverParams } = setup();
      const channelBefore = channelDataStore.get(harness.state, SIDECHAIN_ID)!;
      expect(verifyWith(command, harness, transaction, recoverParams)).toEqual({ status: VerifyStatus.OK });
      await command.execute(harness.commandExecuteContext(transaction, recoverParams));

      expect(seen).toEqual([
        'verifyCrossChainMessage:04000000:true',
        'beforeCrossChainCommandExecute:04000000:true',
        'afterCrossChainCommandExecute:04000000:true',
        'verifyCrossChainMessage:04000001:true',
        'beforeCrossChainMessageForwarding:04000001:true',
      ]);
      expect(harness.contextStore.get('CONTEXT_STORE_KEY_CCM_PROCESSING')).toBe(false);
      // The command sees the message as it was sent; the events show it as recovered.
      expect(executed).toHaveLength(1);
      expect(executed[0]!.ccm).toEqual(fromMainchain);
      expect(harnessEvents(harness)).toEqual([
        processed(recovered(fromMainchain), messages[0]!, 0, 0),
        processed(recovered(fromSidechain), messages[1]!, 1, 0),
      ]);
      // Forwarded into the outbox towards the sidechain that sent it.
      const channelAfter = channelDataStore.get(harness.state, SIDECHAIN_ID)!;
      expect(channelAfter.outbox.size).toBe(channelBefore.outbox.size + 1);

      const recoveredLeaves = [recovered(fromMainchain), recovered(fromSidechain)].map((ccm) => sha256(codec.encode(ccmSchema, ccm)));
      expect(terminatedOutboxStore.get(harness.state, PHANTOM_ID)?.outboxRoot).toEqual(
        calculateRootFromUpdateData(recoveredLeaves, { size: 3, indexes: recoverParams.idxs, siblingHashes: recoverParams.siblingHashes }),
      );
    });

    it('discards a message whose verifyCrossChainMessage hook throws, still replacing its leaf', async () => {
      const { command, harness, executed, recoverParams } = setup({ fail: 'verifyCrossChainMessage' });
      await command.execute(harness.commandExecuteContext(transaction, recoverParams));
      expect(executed).toEqual([]);
      expect(harnessEvents(harness)).toEqual([
        processed(recovered(fromMainchain), messages[0]!, 3, 8),
        processed(recovered(fromSidechain), messages[1]!, 3, 8),
      ]);
    });

    it('discards with code 10 when beforeCrossChainCommandExecute throws', async () => {
      const { command, harness, executed, recoverParams } = setup({ fail: 'beforeCrossChainCommandExecute' });
      await command.execute(harness.commandExecuteContext(transaction, { ...recoverParams }));
      expect(executed).toEqual([]);
      expect(harnessEvents(harness)[0]).toEqual(processed(recovered(fromMainchain), messages[0]!, 3, 10));
    });
  });
});
