/**
 * A success answer's UTF-8 bytes, written from its parts (SuccessParts) into one buffer that is
 * reused from answer to answer. uWebSockets.js copies what it is given before `end`/`send`
 * returns, so the bytes are needed only for that call; joining the parts as strings instead made
 * V8 allocate a flat copy of the result on the heap for every answer (a cached block's JSON, 1 to
 * 40 KB), and uWS then converted that copy to UTF-8 once more.
 *
 * The bytes are those of the joined string: UTF-8 of well-formed text is unique. A result that is
 * not well-formed UTF-16 (a lone surrogate: JSON.stringify never writes one, but a hand-built text
 * might) or is very large is left to the string path, which stays the reference for both.
 */
import { answerText, type RpcAnswer, type SuccessParts } from './response.js';

const HEAD = Buffer.from('{"jsonrpc":"2.0","id":');
const RESULT = Buffer.from(',"result":');
const CLOSE = 0x7d; // '}'
/** Results longer than this (UTF-16 units) are joined as strings: the buffer stays small. */
export const MAX_PARTS_CHARS = 256 * 1024;
/** UTF-8 bytes per UTF-16 unit, at most. */
const MAX_BYTES_PER_UNIT = 3;

/**
 * Node's UTF-8 writer behind `Buffer#write(text, offset, 'utf8')`, without that method's argument
 * parsing, which cost more than the copy itself for the short texts of most answers (profiled).
 */
type Utf8Writer = Buffer & { utf8Write(text: string, offset: number): number };

let scratch = Buffer.allocUnsafe(64 * 1024) as Utf8Writer;

/**
 * Views of `scratch` by length, so that answering allocates no view per request (a typed array
 * is some 100 bytes of young-generation garbage, each a share of the next scavenge's pause):
 * a hot block's answer has one length, a chain's blocks a bounded set. Emptied when full and
 * whenever `scratch` is replaced.
 */
const views = new Map<number, Uint8Array>();
const MAX_VIEWS = 4096;

function viewOf(length: number): Uint8Array {
  let view = views.get(length);
  if (view === undefined) {
    if (views.size >= MAX_VIEWS) views.clear();
    view = new Uint8Array(scratch.buffer, scratch.byteOffset, length);
    views.set(length, view);
  }
  return view;
}

/** `String.prototype.isWellFormed` (ES2024; V8 answers a one-byte string without a scan). */
const isWellFormed = (text: string): boolean => (text as unknown as { isWellFormed(): boolean }).isWellFormed();

/**
 * The answer's bytes, valid until the next call (undefined: send `answerText(parts)` instead).
 * Callers hand them to uWS at once, on the same thread.
 */
export function successBytes(parts: SuccessParts): Uint8Array | undefined {
  const { idJson, resultJson } = parts;
  if (resultJson.length > MAX_PARTS_CHARS || !isWellFormed(resultJson) || !isWellFormed(idJson)) return undefined;
  const bound = HEAD.length + RESULT.length + 1 + MAX_BYTES_PER_UNIT * (idJson.length + resultJson.length);
  if (bound > scratch.length) {
    scratch = Buffer.allocUnsafe(Math.max(bound, 2 * scratch.length)) as Utf8Writer;
    views.clear();
  }
  let at = HEAD.copy(scratch, 0);
  at += scratch.utf8Write(idJson, at);
  at += RESULT.copy(scratch, at);
  at += scratch.utf8Write(resultJson, at);
  scratch[at] = CLOSE;
  return viewOf(at + 1);
}

/**
 * What a transport hands uWS for `answer`: its bytes (valid until the next call) or, on the string
 * path, its text.
 */
export function answerPayload(answer: RpcAnswer): string | Uint8Array {
  return typeof answer === 'string' ? answer : (successBytes(answer) ?? answerText(answer));
}
