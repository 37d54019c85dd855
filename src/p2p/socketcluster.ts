/**
 * The subset of the socketcluster v1 protocol that Lisk P2P uses (socketcluster-server 14.6.0
 * `scserversocket.js`/`response.js`, socketcluster-client 14.3.1 `lib/sctransport.js`,
 * sc-formatter 3.0.3): JSON text frames, `#handshake`, `cid`/`rid` correlation, the text ping
 * `#1` answered by `#2`, and `#disconnect`. Channels, auth tokens and batches are not used;
 * a Lisk server bans a client that sends the channel or auth events.
 */
import { MAX_EVENT_NAME_LENGTH } from './constants.js';
import { P2pProtocolError } from './errors.js';

/** The server's keep-alive ping and the client's answer: raw text, never JSON. */
export const SC_PING = '#1';
export const SC_PONG = '#2';
export const SC_HANDSHAKE = '#handshake';
export const SC_DISCONNECT = '#disconnect';

/** Events a Lisk server treats as an attack (`elements/lisk-p2p/src/peer_server/peer_server.ts`). */
const FORBIDDEN_EVENTS = new Set(['#authenticate', '#removeAuthToken', '#subscribe', '#unsubscribe', '#publish']);
const PACKET_KEYS = new Set(['event', 'cid', 'rid', 'data', 'error']);

export type ScPacket =
  | { kind: 'ping' }
  | { kind: 'pong' }
  | { kind: 'event'; event: string; data: unknown; cid: number | undefined }
  | { kind: 'answer'; rid: number; data: unknown; error: unknown }
  /** Valid JSON that is none of the above (e.g. a batch array); socketcluster ignores it. */
  | { kind: 'other' };

/** The server's answer to `#handshake`; `pingTimeout` must be present or a socketcluster client times out at once. */
export interface HandshakeAnswer {
  id: string;
  pingTimeout: number;
  isAuthenticated: boolean;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses one text frame; throws P2pProtocolError when it is neither `#1`/`#2` nor JSON. */
export function parseFrame(text: string): ScPacket {
  if (text === SC_PING) return { kind: 'ping' };
  if (text === SC_PONG) return { kind: 'pong' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new P2pProtocolError('Frame is not JSON');
  }
  if (!isPlainObject(value)) return { kind: 'other' };
  if (typeof value.event === 'string') {
    return { kind: 'event', event: value.event, data: value.data, cid: Number.isInteger(value.cid) ? (value.cid as number) : undefined };
  }
  if (Number.isInteger(value.rid)) return { kind: 'answer', rid: value.rid as number, data: value.data, error: value.error };
  return { kind: 'other' };
}

/**
 * The frame filter a Lisk server applies to every frame a client sends, before socketcluster
 * sees it (`peer_server.ts` `_handleIncomingPayload`): `#2` passes; anything else must be a JSON
 * object with only `event` (string), `cid`/`rid` (integers), `data`/`error` (objects), and an
 * event name of at most 128 characters that is not a channel/auth event. Returns why a frame
 * fails, or undefined. A failing frame costs the sender's IP a 24 h ban.
 */
export function clientFrameProblem(text: string): string | undefined {
  if (text === SC_PONG) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'frame is not JSON';
  }
  if (!isPlainObject(value)) return 'frame is not a JSON object';
  for (const [key, field] of Object.entries(value)) {
    if (!PACKET_KEYS.has(key)) return `frame has the unknown key ${key}`;
    if (key === 'event' && typeof field !== 'string') return 'event is not a string';
    if ((key === 'cid' || key === 'rid') && !Number.isInteger(field)) return `${key} is not an integer`;
    if ((key === 'data' || key === 'error') && !isPlainObject(field)) return `${key} is not an object`;
  }
  const { event } = value;
  if (typeof event === 'string' && (FORBIDDEN_EVENTS.has(event) || event.length > MAX_EVENT_NAME_LENGTH)) {
    return `event ${event.slice(0, MAX_EVENT_NAME_LENGTH)} is not allowed`;
  }
  return undefined;
}

/** Serialises an event packet; `cid` only when an answer is wanted, `data` omitted when undefined. */
export function eventFrame(event: string, data: unknown, cid?: number): string {
  const packet: Record<string, unknown> = { event };
  if (data !== undefined) packet.data = data;
  if (cid !== undefined) packet.cid = cid;
  return JSON.stringify(packet);
}

/** Serialises an answer: `{rid, data}`, `data` omitted when undefined (`response.js` end). */
export function answerFrame(rid: number, data: unknown): string {
  return JSON.stringify(data === undefined ? { rid } : { rid, data });
}

/**
 * The bytes of `answerFrame(rid, data)` for a `data` given as its JSON text, in pieces that are
 * ASCII only (base64 and addresses are), written into one buffer. A getBlocksFromId answer
 * carries up to 2 MB of base64: serialising it into a string, measuring that and encoding it
 * again for the socket takes three passes over it on the network thread; this takes one copy.
 */
export function answerFrameBytes(rid: number, dataJson: readonly string[]): Buffer {
  const head = `{"rid":${JSON.stringify(rid)},"data":`;
  let length = head.length + 1;
  for (const piece of dataJson) length += piece.length;
  const frame = Buffer.allocUnsafe(length);
  let offset = frame.write(head, 0, 'latin1');
  for (const piece of dataJson) offset += frame.write(piece, offset, 'latin1');
  frame.write('}', offset, 'latin1');
  return frame;
}

/** Serialises an error answer; like a Lisk node, only the message travels. */
export function errorFrame(rid: number, message: string): string {
  return JSON.stringify({ rid, error: { message } });
}

/** The `#disconnect` event a closing side sends before its close frame. */
export function disconnectFrame(code: number, reason: string | undefined): string {
  return eventFrame(SC_DISCONNECT, reason === undefined ? { code } : { code, data: reason });
}

/** The message of an error answer, as socketcluster-client rehydrates it. */
export function remoteErrorMessage(error: unknown): string {
  if (isPlainObject(error) && typeof error.message === 'string') return error.message;
  if (typeof error === 'string') return error;
  return 'Invalid error message format';
}

/** Reads a `#disconnect` payload `{code, data}`; undefined when malformed. */
export function parseDisconnect(data: unknown): { code: number; reason: string } | undefined {
  if (!isPlainObject(data) || !Number.isInteger(data.code)) return undefined;
  const reason = typeof data.data === 'string' ? data.data : data.data === undefined ? '' : JSON.stringify(data.data);
  return { code: data.code as number, reason };
}

export { isPlainObject };
