/**
 * What modules see while the state machine runs them (after lisk-sdk's state_machine/types.ts,
 * reshaped): plain objects whose `state` is the block's overlay state and whose `events` is the
 * block's event queue, already scoped with the stage's default topic.
 */
import type { TransactionProps } from '../../chain/transaction.js';
import type { VerifiedSignatures } from '../../crypto/signature-verifier.js';
import type { Logger } from '../../logger.js';
import type { StateReader, StateWriter } from '../../state/state-view.js';
import type { EventQueue } from './event-queue.js';

/** The header fields available during execution (everything but the roots and the signature). */
export interface ExecutionHeader {
  readonly version: number;
  readonly height: number;
  readonly timestamp: number;
  readonly previousBlockID: Buffer;
  readonly generatorAddress: Buffer;
  readonly maxHeightPrevoted: number;
  readonly maxHeightGenerated: number;
  readonly impliesMaxPrevotes: boolean;
  readonly aggregateCommit: {
    readonly height: number;
    readonly aggregationBits: Buffer;
    readonly certificateSignature: Buffer;
  };
}

export interface ExecutionAssets {
  getAsset(module: string): Buffer | undefined;
}

/** The fields of a transaction a module can rely on (see chain/transaction.ts). */
export interface ExecutionTransaction extends TransactionProps {
  readonly id: Buffer;
  /** Encoded size in bytes (signatures included): the basis of the minimum fee. */
  readonly size: number;
  senderAddress(): Buffer;
  signingBytes(): Buffer;
}

/** A validator as handed to BFT by `setNextValidators` (lisk-sdk Validator). */
export interface NextValidator {
  readonly address: Buffer;
  readonly bftWeight: bigint;
  readonly generatorKey: Buffer;
  readonly blsKey: Buffer;
}

export type SetNextValidators = (precommitThreshold: bigint, certificateThreshold: bigint, validators: readonly NextValidator[]) => void;

/** Read access for methods that only query (lisk-sdk ImmutableMethodContext). */
export interface ReadContext {
  readonly state: StateReader;
}

/** Read-write access plus event emission (lisk-sdk MethodContext). */
export interface MethodContext {
  readonly state: StateWriter;
  readonly events: EventQueue;
  /** Values shared between the hooks of one block (lisk-sdk contextStore). */
  readonly contextStore: Map<string, unknown>;
}

interface ChainScoped {
  readonly chainID: Buffer;
  readonly logger: Logger;
}

export interface GenesisContext extends MethodContext, ChainScoped {
  readonly header: ExecutionHeader;
  readonly assets: ExecutionAssets;
  readonly setNextValidators: SetNextValidators;
}

export interface TransactionVerifyContext extends ReadContext, ChainScoped {
  readonly header: { readonly height: number; readonly timestamp: number };
  readonly transaction: ExecutionTransaction;
  readonly contextStore: Map<string, unknown>;
  /**
   * Signature checks already verified in a batch (Basalt; see Module.signatureChecks): a hook may
   * skip a check found here, and must still make any check that is not.
   */
  readonly verifiedSignatures?: VerifiedSignatures;
}

/** What a module needs to say which signatures a transaction's verification will check. */
export interface SignatureCheckContext extends ReadContext, ChainScoped {
  readonly transaction: ExecutionTransaction;
}

export interface CommandVerifyContext<P> extends TransactionVerifyContext {
  readonly params: P;
}

export interface TransactionExecuteContext extends MethodContext, ChainScoped {
  readonly header: ExecutionHeader;
  readonly assets: ExecutionAssets;
  readonly transaction: ExecutionTransaction;
}

export interface CommandExecuteContext<P> extends TransactionExecuteContext {
  readonly params: P;
}

export interface BlockVerifyContext extends ReadContext, ChainScoped {
  readonly header: ExecutionHeader;
  readonly assets: ExecutionAssets;
  readonly contextStore: Map<string, unknown>;
}

export interface BlockExecuteContext extends MethodContext, ChainScoped {
  readonly header: ExecutionHeader;
  readonly assets: ExecutionAssets;
}

export interface BlockAfterExecuteContext extends BlockExecuteContext {
  readonly transactions: readonly ExecutionTransaction[];
  readonly setNextValidators: SetNextValidators;
}

/** Block generation: a module may add its asset (the random module adds the seed reveal). */
export interface InsertAssetContext extends ReadContext, ChainScoped {
  readonly header: ExecutionHeader;
  readonly contextStore: Map<string, unknown>;
  setAsset(module: string, data: Buffer): void;
  getFinalizedHeight(): number;
}
