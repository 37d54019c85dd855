/**
 * Aggregate signatures over a key list with an aggregation bitmap (LIP 0062):
 * key i of the list is selected by bit (i & 7) of byte (i >> 3), least significant bit first.
 * The bitmap has exactly ceil(n/8) bytes and sets no bit ≥ n.
 */
import { CryptoError } from '../errors.js';
import { aggregateSignatures, fastAggregateVerify } from './bls.js';
import { verifyBlsCheck, type BlsCheck } from './bls-batch.js';
import { taggedDigest } from './message.js';

export interface PublicKeySignaturePair {
  readonly publicKey: Uint8Array;
  readonly signature: Uint8Array;
}

export interface AggregateSignature {
  readonly aggregationBits: Buffer;
  readonly signature: Buffer;
}

/** True when `aggregationBits` is a well-formed bitmap for a list of `keyCount` keys. */
export function isValidAggregationBits(keyCount: number, aggregationBits: Uint8Array): boolean {
  if (aggregationBits.length !== Math.ceil(keyCount / 8)) return false;
  const usedBitsInLastByte = keyCount % 8;
  if (usedBitsInLastByte === 0) return true;
  return aggregationBits[aggregationBits.length - 1]! >> usedBitsInLastByte === 0;
}

/** Whether key `index` is selected by the bitmap. */
export function isKeySelected(aggregationBits: Uint8Array, index: number): boolean {
  return ((aggregationBits[index >> 3]! >> (index & 7)) & 1) === 1;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

/**
 * createAggSig: the bitmap of the signers within `keyList` and the aggregate of their
 * signatures. Throws CryptoError when a signer is not in the list (the SDK silently skipped its
 * bit but still aggregated its signature, which could never verify) or when aggregation fails.
 */
export function createAggSig(keyList: readonly Uint8Array[], pubKeySignaturePairs: readonly PublicKeySignaturePair[]): AggregateSignature {
  const aggregationBits = Buffer.alloc(Math.ceil(keyList.length / 8));
  for (const pair of pubKeySignaturePairs) {
    const index = keyList.findIndex((key) => equalBytes(key, pair.publicKey));
    if (index < 0) throw new CryptoError('Cannot aggregate: a signer key is not in the key list.');
    aggregationBits[index >> 3]! |= 1 << (index & 7);
  }
  const signature = aggregateSignatures(pubKeySignaturePairs.map((pair) => pair.signature));
  return { aggregationBits, signature };
}

function selectKeys(keyList: readonly Uint8Array[], aggregationBits: Uint8Array): Uint8Array[] {
  const selected: Uint8Array[] = [];
  for (let i = 0; i < keyList.length; i++) {
    if (isKeySelected(aggregationBits, i)) selected.push(keyList[i]!);
  }
  return selected;
}

/** verifyAggSig (LIP 0062): bitmap rules, then FastAggregateVerify over H(tag ‖ chainID ‖ message). */
export function verifyAggSig(
  keyList: readonly Uint8Array[],
  aggregationBits: Uint8Array,
  signature: Uint8Array,
  tag: string,
  chainID: Uint8Array,
  message: Uint8Array,
): boolean {
  if (!isValidAggregationBits(keyList.length, aggregationBits)) return false;
  return fastAggregateVerify(selectKeys(keyList, aggregationBits), taggedDigest(tag, chainID, message), signature);
}

/**
 * verifyWeightedAggSig (LIP 0062): as verifyAggSig, and the weights of the selected keys must
 * sum to at least `threshold` (certificates: BFT weights vs the certificate threshold).
 */
export function verifyWeightedAggSig(
  keyList: readonly Uint8Array[],
  aggregationBits: Uint8Array,
  signature: Uint8Array,
  tag: string,
  chainID: Uint8Array,
  message: Uint8Array,
  weights: readonly bigint[],
  threshold: bigint,
): boolean {
  const check = weightedAggSigCheck(keyList, aggregationBits, signature, tag, chainID, message, weights, threshold);
  return check !== undefined && verifyBlsCheck(check);
}

/**
 * The pairing part of verifyWeightedAggSig as a BlsCheck, for a SignatureVerifier to run (the
 * worker pool), or undefined when the bitmap or the weights already fail it.
 */
export function weightedAggSigCheck(
  keyList: readonly Uint8Array[],
  aggregationBits: Uint8Array,
  signature: Uint8Array,
  tag: string,
  chainID: Uint8Array,
  message: Uint8Array,
  weights: readonly bigint[],
  threshold: bigint,
): BlsCheck | undefined {
  if (!isValidAggregationBits(keyList.length, aggregationBits)) return undefined;
  if (weights.length !== keyList.length) return undefined;
  let weightSum = 0n;
  const selected: Uint8Array[] = [];
  for (let i = 0; i < keyList.length; i++) {
    if (isKeySelected(aggregationBits, i)) {
      selected.push(keyList[i]!);
      weightSum += weights[i]!;
    }
  }
  if (weightSum < threshold) return undefined;
  return { kind: 'fastAggregateVerify', publicKeys: selected, message: taggedDigest(tag, chainID, message), signature };
}
