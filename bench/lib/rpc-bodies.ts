/**
 * The request bodies the RPC load runs send: one JSON-RPC request per line of a file that wrk
 * (wrk-rpc.lua) and our client (load-client.ts) cycle through, every request with `"id":1,`
 * (our WS client renumbers it), and the random heights an RPC provider's reads spread over.
 */
import { writeFileSync } from 'node:fs';

/** One JSON-RPC request as the load files hold it. */
export function rpcBody(method: string, params?: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
}

/** Writes `lines` (request bodies) to `path`, one per line; returns `path`. */
export function writeBodies(path: string, lines: readonly string[]): string {
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/**
 * `count` heights in 0..maxHeight from a fixed xorshift32 sequence, so every run (and every node
 * of a run) loads the same heights in the same order.
 */
export function randomHeights(count: number, maxHeight: number): number[] {
  let x = 0x9e3779b9;
  return Array.from({ length: count }, () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % (maxHeight + 1);
  });
}

/** chain_getBlockByHeight bodies for `heights`, in that order. */
export function blockByHeightBodies(heights: readonly number[]): string[] {
  return heights.map((height) => rpcBody('chain_getBlockByHeight', { height }));
}
