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
