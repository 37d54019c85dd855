import { InvalidParamsError } from '../../errors.js';
import { bytesEqual } from '../bytes.js';
import { climbQueries, dedupeQueriesByPath } from './calculate-root.js';
import type { SmtProof, SmtProofInput } from './types.js';

/**
 * A multiproof for fewer keys derived from a larger one, without the tree (lisk-db
 * `removeKeysFromProof`): the queries whose key is in `removedKeys` are dropped, and the sibling
 * hashes are rewritten so that the proof still verifies for the remaining keys.
 *
 * The proof is replayed like a root recomputation while tracking which climbing branches belong
 * only to removed queries:
 * - where a kept branch meets a removed one, the removed branch's hash becomes a new sibling
 *   hash, at the position the kept branch will now consume it;
 * - sibling hashes consumed only by removed branches are deleted;
 * - a branch that merges with a kept one is kept from there on.
 * Each removed key must name exactly one query. Throws InvalidParamsError on an inconsistent proof.
 */
export function removeKeysFromProof(proof: SmtProofInput, removedKeys: readonly Uint8Array[]): SmtProof {
  const isRemovedKey = (key: Uint8Array): boolean => removedKeys.some((removed) => bytesEqual(removed, key));
  const queries = dedupeQueriesByPath(proof.queries);
  for (const query of queries) query.removed = isRemovedKey(query.key);

  const added: { position: number; hash: Buffer }[] = [];
  const dropped: Uint8Array[] = [];
  // Position in the new proof's sibling list (before dropping) of the next hash to be consumed.
  let position = 0;
  const root = climbQueries(proof.siblingHashes, queries, {
    merged(query, sibling) {
      if (!query.removed && sibling.removed) {
        added.push({ position, hash: sibling.hash });
        position += 1;
      } else if (query.removed && !sibling.removed) {
        added.push({ position, hash: query.hash });
        position += 1;
        query.removed = false;
      }
    },
    consumed(query, hash) {
      position += 1;
      if (query.removed) dropped.push(hash);
    },
  });
  if (root === undefined) throw new InvalidParamsError('The SMT proof has no queries.');
  return {
    siblingHashes: rewriteSiblingHashes(proof.siblingHashes, added, dropped),
    queries: keptQueries(proof, removedKeys, isRemovedKey),
  };
}

function rewriteSiblingHashes(
  original: readonly Uint8Array[],
  added: readonly { position: number; hash: Buffer }[],
  dropped: readonly Uint8Array[],
): Buffer[] {
  const hashes: Buffer[] = original.map((hash) => Buffer.from(hash));
  for (const { position, hash } of added) {
    if (hashes.some((existing) => bytesEqual(existing, hash))) {
      throw new InvalidParamsError('Duplicate SMT proof sibling hashes.');
    }
    if (position > hashes.length) hashes.push(hash);
    else hashes.splice(position, 0, hash);
  }
  const kept = hashes.filter((hash) => !dropped.some((drop) => bytesEqual(drop, hash)));
  if (hashes.length - kept.length !== dropped.length) {
    throw new InvalidParamsError('Some sibling hashes to remove are not in the SMT proof.');
  }
  return kept;
}

function keptQueries(
  proof: SmtProofInput,
  removedKeys: readonly Uint8Array[],
  isRemovedKey: (key: Uint8Array) => boolean,
): SmtProof['queries'] {
  const kept = proof.queries
    .filter((query) => !isRemovedKey(query.key))
    .map((query) => ({
      key: Buffer.from(query.key),
      value: Buffer.from(query.value),
      bitmap: Buffer.from(query.bitmap),
    }));
  if (proof.queries.length - kept.length !== removedKeys.length) {
    throw new InvalidParamsError('Every removed key must match exactly one query of the SMT proof.');
  }
  return kept;
}
