/**
 * Processing of single cross-chain messages on the interop mainchain's state before height 11
 * (sidechain 04000001 ACTIVE): lisk-sdk's bounce rule (status OK and a fee of at least
 * minReturnFeePerByte per encoded byte, else discarded), messages for unknown modules, lisk-sdk's
 * mainchain termination that throws, and what a throw while processing does to the block.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eventToJSON } from '../../../../src/chain/event.js';
import { codec } from '../../../../src/codec/index.js';
import { StateMachine, TransactionExecutionResult, type BlockExecution } from '../../../../src/engine/state-machine/state-machine.js';
import { StateMachineInclusion } from '../../../../src/engine/txpool/block-selection.js';
import { ExecutionError } from '../../../../src/errors.js';
import { silentLogger } from '../../../../src/logger.js';
import { type CommandExecuteContext, EventQueue, type Module } from '../../../../src/modules/base/index.js';
import { CcmProcessor } from '../../../../src/modules/interoperability/ccm/processor.js';
import { crossChainMessageContext } from '../../../../src/modules/interoperability/ccm/context.js';
import {
  CcmProcessedCode,
  CcmProcessedResult,
  CcmStatusCode,
  type CrossChainMessage,
  ccmID,
  ccmProcessedSchema,
  ccmSchema,
  chainAccountStore,
  chainDataSchema,
  channelDataStore,
  CrossChainUpdatePanicError,
} from '../../../../src/modules/interoperability/index.js';
import { createMainchainModules } from '../../../../src/modules/mainchain.js';
import { MemoryState } from '../../../../src/state/memory-state.js';
import { OverlayState } from '../../../../src/state/overlay-state.js';
import { ModuleHarness } from '../../../support/module-harness.js';
import { ccuAt, interopBlock, interopMainchainConfig, mainchainStatesBefore } from '../../../support/interop-mainchain.js';
import { fakeTransaction } from './setup.js';

const MAINCHAIN_ID = Buffer.from('04000000', 'hex');
const SIDECHAIN_ID = Buffer.from('04000001', 'hex');
const THIRD_CHAIN_ID = Buffer.from('04000002', 'hex');

let state: MemoryState;
let processor: CcmProcessor;

beforeAll(async () => {
  const { states } = await mainchainStatesBefore([11]);
  state = states.get(11) as MemoryState;
  const config = interopMainchainConfig();
  const { interoperability } = createMainchainModules({ genesisConfig: config.genesis, moduleConfigs: config.modules });
  processor = new CcmProcessor(interoperability.crossChainRegistry, interoperability.internalMethod, interoperability.method);
}, 60_000);

function message(fields: Partial<CrossChainMessage>): CrossChainMessage {
  return {
    module: 'token',
    crossChainCommand: 'transferCrossChain',
    nonce: 7n,
    fee: 0n,
    sendingChainID: SIDECHAIN_ID,
    receivingChainID: MAINCHAIN_ID,
    params: Buffer.alloc(0),
    status: CcmStatusCode.OK,
    ...fields,
  };
}

function contextFor(ccm: CrossChainMessage) {
  const harness = new ModuleHarness({ base: state, header: interopBlock(11).header });
  const { transaction, params } = ccuAt(11);
  const ctx = harness.commandExecuteContext(transaction, params) as CommandExecuteContext<unknown>;
  return { harness, ctx: crossChainMessageContext(ctx, ccm, ccmID(ccm)) };
}

function processedEvent(harness: ModuleHarness) {
  const event = harness.events.events().find((candidate) => candidate.name === 'ccmProcessed');
  return event && codec.decode<{ ccm: CrossChainMessage; result: number; code: number }>(ccmProcessedSchema, event.data);
}

describe('bounce (LIP 0045, lisk-sdk 6.1)', () => {
  const size = (ccm: CrossChainMessage) => BigInt(codec.encode(ccmSchema, ccm).length);
  /** A message whose fee is exactly 1000 beddows per byte of its own encoding (the fee's varint counts too). */
  const exactlyPaid = (): CrossChainMessage => {
    let ccm = message({});
    while (ccm.fee !== 1000n * size(ccm)) ccm = message({ fee: 1000n * size(ccm) });
    return ccm;
  };

  it('bounces a failed message whose fee covers 1000 beddows per byte: status, chains swapped, fee 0, into the sender channel', () => {
    const ccm = exactlyPaid();
    const { harness, ctx } = contextFor(ccm);
    const outboxBefore = channelDataStore.getOrThrow(harness.state, SIDECHAIN_ID).outbox.size;
    processor.bounce(ctx, Number(size(ccm)), CcmStatusCode.FAILED_CCM, CcmProcessedCode.FAILED_CCM);
    const events = harness.events.events().map(eventToJSON);
    expect(events.map((event) => event.name)).toEqual(['ccmProcessed', 'ccmSendSuccess']);
    const bounced = { ...ccm, status: CcmStatusCode.FAILED_CCM, sendingChainID: MAINCHAIN_ID, receivingChainID: SIDECHAIN_ID, fee: 0n };
    expect(processedEvent(harness)).toEqual({ ccm, result: CcmProcessedResult.BOUNCED, code: CcmProcessedCode.FAILED_CCM });
    expect(events[0]?.topics).toEqual([`05${ccmID(ccm).toString('hex')}`, '04000001', '04000000']);
    expect(events[1]?.topics).toEqual([`05${ccmID(ccm).toString('hex')}`, '04000000', '04000001', ccmID(bounced).toString('hex')]);
    expect(channelDataStore.getOrThrow(harness.state, SIDECHAIN_ID).outbox.size).toBe(outboxBefore + 1);
  });

  it('discards a failed message whose fee is one beddow short of 1000 per byte', () => {
    const paid = exactlyPaid();
    const ccm = { ...paid, fee: paid.fee - 1n };
    expect(size(ccm)).toBe(size(paid));
    const { harness, ctx } = contextFor(ccm);
    processor.bounce(ctx, Number(size(ccm)), CcmStatusCode.FAILED_CCM, CcmProcessedCode.FAILED_CCM);
    expect(harness.events.events().map((event) => event.name)).toEqual(['ccmProcessed']);
    expect(processedEvent(harness)).toEqual({ ccm, result: CcmProcessedResult.DISCARDED, code: CcmProcessedCode.FAILED_CCM });
    expect(harness.state.changes()).toEqual([]);
  });

  it('never bounces a message that is itself a bounce', () => {
    const ccm = message({ fee: 10n ** 9n, status: CcmStatusCode.FAILED_CCM });
    const { harness, ctx } = contextFor(ccm);
    processor.bounce(ctx, 100, CcmStatusCode.FAILED_CCM, CcmProcessedCode.FAILED_CCM);
    expect(processedEvent(harness)?.result).toBe(CcmProcessedResult.DISCARDED);
  });
});

describe('apply (LIP 0049, lisk-sdk 6.1)', () => {
  it('answers a message for a module no chain module registered with MODULE_NOT_SUPPORTED', async () => {
    const ccm = message({ module: 'nft', crossChainCommand: 'transfer' });
    const { harness, ctx } = contextFor(ccm);
    await processor.apply(ctx);
    expect(processedEvent(harness)).toEqual({ ccm, result: CcmProcessedResult.DISCARDED, code: CcmProcessedCode.MODULE_NOT_SUPPORTED });
  });

  it('answers an unknown command of a registered module with CROSS_CHAIN_COMMAND_NOT_SUPPORTED', async () => {
    const ccm = message({ crossChainCommand: 'mint', fee: 0n });
    const { harness, ctx } = contextFor(ccm);
    await processor.apply(ctx);
    expect(processedEvent(harness)).toEqual({
      ccm,
      result: CcmProcessedResult.DISCARDED,
      code: CcmProcessedCode.CROSS_CHAIN_COMMAND_NOT_SUPPORTED,
    });
  });

  it('throws on a message from a chain that is not live: the mainchain termination sends without timestamp', async () => {
    const ccm = message({ sendingChainID: Buffer.from('04000099', 'hex') });
    const { ctx } = contextFor(ccm);
    await expect(processor.apply(ctx)).rejects.toThrow('Timestamp must be provided in mainchain context.');
  });
});

describe('forward (LIP 0049, mainchain)', () => {
  it('answers a message for a chain the mainchain does not know with CHANNEL_UNAVAILABLE (discarded without a return fee)', async () => {
    const ccm = message({ receivingChainID: Buffer.from('04000077', 'hex') });
    const { harness, ctx } = contextFor(ccm);
    await processor.forward(ctx);
    expect(processedEvent(harness)).toEqual({ ccm, result: CcmProcessedResult.DISCARDED, code: CcmProcessedCode.CHANNEL_UNAVAILABLE });
  });

  it('throws when the receiving chain is not live: terminating it sends channelTerminated without timestamp', async () => {
    const { harness } = contextFor(message({}));
    const terminated = { ...chainAccountStore.getOrThrow(harness.state, SIDECHAIN_ID), status: 2 };
    const base = new MemoryState([...state.iterate({ gte: Buffer.alloc(0), lte: Buffer.alloc(64, 0xff) })]);
    base.put(chainAccountStore.stateKey(SIDECHAIN_ID), codec.encode(chainDataSchema, terminated));
    base.put(chainAccountStore.stateKey(THIRD_CHAIN_ID), codec.encode(chainDataSchema, { ...terminated, name: 'third', status: 1 }));
    base.put(channelDataStore.stateKey(THIRD_CHAIN_ID), state.get(channelDataStore.stateKey(SIDECHAIN_ID)));
    const ccm = message({ sendingChainID: THIRD_CHAIN_ID, receivingChainID: SIDECHAIN_ID });
    const harnessOnBase = new ModuleHarness({ base, header: interopBlock(11).header });
    const { transaction, params } = ccuAt(11);
    const ctx = crossChainMessageContext(
      harnessOnBase.commandExecuteContext(transaction, params) as CommandExecuteContext<unknown>,
      ccm,
      ccmID(ccm),
    );
    await expect(processor.forward(ctx)).rejects.toThrow('Timestamp must be provided in mainchain context.');
  });
});

describe('a throw while processing messages', () => {
  function execution(): BlockExecution {
    return {
      state: new OverlayState(state),
      events: EventQueue.forBlock(11),
      contextStore: new Map(),
      header: interopBlock(11).header,
      assets: { getAsset: () => undefined },
      setNextValidators: () => undefined,
    };
  }

  function machineWith(error: Error) {
    const module: Module = {
      name: 'probe',
      stores: [],
      events: [],
      endpoints: {},
      commands: [
        {
          name: 'fail',
          schema: { $id: '/probe/empty', type: 'object', properties: {} },
          execute: () => {
            throw error;
          },
        },
      ],
    } as unknown as Module;
    return new StateMachine([module], MAINCHAIN_ID, silentLogger);
  }

  const transaction = { ...fakeTransaction(0n, 'fail'), module: 'probe' };

  const panic = new CrossChainUpdatePanicError(new Error('Timestamp must be provided in mainchain context.'));

  it('makes the block invalid (lisk-sdk stops the node), where another command error only fails the transaction', async () => {
    const panicking = execution();
    await expect(machineWith(panic).executeTransaction(panicking, transaction)).rejects.toBe(panic);
    expect((panicking.state as OverlayState).changes()).toEqual([]);
    expect(panicking.events.events()).toEqual([]);
    await expect(machineWith(new ExecutionError('no')).executeTransaction(execution(), transaction)).resolves.toBe(
      TransactionExecutionResult.FAIL,
    );
  });

  it('leaves such a transaction out of a block being generated', async () => {
    const inclusion = new StateMachineInclusion(machineWith(panic), execution());
    await expect(inclusion.tryInclude(transaction as never)).resolves.toBe('invalid');
  });
});
