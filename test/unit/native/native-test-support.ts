/**
 * Shared by the native tests: the skip notice when the addon is not built, and comparisons of
 * native results with the TypeScript tree's, byte for byte and in order.
 */
import { expect } from 'vitest';
import type { SmtProof, SmtUpdateResult } from '../../../src/merkle/smt/index.js';
import { nativeAvailable, nativeStatus } from '../../../src/native/index.js';

/** True when the native tests must be skipped; says so once, visibly, in the test output. */
export function nativeMissing(suite: string): boolean {
  if (!nativeAvailable) console.warn(`[native] ${suite}: SKIPPED — ${nativeStatus}`);
  return !nativeAvailable;
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

/** The parts of an update result compared between implementations, as hex. */
export function updateToHex(result: SmtUpdateResult): { root: string; writes: string[]; removed: string[] } {
  return {
    root: hex(result.root),
    writes: result.writes.map(({ hash, data }) => `${hex(hash)}:${hex(data)}`),
    removed: result.removed.map(hex),
  };
}

export function proofToHex(proof: SmtProof): { siblingHashes: string[]; queries: { key: string; value: string; bitmap: string }[] } {
  return {
    siblingHashes: proof.siblingHashes.map(hex),
    queries: proof.queries.map((query) => ({ key: hex(query.key), value: hex(query.value), bitmap: hex(query.bitmap) })),
  };
}

/** Same root, same writes (hash and data) in the same order, same removed hashes in the same order. */
export function expectSameUpdate(actual: SmtUpdateResult, expected: SmtUpdateResult, context = ''): void {
  expect(updateToHex(actual), context).toEqual(updateToHex(expected));
}

export function expectSameProof(actual: SmtProof, expected: SmtProof, context = ''): void {
  expect(proofToHex(actual), context).toEqual(proofToHex(expected));
}

/** A small deterministic PRNG (xorshift32), so that a failing random case can be replayed by seed. */
export class Random {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }

  /** Uniform integer in [0, bound). */
  int(bound: number): number {
    let x = this.state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.state = x >>> 0;
    return this.state % bound;
  }

  bytes(length: number): Buffer {
    const out = Buffer.allocUnsafe(length);
    for (let i = 0; i < length; i += 1) out[i] = this.int(256);
    return out;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }
}
