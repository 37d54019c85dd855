/**
 * Detaches one throwaway ArrayBuffer, once per process, before the node's code gets optimised.
 *
 * V8 compiles typed-array code (Buffer copies, the codec's byte readers, the answer writer) on
 * the assumption that no ArrayBuffer in the process has ever been detached, and throws all of
 * that optimised code away the first time one is. uWebSockets.js detaches the ArrayBuffer of
 * every request body it hands to JavaScript once the callback returns, so without this the first
 * RPC request deoptimised everything the start-up and the hot-path priming had compiled, and V8
 * compiled it all again under the first seconds of load. Detaching a buffer of our own first
 * makes every later compilation account for detached buffers from the start.
 */
let settled = false;

/** Detaches one empty buffer of its own (idempotent); nothing else in the process is touched. */
export function settleArrayBufferDetaching(): void {
  if (settled) return;
  settled = true;
  const throwaway = new ArrayBuffer(8);
  // Transferring a buffer detaches the original; the clone is dropped.
  structuredClone(throwaway, { transfer: [throwaway] });
}
