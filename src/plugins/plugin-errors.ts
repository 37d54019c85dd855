/**
 * A plugin may import Basalt from another copy than the node runs (a TypeScript plugin loaded
 * from sources by a node built to dist/): its NotFoundError is then not an instance of the
 * node's class and would be answered as an internal error. Errors whose stable code the RPC
 * layer shows to clients are rebuilt as the node's own classes, message kept.
 */
import { BasaltError, FormatError, InvalidParamsError, NotFoundError } from '../errors.js';

const REBUILD: ReadonlyMap<string, (message: string) => BasaltError> = new Map([
  ['ERR_NOT_FOUND', (message: string) => new NotFoundError(message)],
  ['ERR_INVALID_PARAMS', (message: string) => new InvalidParamsError(message)],
  ['ERR_VALIDATION', (message: string) => new InvalidParamsError(message)],
  ['ERR_FORMAT', (message: string) => new FormatError(message)],
  ['ERR_DECODE', (message: string) => new InvalidParamsError(message)],
]);

/** `error` as the node's own BasaltError when it is one in all but identity; otherwise unchanged. */
export function asNodeError(error: unknown): unknown {
  if (error instanceof BasaltError || !(error instanceof Error)) return error;
  const code = (error as { code?: unknown }).code;
  const rebuild = typeof code === 'string' ? REBUILD.get(code) : undefined;
  return rebuild === undefined ? error : rebuild(error.message);
}

/** Calls `run` and rethrows (or rejects with) what it throws through `asNodeError`. */
export function withNodeErrors(run: () => unknown): unknown {
  let result: unknown;
  try {
    result = run();
  } catch (error) {
    throw asNodeError(error);
  }
  if (result instanceof Promise) {
    return result.catch((error: unknown) => {
      throw asNodeError(error);
    });
  }
  return result;
}
