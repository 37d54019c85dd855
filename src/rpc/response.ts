/**
 * JSON-RPC 2.0 answers built as text: the id and the result are each stringified once and
 * spliced into a fixed frame, so a result is never serialized twice (lisk-sdk's shapes,
 * with standard codes; README "Error codes").
 */
import { INVALID_REQUEST, PARSE_ERROR } from './error-codes.js';

/** `{"jsonrpc":"2.0","id":<idJson>,"result":<resultJson>}` */
export function successResponse(idJson: string, resultJson: string): string {
  return `{"jsonrpc":"2.0","id":${idJson},"result":${resultJson}}`;
}

/**
 * A success answer kept as its id and result texts rather than joined: a transport writes the
 * parts straight into its output bytes (answer-bytes.ts) instead of having V8 join a copy of a
 * cached block's JSON on the heap for every request, which under load was most of what a
 * chain_getBlockByHeight request allocated, and so most of the young-generation collections.
 */
export class SuccessParts {
  constructor(
    readonly idJson: string,
    readonly resultJson: string,
  ) {}
}

/** What the dispatcher answers a message with: the text, or a success answer in its parts. */
export type RpcAnswer = string | SuccessParts;

/** The answer's text (for transports that send text and for batches). */
export function answerText(answer: RpcAnswer): string {
  return typeof answer === 'string' ? answer : successResponse(answer.idJson, answer.resultJson);
}

/** `{"jsonrpc":"2.0","id":<idJson>,"error":{"code":<code>,"message":<message>}}` */
export function errorResponse(idJson: string, code: number, message: string): string {
  return `{"jsonrpc":"2.0","id":${idJson},"error":{"code":${code},"message":${JSON.stringify(message)}}}`;
}

/** `{"jsonrpc":"2.0","method":<event>,"params":<paramsJson>}`: an event for subscribers. */
export function notificationMessage(eventName: string, paramsJson: string): string {
  return `{"jsonrpc":"2.0","method":${JSON.stringify(eventName)},"params":${paramsJson}}`;
}

export const PARSE_ERROR_RESPONSE = errorResponse('null', PARSE_ERROR, 'Parse error: the request is not valid JSON.');
export const EMPTY_BATCH_RESPONSE = errorResponse('null', INVALID_REQUEST, 'Invalid request: the batch is empty.');
