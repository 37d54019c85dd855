/**
 * What a module offers to cross-chain message processing (LIP 0045 "interoperable modules";
 * lisk-sdk framework/src/modules/interoperability/base_interoperable_module.ts, base_cc_method.ts,
 * base_cc_command.ts and the contexts of interoperability/types.ts, reshaped like the other
 * contexts of this room).
 *
 * The interoperability module processes the messages of a cross-chain update. For each message it
 * calls the hooks of every registered interoperable module (registration order), then the
 * cross-chain command that the message names, each inside state and event snapshots it restores
 * when a hook throws. Hooks signal failure by throwing.
 */
import type { Schema } from '../../codec/index.js';
import type { Logger } from '../../logger.js';
import type { MethodContext, ReadContext } from './context.js';

/** A cross-chain message (LIP 0049), as the interoperability module's `ccm` schema encodes it. */
export interface CrossChainMessage {
  module: string;
  crossChainCommand: string;
  nonce: bigint;
  fee: bigint;
  sendingChainID: Buffer;
  receivingChainID: Buffer;
  params: Buffer;
  status: number;
}

/** What every cross-chain hook sees, read-only (lisk-sdk ImmutableCrossChainMessageContext). */
export interface ImmutableCrossChainMessageContext extends ReadContext {
  readonly chainID: Buffer;
  readonly logger: Logger;
  readonly header: { readonly height: number; readonly timestamp: number };
  /** The transaction that carries the message: a cross-chain update, or a message recovery. */
  readonly transaction: { readonly senderAddress: Buffer; readonly fee: bigint; readonly params: Buffer };
  readonly ccm: CrossChainMessage;
}

/**
 * The writable form (lisk-sdk CrossChainMessageContext). `events` is already scoped with the
 * message's default topic (its ccmID) by the interoperability module.
 */
export interface CrossChainMessageContext extends Omit<ImmutableCrossChainMessageContext, 'state'>, MethodContext {
  /**
   * lisk-sdk's `ctx.getMethodContext()`: the same state and contextStore, but its events go to the
   * carrying transaction's queue (default topic `04 ‖ txID`), not to the message's. lisk-sdk's
   * token and fee hooks emit most of their events through it (lock, unlock, transfer, burn,
   * beforeCCCExecution, beforeCCMForwarding, initializeUserAccount, insufficientFee) and only a
   * few through the message's queue (ccmTransfer, relayerFeeProcessed), so both must be at hand.
   * The transaction's own command-execute context can be passed as is.
   */
  readonly methodContext: MethodContext;
}

/** lisk-sdk BeforeCCMForwardingContext: whether the message failed before it is forwarded. */
export interface BeforeCCMForwardingContext extends CrossChainMessageContext {
  readonly ccmFailed: boolean;
}

/** lisk-sdk CCCommandExecuteContext: the message's params decoded with the command's schema. */
export interface CrossChainCommandExecuteContext<P> extends CrossChainMessageContext {
  readonly params: P;
}

/** lisk-sdk RecoverContext: one recovered store entry of a terminated chain (LIP 0054). */
export interface RecoverContext extends MethodContext {
  readonly chainID: Buffer;
  readonly terminatedChainID: Buffer;
  readonly module: string;
  readonly substorePrefix: Buffer;
  readonly storeKey: Buffer;
  readonly storeValue: Buffer;
}

/** lisk-sdk BaseCCMethod: every hook is optional; a thrown error is the hook's failure. */
export interface CrossChainMethod {
  verifyCrossChainMessage?(context: CrossChainMessageContext): void | Promise<void>;
  beforeCrossChainCommandExecute?(context: CrossChainMessageContext): void | Promise<void>;
  afterCrossChainCommandExecute?(context: CrossChainMessageContext): void | Promise<void>;
  beforeCrossChainMessageForwarding?(context: BeforeCCMForwardingContext): void | Promise<void>;
  beforeRecoverCCM?(context: CrossChainMessageContext): void | Promise<void>;
  recover?(context: RecoverContext): void | Promise<void>;
}

/**
 * lisk-sdk BaseCCCommand: a command a cross-chain message can name (`module` + `crossChainCommand`).
 * Declared with methods for the same variance reason as `Command` (command.ts).
 */
export interface CrossChainCommand<P = unknown> {
  readonly name: string;
  readonly schema: Schema;
  verify?(context: ImmutableCrossChainMessageContext): void | Promise<void>;
  execute(context: CrossChainCommandExecuteContext<P>): void | Promise<void>;
}

/** A module the interoperability module dispatches messages to (lisk-sdk BaseInteroperableModule). */
export interface InteroperableModule {
  readonly name: string;
  readonly crossChainMethod?: CrossChainMethod;
  readonly crossChainCommands?: readonly CrossChainCommand<unknown>[];
}
