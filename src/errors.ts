/**
 * Error classes shared by every room. Each carries a stable `code` that callers (the RPC
 * layer, the CLI, tests) match on instead of parsing messages; messages are for people.
 * The RPC layer maps codes to JSON-RPC error codes in one table (src/rpc/error-codes.ts).
 *
 * Rule for every subclass: the message never contains secrets (keys, passphrases, passwords).
 */
export class BasaltError extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Bytes that do not decode under a schema (truncated, non-canonical, trailing data, ...). */
export class DecodeError extends BasaltError {
  constructor(message: string) {
    super('ERR_DECODE', message);
  }
}

/** A value that cannot be encoded under a schema (wrong type, out of range). */
export class EncodeError extends BasaltError {
  constructor(message: string) {
    super('ERR_ENCODE', message);
  }
}

/** A value that does not satisfy a schema; `errors` lists every problem as `.path: reason`. */
export class ValidationError extends BasaltError {
  constructor(readonly errors: readonly string[]) {
    super('ERR_VALIDATION', errors.join('; '));
  }
}

/** A malformed external string or byte value: bad hex, bad lisk32 address, wrong key length. */
export class FormatError extends BasaltError {
  constructor(message: string) {
    super('ERR_FORMAT', message);
  }
}

/** A cryptographic operation that failed for a reason other than "signature is invalid". */
export class CryptoError extends BasaltError {
  constructor(message: string) {
    super('ERR_CRYPTO', message);
  }
}

/** Decryption with a wrong password or of tampered ciphertext. */
export class DecryptionError extends BasaltError {
  constructor(message = 'Decryption failed: wrong password or corrupted data.') {
    super('ERR_DECRYPT', message);
  }
}

/** A lookup of something that does not exist (block, transaction, account, key). */
export class NotFoundError extends BasaltError {
  constructor(message: string) {
    super('ERR_NOT_FOUND', message);
  }
}

/** Parameters of a call (endpoint, command, CLI) that are well-formed but not acceptable. */
export class InvalidParamsError extends BasaltError {
  constructor(message: string) {
    super('ERR_INVALID_PARAMS', message);
  }
}

/** Why a block was refused; stable identifiers for logs, tests and the replay's exit message. */
export type BlockRejectionReason =
  | 'schema'
  | 'version'
  | 'transaction-root'
  | 'asset-root'
  | 'assets'
  | 'transactions-size'
  | 'transaction-invalid'
  | 'transaction-failed-verification'
  | 'height'
  | 'previous-block-id'
  | 'timestamp'
  | 'generator'
  | 'signature'
  | 'max-height-prevoted'
  | 'contradicting-headers'
  | 'implies-max-prevotes'
  | 'aggregate-commit'
  | 'validators-hash'
  | 'event-root'
  | 'state-root'
  | 'execution';

/** A block that violates a protocol rule; `reason` names the rule, `height` the block. */
export class InvalidBlockError extends BasaltError {
  constructor(
    readonly reason: BlockRejectionReason,
    message: string,
    readonly height?: number,
  ) {
    super('ERR_INVALID_BLOCK', message);
  }
}

/**
 * A transaction refused by verification: a module's verifyTransaction hook or a command's verify
 * (lisk-sdk's state machine reports these as a FAIL result). The message follows lisk-sdk's
 * wording, because txpool_postTransaction and txpool_dryRunTransaction show it to clients.
 */
export class TransactionVerifyError extends BasaltError {
  constructor(message: string) {
    super('ERR_TRANSACTION_VERIFY', message);
  }
}

/**
 * A module refusing a state change while a block executes. Thrown by a command's execute, or by
 * a module method it calls, it fails the transaction (its state and events are rolled back); thrown
 * inside a block or transaction hook, it makes the block invalid.
 */
export class ExecutionError extends BasaltError {
  constructor(message: string) {
    super('ERR_EXECUTION', message);
  }
}

/**
 * A command reaching a state on which lisk-sdk stops the node (its `panic`, e.g. a cross-chain
 * message whose processing throws): restarting would run the same block into the same state, so
 * the block can never be applied. The state machine lets it through and the block is invalid,
 * where any other error of a command only fails its transaction.
 */
export class ExecutionPanicError extends BasaltError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ERR_EXECUTION_PANIC', message, options);
  }
}

/** A genesis asset whose content breaks a module's rules (order, uniqueness, totals, references). */
export class GenesisStateError extends BasaltError {
  constructor(message: string) {
    super('ERR_GENESIS_STATE', message);
  }
}

/**
 * The consensus engine refusing an operation: BFT parameters out of bounds, a header out of
 * sequence, a commit from a validator that is not active, a revert below the finalized height, a
 * block executed against a tip that has moved since.
 */
export class ConsensusError extends BasaltError {
  constructor(message: string) {
    super('ERR_CONSENSUS', message);
  }
}

/**
 * Stored data that is missing or contradicts itself (a damaged data directory), or an operation a
 * store refuses because it would break its own rules (deleting the genesis block, reverting a
 * height whose diff is gone).
 */
export class StoreError extends BasaltError {
  constructor(message: string) {
    super('ERR_STORE', message);
  }
}

/**
 * A write the store could not commit: the disk is full (or a file size limit was reached), or it
 * failed. The transaction left nothing behind, so every block committed before it is intact; a
 * node stops on it (exit code 4, README "The `basalt` command") rather than go on without storing
 * what it processes.
 */
export class StoreWriteError extends BasaltError {
  constructor(cause: unknown) {
    super(
      'ERR_STORE_WRITE',
      `The store could not commit a write (${cause instanceof Error ? cause.message : String(cause)}): the disk may be full or failing. Blocks committed before it are kept.`,
      { cause },
    );
  }
}

/**
 * A broken internal assumption: a module used before `init`, a dependency that was never wired, a
 * write outside its transaction, a helper answering the wrong number of results. Always a bug in
 * the node, never the fault of a client's input; RPC clients see only "Internal error.".
 */
export class InvariantError extends BasaltError {
  constructor(message: string) {
    super('ERR_INVARIANT', message);
  }
}
