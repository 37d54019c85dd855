/**
 * Events of the token module (LIP 0051 "Events"; lisk-sdk token/events/*), in lisk-sdk's
 * registration order, which is the order metadata lists them in. Events with a `result` field
 * have a `log` (result 0, revertible) and an `error` (non-zero result, non-revertible: it
 * survives the failure of the command that emitted it) variant; both take the same topics.
 */
import { objectSchema, type Schema } from '../../codec/index.js';
import { ModuleEvent, type EventQueue } from '../base/index.js';
import {
  CHAIN_ID_LENGTH,
  HASH_LENGTH,
  MAX_MODULE_NAME_LENGTH,
  MIN_MODULE_NAME_LENGTH,
  TOKEN_ID_LENGTH,
  TOKEN_MODULE_NAME,
  TokenEventResult,
  type TokenErrorResult,
} from './constants.js';

/**
 * An event whose data ends with `result`: success is revertible, every failure result is not
 * (lisk-sdk passes `noRevert` in each `error` variant).
 */
abstract class ResultEvent<T extends object> extends ModuleEvent<T & { result: TokenEventResult }> {
  constructor(name: string, schema: Schema) {
    super(TOKEN_MODULE_NAME, name, schema);
  }

  protected emitResult(events: EventQueue, data: T, result: TokenEventResult, topics: Buffer[]): void {
    // Not `{ ...data, result }`: V8 cannot take its fast clone path for a spread followed by a
    // new property, and that one literal cost about a microsecond per event.
    const value = Object.assign({}, data) as T & { result: TokenEventResult };
    value.result = result;
    this.emit(events, value, topics, result !== TokenEventResult.SUCCESSFUL);
  }
}

/** A result event whose topics derive from its data. */
export class TokenResultEvent<T extends object> extends ResultEvent<T> {
  constructor(
    name: string,
    schema: Schema,
    private readonly topicsOf: (data: T) => Buffer[],
  ) {
    super(name, schema);
  }

  log(events: EventQueue, data: T): void {
    this.emitResult(events, data, TokenEventResult.SUCCESSFUL, this.topicsOf(data));
  }

  error(events: EventQueue, data: T, result: TokenErrorResult): void {
    this.emitResult(events, data, result, this.topicsOf(data));
  }
}

/** A result event whose topics are not part of its data (beforeCCMForwarding, recover): the caller names them. */
export class TokenTopicResultEvent<T extends object> extends ResultEvent<T> {
  log(events: EventQueue, topics: Buffer[], data: T): void {
    this.emitResult(events, data, TokenEventResult.SUCCESSFUL, topics);
  }

  error(events: EventQueue, topics: Buffer[], data: T, result: TokenErrorResult): void {
    this.emitResult(events, data, result, topics);
  }
}

const address = (fieldNumber: number) => ({ dataType: 'bytes', format: 'lisk32', fieldNumber }) as const;
const tokenID = (fieldNumber: number) =>
  ({ dataType: 'bytes', minLength: TOKEN_ID_LENGTH, maxLength: TOKEN_ID_LENGTH, fieldNumber }) as const;
const chainID = (fieldNumber: number) =>
  ({ dataType: 'bytes', minLength: CHAIN_ID_LENGTH, maxLength: CHAIN_ID_LENGTH, fieldNumber }) as const;
const uint64 = (fieldNumber: number) => ({ dataType: 'uint64', fieldNumber }) as const;
const result = (fieldNumber: number) => ({ dataType: 'uint32', fieldNumber }) as const;
const moduleName = (fieldNumber: number) =>
  ({ dataType: 'string', minLength: MIN_MODULE_NAME_LENGTH, maxLength: MAX_MODULE_NAME_LENGTH, fieldNumber }) as const;

/** lisk-codec's empty schema, the data schema of events without data. */
export const emptyEventSchema: Schema = { $id: '/lisk/empty', type: 'object', properties: {} };

export interface TransferEventData {
  senderAddress: Buffer;
  recipientAddress: Buffer;
  tokenID: Buffer;
  amount: bigint;
}

export interface CrossChainTransferEventData extends TransferEventData {
  receivingChainID: Buffer;
}

export interface BalanceEventData {
  address: Buffer;
  tokenID: Buffer;
  amount: bigint;
}

export interface LockEventData extends BalanceEventData {
  module: string;
}

export interface InitializeTokenEventData {
  tokenID: Buffer;
}

export interface InitializeUserAccountEventData {
  address: Buffer;
  tokenID: Buffer;
  initializationFee: bigint;
}

export interface InitializeEscrowAccountEventData {
  chainID: Buffer;
  tokenID: Buffer;
  initializationFee: bigint;
}

export interface RecoverEventData {
  terminatedChainID: Buffer;
  tokenID: Buffer;
  amount: bigint;
}

export interface BeforeCCCExecutionEventData {
  ccmID: Buffer;
  messageFeeTokenID: Buffer;
  relayerAddress: Buffer;
}

export interface BeforeCCMForwardingEventData {
  ccmID: Buffer;
  messageFeeTokenID: Buffer;
}

export const transferEventSchema: Schema = objectSchema('/token/events/transfer', {
  senderAddress: address(1),
  recipientAddress: address(2),
  tokenID: tokenID(3),
  amount: uint64(4),
  result: result(5),
});

export const transferCrossChainEventSchema: Schema = objectSchema('/token/events/transferCrossChain', {
  senderAddress: address(1),
  recipientAddress: address(2),
  tokenID: tokenID(3),
  amount: uint64(4),
  receivingChainID: chainID(5),
  result: result(6),
});

export const ccmTransferEventSchema: Schema = {
  ...transferCrossChainEventSchema,
  $id: '/token/events/ccmTransfer',
};

const balanceEventSchema = (id: string): Schema =>
  objectSchema(id, {
    address: address(1),
    tokenID: tokenID(2),
    amount: uint64(3),
    result: result(4),
  });

const lockEventSchema = (id: string): Schema =>
  objectSchema(id, {
    address: address(1),
    module: moduleName(2),
    tokenID: tokenID(3),
    amount: uint64(4),
    result: result(5),
  });

export const mintEventSchema = balanceEventSchema('/token/events/mint');
export const burnEventSchema = balanceEventSchema('/token/events/burn');
export const lockEventDataSchema = lockEventSchema('/token/events/lock');
export const unlockEventDataSchema = lockEventSchema('/token/events/unlock');

export const initializeTokenEventSchema: Schema = objectSchema('/token/events/initializeTokenEvent', {
  tokenID: tokenID(1),
  result: result(2),
});

export const initializeUserAccountEventSchema: Schema = objectSchema('/token/events/initializeUserAccount', {
  address: address(1),
  tokenID: tokenID(2),
  initializationFee: uint64(3),
  result: result(4),
});

export const initializeEscrowAccountEventSchema: Schema = objectSchema('/token/events/initializeEscrowAccount', {
  chainID: chainID(1),
  tokenID: tokenID(2),
  initializationFee: uint64(3),
  result: result(4),
});

export const recoverEventSchema: Schema = objectSchema('/token/events/recover', {
  terminatedChainID: chainID(1),
  tokenID: tokenID(2),
  amount: uint64(3),
  result: result(4),
});

export const beforeCCCExecutionEventSchema: Schema = objectSchema('/token/events/beforeCCCExecution', {
  ccmID: { dataType: 'bytes', minLength: HASH_LENGTH, maxLength: HASH_LENGTH, fieldNumber: 1 },
  messageFeeTokenID: tokenID(2),
  relayerAddress: address(3),
  result: result(4),
});

export const beforeCCMForwardingEventSchema: Schema = objectSchema('/token/events/beforeCCMForwarding', {
  ccmID: { dataType: 'bytes', minLength: HASH_LENGTH, maxLength: HASH_LENGTH, fieldNumber: 1 },
  messageFeeTokenID: tokenID(2),
  result: result(3),
});

const chainIDEventSchema = (id: string): Schema => objectSchema(id, { chainID: chainID(1) });

const tokenIDEventSchema = (id: string): Schema => objectSchema(id, { tokenID: tokenID(1) });

export const allTokensFromChainSupportedEventSchema = chainIDEventSchema('/token/events/allTokensFromChainSupported');
export const allTokensFromChainSupportRemovedEventSchema = chainIDEventSchema('/token/events/allTokensFromChainSupportRemoved');
export const tokenIDSupportedEventSchema = tokenIDEventSchema('/token/events/tokenIDSupported');
export const tokenIDSupportRemovedEventSchema = tokenIDEventSchema('/token/events/tokenIDSupportRemoved');

const senderAndRecipient = (data: TransferEventData): Buffer[] => [data.senderAddress, data.recipientAddress];
const ofAddress = (data: { address: Buffer }): Buffer[] => [data.address];

/** Topics [sender, recipient]. */
export const transferEvent = new TokenResultEvent<TransferEventData>('transfer', transferEventSchema, senderAndRecipient);

/** Topics [sender, recipient, receivingChainID]. */
export const transferCrossChainEvent = new TokenResultEvent<CrossChainTransferEventData>(
  'transferCrossChain',
  transferCrossChainEventSchema,
  (data) => [data.senderAddress, data.recipientAddress, data.receivingChainID],
);

/** Emitted by the `transferCrossChain` cross-chain command; topics [sender, recipient]. */
export const ccmTransferEvent = new TokenResultEvent<CrossChainTransferEventData>(
  'ccmTransfer',
  ccmTransferEventSchema,
  senderAndRecipient,
);

export const mintEvent = new TokenResultEvent<BalanceEventData>('mint', mintEventSchema, ofAddress);
export const burnEvent = new TokenResultEvent<BalanceEventData>('burn', burnEventSchema, ofAddress);
export const lockEvent = new TokenResultEvent<LockEventData>('lock', lockEventDataSchema, ofAddress);
export const unlockEvent = new TokenResultEvent<LockEventData>('unlock', unlockEventDataSchema, ofAddress);

export const initializeTokenEvent = new TokenResultEvent<InitializeTokenEventData>(
  'initializeToken',
  initializeTokenEventSchema,
  (data) => [data.tokenID],
);

export const initializeUserAccountEvent = new TokenResultEvent<InitializeUserAccountEventData>(
  'initializeUserAccount',
  initializeUserAccountEventSchema,
  ofAddress,
);

export const initializeEscrowAccountEvent = new TokenResultEvent<InitializeEscrowAccountEventData>(
  'initializeEscrowAccount',
  initializeEscrowAccountEventSchema,
  (data) => [data.chainID],
);

/** Topics [address of the recovered account]. */
export const recoverEvent = new TokenTopicResultEvent<RecoverEventData>('recover', recoverEventSchema);

/** Topics [relayerAddress, messageFeeTokenID]. */
export const beforeCCCExecutionEvent = new TokenResultEvent<BeforeCCCExecutionEventData>(
  'beforeCCCExecution',
  beforeCCCExecutionEventSchema,
  (data) => [data.relayerAddress, data.messageFeeTokenID],
);

/** Topics [sendingChainID, receivingChainID] of the forwarded message. */
export const beforeCCMForwardingEvent = new TokenTopicResultEvent<BeforeCCMForwardingEventData>(
  'beforeCCMForwarding',
  beforeCCMForwardingEventSchema,
);

/** No data, no topics. */
export const allTokensSupportedEvent = new ModuleEvent<Record<string, never>>(TOKEN_MODULE_NAME, 'allTokensSupported', emptyEventSchema);
export const allTokensSupportRemovedEvent = new ModuleEvent<Record<string, never>>(
  TOKEN_MODULE_NAME,
  'allTokensSupportRemoved',
  emptyEventSchema,
);
/** Topics [chainID]. */
export const allTokensFromChainSupportedEvent = new ModuleEvent<{ chainID: Buffer }>(
  TOKEN_MODULE_NAME,
  'allTokensFromChainSupported',
  allTokensFromChainSupportedEventSchema,
);
export const allTokensFromChainSupportRemovedEvent = new ModuleEvent<{ chainID: Buffer }>(
  TOKEN_MODULE_NAME,
  'allTokensFromChainSupportRemoved',
  allTokensFromChainSupportRemovedEventSchema,
);
/** Topics [tokenID]. */
export const tokenIDSupportedEvent = new ModuleEvent<{ tokenID: Buffer }>(
  TOKEN_MODULE_NAME,
  'tokenIDSupported',
  tokenIDSupportedEventSchema,
);
export const tokenIDSupportRemovedEvent = new ModuleEvent<{ tokenID: Buffer }>(
  TOKEN_MODULE_NAME,
  'tokenIDSupportRemoved',
  tokenIDSupportRemovedEventSchema,
);

/** In lisk-sdk's registration order (the order of `system_getMetadata`). */
export const tokenEvents: readonly ModuleEvent<object>[] = [
  transferEvent,
  transferCrossChainEvent,
  ccmTransferEvent,
  mintEvent,
  burnEvent,
  lockEvent,
  unlockEvent,
  initializeTokenEvent,
  initializeUserAccountEvent,
  initializeEscrowAccountEvent,
  recoverEvent,
  beforeCCCExecutionEvent,
  beforeCCMForwardingEvent,
  allTokensSupportedEvent,
  allTokensSupportRemovedEvent,
  allTokensFromChainSupportedEvent,
  allTokensFromChainSupportRemovedEvent,
  tokenIDSupportedEvent,
  tokenIDSupportRemovedEvent,
];
