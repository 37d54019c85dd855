/**
 * Drives the token and fee modules' cross-chain parts the way lisk-sdk 6.1's cross-chain update
 * command does for one received message (base_cross_chain_update_command.ts apply): every
 * module's verifyCrossChainMessage, the command's verify, every beforeCrossChainCommandExecute,
 * the command's execute inside a state/event snapshot (restored when it throws), then every
 * afterCrossChainCommandExecute. Only the interoperability module's own work (ccmProcessed,
 * bounces, terminations) is left out: these tests look at what token and fee emit and write.
 *
 * The messages, transaction IDs, relayers and expected events are those of the interop-dev
 * fixture pair made by lisk-sdk 6.1 (test/fixtures/chains/interop-dev/{mainchain,sidechain}:
 * events.ndjson at the height each case names), copied as hex into cross-chain-cases.json.
 */
import { readFileSync } from 'node:fs';
import { codec } from '../../../../src/codec/index.js';
import { silentLogger } from '../../../../src/logger.js';
import {
  EventQueue,
  type BeforeCCMForwardingContext,
  type CrossChainMessage,
  type CrossChainMessageContext,
  type CrossChainMethod,
  type MethodContext,
  type RecoverContext,
} from '../../../../src/modules/base/index.js';
import { CONTEXT_STORE_KEY_CCM_PROCESSING } from '../../../../src/modules/fee/constants.js';
import { FeeModule } from '../../../../src/modules/fee/index.js';
import { ccmID, ccmSchema } from '../../../../src/modules/interoperability/index.js';
import {
  crossChainTransferMessageParamsSchema,
  TokenModule,
  type CrossChainTransferMessageParams,
} from '../../../../src/modules/token/index.js';
import { escrowKey, escrowStore, userKey, userStore } from '../../../../src/modules/token/stores.js';
import { MemoryState } from '../../../../src/state/memory-state.js';
import { OverlayState } from '../../../../src/state/overlay-state.js';
import { testGenesisConfig } from '../../../support/module-harness.js';
import { RecordingInteroperability } from './token-test-kit.js';

export const MAINCHAIN_ID = Buffer.from('04000000', 'hex');
export const SIDECHAIN_ID = Buffer.from('04000001', 'hex');
export const LSK = Buffer.from('0400000000000000', 'hex');
export const SIDECHAIN_TOKEN = Buffer.from('0400000100000000', 'hex');
/** The relayer account that posted the sidechain's CCUs on the mainchain. */
export const MAINCHAIN_RELAYER = Buffer.from('da247aac04c669b1acdc9d6bbf3d8c6ba0f88c02', 'hex');
/** The relayer account that posted the mainchain's CCUs on the sidechain. */
export const SIDECHAIN_RELAYER = Buffer.from('94faff9999dd5a62215bad0127362a2d6989f5bc', 'hex');

/** An event as the fixture lists it: module, name, data and topics in hex. */
export interface EventJSON {
  module: string;
  name: string;
  data: string;
  topics: string[];
}

/** One message of the pair: its encoding, the CCU transaction that carried it, the token and fee events it caused. */
export interface MessageCase {
  ccm: string;
  txID: string;
  events: EventJSON[];
}

export interface RecoveryCase {
  txID: string;
  terminatedChainID: string;
  substorePrefix: string;
  storeKey: string;
  storeValue: string;
  events: EventJSON[];
  finalUserValue: string;
  finalEscrowValue: string;
}

type CaseName = `${'mainchain' | 'sidechain'}${number}`;

export const CASES = JSON.parse(readFileSync(new URL('./cross-chain-cases.json', import.meta.url), 'utf8')) as Record<
  CaseName,
  MessageCase
> & { mainchain186Recovery: RecoveryCase; sidechain198Recovery: RecoveryCase };

/** Token and fee of one chain of the pair, wired to an interoperability stand-in whose channels pay fees in LSK. */
export class CrossChainBench {
  readonly token = new TokenModule();
  readonly fee: FeeModule;
  readonly interoperability: RecordingInteroperability;
  readonly state = new OverlayState(new MemoryState());
  readonly events = EventQueue.forBlock(1);
  readonly contextStore = new Map<string, unknown>();

  constructor(
    readonly chainID: Buffer,
    partnerChains: readonly Buffer[],
    feeConfig: Record<string, unknown> = {},
  ) {
    this.interoperability = new RecordingInteroperability(new Map(partnerChains.map((id) => [id.toString('hex'), LSK])));
    this.fee = new FeeModule({ token: this.token.method, interoperability: this.interoperability });
    this.token.addDependencies({ fee: this.fee.method, interoperability: this.interoperability });
    const genesisConfig = { ...testGenesisConfig, chainID };
    this.token.init({ genesisConfig, moduleConfig: {} });
    this.fee.init({ genesisConfig, moduleConfig: feeConfig });
  }

  /** The hooks in registration order: token before fee, as in lisk-sdk's default application. */
  get methods(): CrossChainMethod[] {
    return [this.token.crossChainMethod, this.fee.crossChainMethod];
  }

  setBalance(address: Buffer, tokenID: Buffer, availableBalance: bigint): void {
    userStore.set(this.state, userKey(address, tokenID), { availableBalance, lockedBalances: [] });
  }

  balance(address: Buffer, tokenID: Buffer): bigint | undefined {
    return userStore.get(this.state, userKey(address, tokenID))?.availableBalance;
  }

  setEscrow(chainID: Buffer, tokenID: Buffer, amount: bigint): void {
    escrowStore.set(this.state, escrowKey(chainID, tokenID), { amount });
  }

  escrow(chainID: Buffer, tokenID: Buffer): bigint | undefined {
    return escrowStore.get(this.state, escrowKey(chainID, tokenID))?.amount;
  }

  /**
   * The context of `ccm` inside the CCU transaction `txID` sent by `relayer`: `events` carries the
   * message's topic `05 ‖ ccmID`, `methodContext` the transaction's `04 ‖ txID`.
   */
  context(ccm: CrossChainMessage, txID: string, relayer: Buffer): CrossChainMessageContext {
    const methodContext: MethodContext = {
      state: this.state,
      events: this.events.withDefaultTopic(Buffer.concat([Buffer.from([4]), Buffer.from(txID, 'hex')])),
      contextStore: this.contextStore,
    };
    return {
      state: this.state,
      events: this.events.withDefaultTopic(Buffer.concat([Buffer.from([5]), ccmID(ccm)])),
      contextStore: this.contextStore,
      methodContext,
      chainID: this.chainID,
      logger: silentLogger,
      header: { height: 1, timestamp: 1_795_640_000 },
      transaction: { senderAddress: relayer, fee: 20_000_000n, params: Buffer.alloc(0) },
      ccm,
    };
  }

  /** The context of one entry of a recoverState transaction `txID`: events under the transaction's topic. */
  recoverContext(
    txID: string,
    entry: { terminatedChainID: string; substorePrefix: string; storeKey: string; storeValue: string },
  ): RecoverContext {
    return {
      state: this.state,
      events: this.events.withDefaultTopic(Buffer.concat([Buffer.from([4]), Buffer.from(txID, 'hex')])),
      contextStore: this.contextStore,
      chainID: this.chainID,
      terminatedChainID: Buffer.from(entry.terminatedChainID, 'hex'),
      module: 'token',
      substorePrefix: Buffer.from(entry.substorePrefix, 'hex'),
      storeKey: Buffer.from(entry.storeKey, 'hex'),
      storeValue: Buffer.from(entry.storeValue, 'hex'),
    };
  }

  forwardingContext(ccm: CrossChainMessage, txID: string, relayer: Buffer, ccmFailed: boolean): BeforeCCMForwardingContext {
    return { ...this.context(ccm, txID, relayer), ccmFailed };
  }

  /** Applies a received message as lisk-sdk's CCU command does; returns the execute error, if any. */
  apply(ccm: CrossChainMessage, txID: string, relayer: Buffer): { executeError?: unknown } {
    const context = this.context(ccm, txID, relayer);
    this.contextStore.set(CONTEXT_STORE_KEY_CCM_PROCESSING, true);
    for (const method of this.methods) method.verifyCrossChainMessage?.(context);
    const command = this.token.crossChainCommands?.find((entry) => entry.name === ccm.crossChainCommand);
    if (command === undefined) throw new Error(`no cross-chain command ${ccm.crossChainCommand}`);
    const params = codec.decode(command.schema, ccm.params);
    command.verify?.(context);
    for (const method of this.methods) method.beforeCrossChainCommandExecute?.(context);

    const stateSnapshot = this.state.snapshot();
    const eventSnapshot = this.events.snapshot();
    let executeError: unknown;
    try {
      command.execute({ ...context, params });
    } catch (error) {
      executeError = error;
      this.state.restore(stateSnapshot);
      this.events.restore(eventSnapshot);
    }
    for (const method of this.methods) method.afterCrossChainCommandExecute?.(context);
    this.contextStore.set(CONTEXT_STORE_KEY_CCM_PROCESSING, false);
    return executeError === undefined ? {} : { executeError };
  }

  /** The events added so far, in the fixture's JSON form. */
  eventsJSON(): EventJSON[] {
    return this.events.events().map((event) => ({
      module: event.module,
      name: event.name,
      data: event.data.toString('hex'),
      topics: event.topics.map((topic) => topic.toString('hex')),
    }));
  }
}

export function decodeCcm(hex: string): CrossChainMessage {
  return codec.decode<CrossChainMessage>(ccmSchema, Buffer.from(hex, 'hex'));
}

/** The token transfer a `transferCrossChain` message carries. */
export function transferOf(ccm: CrossChainMessage): CrossChainTransferMessageParams {
  return codec.decode<CrossChainTransferMessageParams>(crossChainTransferMessageParamsSchema, ccm.params);
}

/** The mainchain with the sidechain's channel, a relayer holding `relayer` LSK and, unless undefined, an LSK escrow for the sidechain. */
export function mainchainBench(relayer: bigint, escrow: bigint | undefined): CrossChainBench {
  const bench = new CrossChainBench(MAINCHAIN_ID, [SIDECHAIN_ID]);
  bench.setBalance(MAINCHAIN_RELAYER, LSK, relayer);
  if (escrow !== undefined) bench.setEscrow(SIDECHAIN_ID, LSK, escrow);
  return bench;
}

/** The sidechain with the mainchain's channel and a relayer holding `relayer` LSK. */
export function sidechainBench(relayer: bigint, feeConfig: Record<string, unknown> = {}): CrossChainBench {
  const bench = new CrossChainBench(SIDECHAIN_ID, [MAINCHAIN_ID], feeConfig);
  bench.setBalance(SIDECHAIN_RELAYER, LSK, relayer);
  return bench;
}
