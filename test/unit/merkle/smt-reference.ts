/**
 * A naive sparse Merkle tree written straight from the recursive definition in
 * docs/protocol/merkle-trees.md, used as the reference in property tests: node(S, depth) = Empty if
 * |S| = 0, Leaf if
 * |S| = 1, else Branch(node(S_bit0, depth + 1), node(S_bit1, depth + 1)). Its hashing uses
 * node:crypto directly so that it shares no code with src/merkle.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';

export const sha = (...parts: Uint8Array[]): Buffer => createHash('sha256').update(Buffer.concat(parts)).digest();
export const REF_EMPTY = sha();
const LEAF = Buffer.from('LSK_SMTL_');
const BRANCH = Buffer.from('LSK_SMTB_');

const bit = (key: Uint8Array, i: number): number => ((key[i >> 3] as number) >> (7 - (i % 8))) & 1;

function node(entries: { key: Buffer; value: Buffer }[], depth: number): Buffer {
  if (entries.length === 0) return REF_EMPTY;
  if (entries.length === 1) {
    const [only] = entries as [{ key: Buffer; value: Buffer }];
    return sha(LEAF, only.key, only.value);
  }
  const left = entries.filter((entry) => bit(entry.key, depth) === 0);
  const right = entries.filter((entry) => bit(entry.key, depth) === 1);
  return sha(BRANCH, node(left, depth + 1), node(right, depth + 1));
}

/** Root of the data set `model` (hex key → value). */
export function referenceRoot(model: ReadonlyMap<string, Buffer>): Buffer {
  return node(
    [...model].map(([key, value]) => ({ key: Buffer.from(key, 'hex'), value })),
    0,
  );
}

/** Applies writes in order to a model: an empty value deletes. */
export function applyToModel(model: Map<string, Buffer>, writes: readonly { key: Uint8Array; value: Uint8Array }[]): void {
  for (const { key, value } of writes) {
    const id = Buffer.from(key).toString('hex');
    if (value.length === 0) model.delete(id);
    else model.set(id, Buffer.from(value));
  }
}

/**
 * Keys that share long prefixes (bytes drawn from a few values), so that trees get deep, leaves
 * move up and down, and Branch(Empty, x) chains appear.
 */
export const clusteredKeyArb = (keyLength: number) =>
  fc.uint8Array({ minLength: keyLength, maxLength: keyLength }).map((bytes) => {
    const choices = [0x00, 0x01, 0x80, 0xff, 0x7f, 0x40];
    return Buffer.from(bytes.map((b) => choices[b % choices.length] as number));
  });

export const randomKeyArb = (keyLength: number) =>
  fc.uint8Array({ minLength: keyLength, maxLength: keyLength }).map((bytes) => Buffer.from(bytes));

/** A value: empty (a delete) about one time in four. */
export const valueArb = fc.oneof(
  { weight: 1, arbitrary: fc.constant(Buffer.alloc(0)) },
  { weight: 3, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 6 }).map((bytes) => Buffer.from(bytes)) },
);
