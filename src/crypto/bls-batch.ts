/**
 * Many BLS checks at once (the verifier pattern of docs/architecture.md, after Lodestar's
 * chain/bls): the sets go through one multi-pairing with random coefficients (blst
 * verifyMultipleAggregateSignatures,
 * https://ethresear.ch/t/fast-verification-of-multiple-bls-signatures/5407), about half the pairing
 * work of checking them one by one. A failed batch says only that some check is bad, so it is split
 * in halves until each bad check is found alone (bisection); every answer given for a single check
 * comes from the exact function of bls.ts, so batching never changes an answer.
 *
 * Only checks whose keys pass KeyValidate and whose aggregate key is not the identity enter a
 * batch: for points in the prime-order groups the batch equation holds exactly when every check
 * holds (but for a chance of 2^-64), while the identity and off-subgroup points are where one-by-
 * one and batched rules could disagree. Those few checks are made one by one.
 */
import { aggregatePublicKeys, Signature, verifyMultipleAggregateSignatures, type PublicKey, type SignatureSet } from '@chainsafe/blst';
import { blsVerify, fastAggregateVerify } from './bls.js';
import { blsPublicKeyCache } from './bls-public-key-cache.js';

/**
 * One BLS check, by bls.ts's rules: `verify` is CoreVerify with the one key of `publicKeys`,
 * `fastAggregateVerify` checks the aggregate signature of all of them.
 */
export interface BlsCheck {
  readonly kind: 'verify' | 'fastAggregateVerify';
  readonly publicKeys: readonly Uint8Array[];
  readonly message: Uint8Array;
  readonly signature: Uint8Array;
}

/** The answer for one check, on its own. */
export function verifyBlsCheck(check: BlsCheck): boolean {
  const { publicKeys, message, signature } = check;
  if (check.kind === 'fastAggregateVerify') return fastAggregateVerify(publicKeys, message, signature);
  return publicKeys.length === 1 && blsVerify(publicKeys[0] as Uint8Array, message, signature);
}

/** `answers[i]` is verifyBlsCheck(checks[i]); computed with batches where that is exact. */
export function verifyBlsChecks(checks: readonly BlsCheck[]): boolean[] {
  const answers = new Array<boolean>(checks.length).fill(false);
  const batchable: BatchItem[] = [];
  checks.forEach((check, index) => {
    const set = batchSetOf(check);
    if (set === undefined) answers[index] = verifyBlsCheck(check);
    else batchable.push({ index, set });
  });
  bisect(checks, batchable, answers);
  return answers;
}

interface BatchItem {
  readonly index: number;
  readonly set: SignatureSet;
}

function bisect(checks: readonly BlsCheck[], items: readonly BatchItem[], answers: boolean[]): void {
  if (items.length === 0) return;
  if (items.length === 1) {
    const { index } = items[0] as BatchItem;
    answers[index] = verifyBlsCheck(checks[index] as BlsCheck);
    return;
  }
  if (batchHolds(items)) {
    for (const { index } of items) answers[index] = true;
    return;
  }
  const half = items.length >> 1;
  bisect(checks, items.slice(0, half), answers);
  bisect(checks, items.slice(half), answers);
}

function batchHolds(items: readonly BatchItem[]): boolean {
  try {
    // Keys were KeyValidated when the sets were built; signatures are group-checked here.
    return verifyMultipleAggregateSignatures(
      items.map((item) => item.set),
      false,
      true,
    );
  } catch {
    return false; // the halves, and in the end the single checks, say which one is at fault
  }
}

/** The check as a batch set, or undefined when it must be checked on its own. */
function batchSetOf(check: BlsCheck): SignatureSet | undefined {
  if (check.publicKeys.length === 0 || (check.kind === 'verify' && check.publicKeys.length !== 1)) return undefined;
  const keys: PublicKey[] = [];
  for (const bytes of check.publicKeys) {
    const key = blsPublicKeyCache.getValidated(bytes);
    if (key === undefined) return undefined;
    keys.push(key);
  }
  let sig: Signature;
  let pk: PublicKey;
  try {
    sig = Signature.fromBytes(check.signature, false);
    pk = keys.length === 1 ? (keys[0] as PublicKey) : aggregatePublicKeys(keys, false);
  } catch {
    return undefined;
  }
  // Compressed encoding: bit 0x40 of the first byte flags the identity (a sum like k + -k).
  if (((pk.toBytes(true)[0] as number) & 0x40) !== 0) return undefined;
  return { msg: check.message, pk, sig };
}
