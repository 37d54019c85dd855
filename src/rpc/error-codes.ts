/**
 * JSON-RPC 2.0 error codes Basalt answers with, and the ONE table that maps the stable codes of
 * src/errors.ts to them (README "Error codes"). lisk-sdk answers -32600 for nearly everything
 * (lisk-sdk controller/jsonrpc/utils.ts); Basalt uses the standard codes on purpose.
 */
import { BasaltError } from '../errors.js';

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
export const RESOURCE_NOT_FOUND = -32001;
export const METHOD_DISABLED = -32002;

/** Error codes of src/errors.ts whose message is safe and useful to show to RPC clients. */
const JSON_RPC_CODE_BY_ERROR_CODE: ReadonlyMap<string, number> = new Map([
  ['ERR_NOT_FOUND', RESOURCE_NOT_FOUND],
  ['ERR_INVALID_PARAMS', INVALID_PARAMS],
  ['ERR_VALIDATION', INVALID_PARAMS],
  ['ERR_FORMAT', INVALID_PARAMS],
  ['ERR_DECODE', INVALID_PARAMS],
]);

/**
 * The JSON-RPC code for an error thrown by a method: a BasaltError whose code is in the table
 * keeps its meaning (and its message is shown); anything else is an internal error (-32603),
 * whose message is never shown because it may reveal internals.
 */
export function jsonRpcCodeOf(error: unknown): number {
  if (error instanceof BasaltError) return JSON_RPC_CODE_BY_ERROR_CODE.get(error.code) ?? INTERNAL_ERROR;
  // A BasaltError from another copy of the classes (a plugin importing Basalt's sources while the
  // node runs from dist/) fails instanceof; its stable code still says what it is.
  const code = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  if (typeof code === 'string') return JSON_RPC_CODE_BY_ERROR_CODE.get(code) ?? INTERNAL_ERROR;
  return INTERNAL_ERROR;
}
