/**
 * lisk-p2p's two socketcluster events and their payloads (`elements/lisk-p2p/src/events.ts`,
 * `utils/schemas.ts`, `peer/base.ts`, `p2p_request.ts`):
 *
 * - `rpc-request` `{procedure, data?}`, sent with a `cid`, answered `{data?, peerId}` or an error;
 * - `remote-message` `{event, data?}`, never answered.
 *
 * Every `data` is the base64 text of lisk-codec bytes. An absent `data` means "no payload", which
 * is not the same as an empty payload (`""`, e.g. an empty getPeers answer).
 */
import { isPlainObject } from './socketcluster.js';

export const RPC_REQUEST_EVENT = 'rpc-request';
export const REMOTE_MESSAGE_EVENT = 'remote-message';
/** The error a Lisk node answers to a malformed rpc-request packet (`utils/validate.ts`). */
export const INVALID_RPC_REQUEST = 'RPC request format is invalid.';

export interface RpcRequestEnvelope {
  procedure: string;
  data: Buffer | undefined;
}

export interface RemoteMessageEnvelope {
  event: string;
  data: Buffer | undefined;
}

export interface RpcAnswerEnvelope {
  data: Buffer | undefined;
  /** The requester's ID as the responder sees it (`ip:claimedPort`). */
  peerId: string;
}

/**
 * An answer already in its base64 form, for answers served again and again: getBlocksFromId
 * over finalized blocks is the same text for every peer that syncs through that range.
 */
export class EncodedPayload {
  constructor(readonly base64: string) {}
}

const toBase64 = (bytes: Uint8Array | EncodedPayload | undefined): string | undefined => {
  if (bytes === undefined) return undefined;
  if (bytes instanceof EncodedPayload) return bytes.base64;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
};
const fromBase64 = (text: string | undefined): Buffer | undefined => (text === undefined ? undefined : Buffer.from(text, 'base64'));

/** Accepts exactly `{name: string, data?: string}` with no other key (lisk-p2p's ajv schemas). */
function strictEnvelope(value: unknown, nameKey: string): { name: string; data: string | undefined } | undefined {
  if (!isPlainObject(value)) return undefined;
  for (const key of Object.keys(value)) {
    if (key !== nameKey && key !== 'data') return undefined;
  }
  const name = value[nameKey];
  const { data } = value;
  if (typeof name !== 'string') return undefined;
  if (data !== undefined && typeof data !== 'string') return undefined;
  return { name, data };
}

/** Reads an rpc-request payload; undefined when it breaks the format (answered with INVALID_RPC_REQUEST). */
export function parseRpcRequest(value: unknown): RpcRequestEnvelope | undefined {
  const envelope = strictEnvelope(value, 'procedure');
  return envelope && { procedure: envelope.name, data: fromBase64(envelope.data) };
}

/** Reads a remote-message payload; undefined when it breaks the format (such messages are dropped). */
export function parseRemoteMessage(value: unknown): RemoteMessageEnvelope | undefined {
  const envelope = strictEnvelope(value, 'event');
  return envelope && { event: envelope.name, data: fromBase64(envelope.data) };
}

export function rpcRequestPayload(procedure: string, data?: Uint8Array): { procedure: string; data?: string } {
  const text = toBase64(data);
  return text === undefined ? { procedure } : { procedure, data: text };
}

export function remoteMessagePayload(event: string, data?: Uint8Array): { event: string; data?: string } {
  const text = toBase64(data);
  return text === undefined ? { event } : { event, data: text };
}

/** The `data` of a successful answer: `{data, peerId}`; `data` omitted when the handler returned nothing. */
export function rpcAnswerPayload(data: Uint8Array | EncodedPayload | undefined, peerId: string): { data?: string; peerId: string } {
  const text = toBase64(data);
  return text === undefined ? { peerId } : { data: text, peerId };
}

/**
 * The JSON text of `rpcAnswerPayload(data, peerId)`, in ASCII pieces for `answerFrameBytes`: the
 * base64 goes into the frame as it is, never through JSON.stringify.
 */
export function rpcAnswerJson(data: EncodedPayload, peerId: string): string[] {
  return ['{"data":"', data.base64, `","peerId":${JSON.stringify(peerId)}}`];
}

/** Reads a successful answer; undefined when it is not `{data?: string, peerId?: string}`. */
export function parseRpcAnswer(value: unknown): RpcAnswerEnvelope | undefined {
  if (!isPlainObject(value)) return undefined;
  const { data, peerId } = value;
  if (data !== undefined && typeof data !== 'string') return undefined;
  return { data: fromBase64(data as string | undefined), peerId: typeof peerId === 'string' ? peerId : '' };
}
