/**
 * Errors that cross the worker boundary as typed envelopes, not as cloned Error objects (the
 * pattern of Lodestar's worker errors, which are turned into plain objects in the thread and back
 * into their class on the main thread).
 *
 * Why: a message port clones an Error with its message, its stack and, for the built-in classes
 * only, its constructor. A BasaltError thrown in a task would reach the main thread as a plain
 * Error without its `code`, so the caller could no longer tell a NotFoundError from a bug. The
 * worker entry therefore answers a failed task with an envelope `{name, code, message, stack,
 * fields}`, and the pool rethrows it as an instance of the same class, found by its stable code.
 *
 * - A BasaltError of src/errors.ts comes back as that class, with its code, message and fields
 *   (ValidationError's `errors`, InvalidBlockError's `reason` and `height`). A subclass of one of
 *   them comes back as the registered class of its code (BftParametersNotFoundError as
 *   NotFoundError).
 * - A BasaltError the registry does not know (one defined in another room) comes back as a
 *   WorkerTaskError carrying the original `code`, its class name as `remoteName`, and its fields.
 * - Any other Error comes back as it did before envelopes existed: the built-in class of its name
 *   (RangeError, TypeError, ...) or Error, with its message, and its `code` if it had one.
 *
 * The stack is always the worker's, so a log line shows where the task failed.
 */
import {
  BasaltError,
  type BlockRejectionReason,
  ConsensusError,
  CryptoError,
  DecodeError,
  DecryptionError,
  EncodeError,
  ExecutionError,
  FormatError,
  GenesisStateError,
  InvalidBlockError,
  InvalidParamsError,
  InvariantError,
  NotFoundError,
  StoreError,
  TransactionVerifyError,
  ValidationError,
} from '../errors.js';

/** A failed task as it travels from a worker to the main thread (structured-clone friendly). */
export interface WorkerErrorEnvelope {
  /** Tells an envelope from anything else a task could reject with. */
  readonly envelope: typeof ENVELOPE_MARK;
  /** True when the thrown value was a BasaltError (then `code` is its stable code). */
  readonly basalt: boolean;
  /** The class name in the worker (`error.name`). */
  readonly name: string;
  readonly message: string;
  readonly code?: string;
  readonly stack?: string;
  /** The error's other own fields, when they can be cloned (else empty). */
  readonly fields: Readonly<Record<string, unknown>>;
}

const ENVELOPE_MARK = 'basalt.worker-error/1';

/** Own properties every envelope carries by name, so they are not repeated in `fields`. */
const ENVELOPE_KEYS = new Set(['name', 'message', 'code', 'stack', 'cause']);

/**
 * How to rebuild each class of src/errors.ts from its stable code: from the message, and for the
 * classes with more to say, from the fields the envelope carried (ValidationError's list of
 * problems, InvalidBlockError's reason and height).
 */
const REBUILD_BY_CODE = new Map<string, (message: string, fields: Readonly<Record<string, unknown>>) => BasaltError>([
  ['ERR_DECODE', (message) => new DecodeError(message)],
  ['ERR_ENCODE', (message) => new EncodeError(message)],
  [
    'ERR_VALIDATION',
    (message, fields) => (isStringList(fields.errors) ? new ValidationError(fields.errors) : new ValidationError([message])),
  ],
  ['ERR_FORMAT', (message) => new FormatError(message)],
  ['ERR_CRYPTO', (message) => new CryptoError(message)],
  ['ERR_DECRYPT', (message) => new DecryptionError(message)],
  ['ERR_NOT_FOUND', (message) => new NotFoundError(message)],
  ['ERR_INVALID_PARAMS', (message) => new InvalidParamsError(message)],
  [
    'ERR_INVALID_BLOCK',
    (message, fields) =>
      new InvalidBlockError(fields.reason as BlockRejectionReason, message, typeof fields.height === 'number' ? fields.height : undefined),
  ],
  ['ERR_TRANSACTION_VERIFY', (message) => new TransactionVerifyError(message)],
  ['ERR_EXECUTION', (message) => new ExecutionError(message)],
  ['ERR_GENESIS_STATE', (message) => new GenesisStateError(message)],
  ['ERR_CONSENSUS', (message) => new ConsensusError(message)],
  ['ERR_STORE', (message) => new StoreError(message)],
  ['ERR_INVARIANT', (message) => new InvariantError(message)],
]);

/** The built-in classes a message port keeps today; other names come back as Error. */
const BUILT_IN_BY_NAME = new Map<string, new (message: string) => Error>([
  ['Error', Error],
  ['EvalError', EvalError],
  ['RangeError', RangeError],
  ['ReferenceError', ReferenceError],
  ['SyntaxError', SyntaxError],
  ['TypeError', TypeError],
  ['URIError', URIError],
]);

/**
 * A task failed in a worker with a BasaltError the main thread has no class for. `code` is the
 * original stable code, so `jsonRpcCodeOf` and code checks treat it as the original error.
 */
export class WorkerTaskError extends BasaltError {
  constructor(
    code: string,
    message: string,
    /** The class name of the error in the worker. */
    readonly remoteName: string,
  ) {
    super(code, message);
  }
}

/** `error` as an envelope, in the worker; undefined for a thrown value that is not an Error. */
export function toWorkerErrorEnvelope(error: unknown): WorkerErrorEnvelope | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  return {
    envelope: ENVELOPE_MARK,
    basalt: error instanceof BasaltError,
    name: error.name,
    message: error.message,
    code: typeof code === 'string' ? code : undefined,
    stack: error.stack,
    fields: cloneableFields(error),
  };
}

export function isWorkerErrorEnvelope(value: unknown): value is WorkerErrorEnvelope {
  return typeof value === 'object' && value !== null && (value as { envelope?: unknown }).envelope === ENVELOPE_MARK;
}

/** The error an envelope stands for, on the main thread (see the file comment for the cases). */
export function fromWorkerErrorEnvelope(envelope: WorkerErrorEnvelope): Error {
  const { code, message, fields } = envelope;
  let error: Error;
  if (envelope.basalt && code !== undefined) {
    const rebuild = REBUILD_BY_CODE.get(code);
    error = rebuild === undefined ? Object.assign(new WorkerTaskError(code, message, envelope.name), fields) : rebuild(message, fields);
  } else {
    const BuiltIn = BUILT_IN_BY_NAME.get(envelope.name) ?? Error;
    error = Object.assign(new BuiltIn(message), fields);
    if (code !== undefined) Object.assign(error, { code });
  }
  if (envelope.stack !== undefined) error.stack = envelope.stack;
  return error;
}

/** The error's own enumerable fields other than the envelope's, or none when they cannot be cloned. */
function cloneableFields(error: Error): Readonly<Record<string, unknown>> {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (!ENVELOPE_KEYS.has(key)) fields[key] = value;
  }
  try {
    // What the message port will do; a field it cannot clone would make the answer itself fail.
    structuredClone(fields);
    return fields;
  } catch {
    return {};
  }
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
