import { bytesEqual } from '../bytes.js';
import { rootFromQueries, toPathQuery } from './calculate-root.js';
import { bitmapHeight, commonPrefixBits } from './key-bits.js';
import { pathKey } from './path-query.js';
import type { PathQuery } from './path-query.js';
import type { SmtProofInput } from './types.js';

type ProofQueryInput = SmtProofInput['queries'][number];

/**
 * True when `query` proves that `queryKey` is in the tree: same key, non-empty value
 * (LIP 0039 `isInclusionProof`).
 */
export function isInclusionProofForQueryKey(queryKey: Uint8Array, query: ProofQueryInput): boolean {
  return query.value.length > 0 && bytesEqual(queryKey, query.key);
}

/**
 * Checks an SMT multiproof for `queryKeys` against `root` (LIP 0039 "Proof Verification", lisk-db
 * `verify`). True for a valid proof of inclusion, of non-inclusion, or a mix;
 * use verifyInclusionProof / verifyNonInclusionProof to require one kind. Never throws.
 *
 * Checks, per query in query-key order: keys have `keyLength` bytes; the bitmap has no leading
 * zero byte; a query for a different key has a value and ends on the queried key's path; queries
 * ending at the same node agree. Then the root recomputed from the proof must equal `root`.
 */
export function verify(queryKeys: readonly Uint8Array[], proof: SmtProofInput, root: Uint8Array, keyLength: number): boolean {
  if (queryKeys.length !== proof.queries.length) return false;
  const byPath = new Map<string, ProofQueryInput>();
  const distinct: PathQuery[] = [];
  for (let i = 0; i < queryKeys.length; i += 1) {
    const queryKey = queryKeys[i] as Uint8Array;
    const query = proof.queries[i] as ProofQueryInput;
    if (queryKey.length !== keyLength || query.key.length !== keyLength) return false;
    if (query.bitmap.length > 0 && query.bitmap[0] === 0) return false;
    const height = bitmapHeight(query.bitmap);
    if (!bytesEqual(queryKey, query.key)) {
      // Non-inclusion through another leaf: that leaf must exist and sit on the queried path.
      if (query.value.length === 0) return false;
      if (height > commonPrefixBits(queryKey, query.key)) return false;
    }
    if (height > query.key.length * 8) return false;
    const path = pathKey(query.key, height);
    const earlier = byPath.get(path);
    if (earlier === undefined) {
      byPath.set(path, query);
      distinct.push(toPathQuery(query, height));
    } else if (
      !bytesEqual(earlier.bitmap, query.bitmap) ||
      !bytesEqual(earlier.value, query.value) ||
      (query.value.length > 0 && !bytesEqual(earlier.key, query.key))
    ) {
      return false;
    }
  }
  try {
    return bytesEqual(rootFromQueries(proof.siblingHashes, distinct), root);
  } catch {
    return false;
  }
}

/** verify, additionally requiring every query to prove inclusion of its key (lisk-db `verifyInclusionProof`). */
export function verifyInclusionProof(queryKeys: readonly Uint8Array[], proof: SmtProofInput, root: Uint8Array, keyLength: number): boolean {
  if (queryKeys.length !== proof.queries.length) return false;
  for (let i = 0; i < queryKeys.length; i += 1) {
    if (!isInclusionProofForQueryKey(queryKeys[i] as Uint8Array, proof.queries[i] as ProofQueryInput)) return false;
  }
  return verify(queryKeys, proof, root, keyLength);
}

/** verify, additionally requiring every query to prove non-inclusion (lisk-db `verifyNonInclusionProof`). */
export function verifyNonInclusionProof(
  queryKeys: readonly Uint8Array[],
  proof: SmtProofInput,
  root: Uint8Array,
  keyLength: number,
): boolean {
  if (queryKeys.length !== proof.queries.length) return false;
  for (let i = 0; i < queryKeys.length; i += 1) {
    if (isInclusionProofForQueryKey(queryKeys[i] as Uint8Array, proof.queries[i] as ProofQueryInput)) return false;
  }
  return verify(queryKeys, proof, root, keyLength);
}
