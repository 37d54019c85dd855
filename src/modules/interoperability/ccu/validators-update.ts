/**
 * Validators updates of cross-chain updates (LIP 0053 verifyValidatorsUpdate / updateValidators;
 * lisk-sdk base_interoperability_internal_methods.ts and utils.ts calculateNewActiveValidators).
 */
import { ExecutionError } from '../../../errors.js';
import type { MethodContext, ReadContext } from '../../base/index.js';
import { MAX_NUM_VALIDATORS, MAX_UINT64 } from '../constants.js';
import { chainValidatorsStore } from '../stores.js';
import type { ActiveValidator } from '../types.js';
import { allDistinct, computeValidatorsHash, isAscending } from '../utils.js';
import { decodeCertificate } from './certificate.js';
import type { CrossChainUpdateParams } from './params.js';

/** The bitmap as a number: its last byte holds bits 0..7 (lisk-sdk reads it as a big-endian hex integer). */
function bitmapToBigInt(bitmap: Buffer): bigint {
  return bitmap.length === 0 ? 0n : BigInt(`0x${bitmap.toString('hex')}`);
}

function bitAt(bitmap: bigint, index: number): boolean {
  return ((bitmap >> BigInt(index)) & 1n) === 1n;
}

/**
 * lisk-sdk calculateNewActiveValidators: the current and new keys in key order, each selected by
 * the bitmap taking the next weight of the update, then those with weight 0 removed.
 */
export function calculateNewActiveValidators(
  activeValidators: readonly ActiveValidator[],
  blsKeysUpdate: readonly Buffer[],
  bftWeightsUpdate: readonly bigint[],
  bftWeightsUpdateBitmap: Buffer,
): ActiveValidator[] {
  const all = [
    ...activeValidators.map((validator) => ({ ...validator })),
    ...blsKeysUpdate.map((blsKey) => ({ blsKey, bftWeight: 0n })),
  ].sort((a, b) => a.blsKey.compare(b.blsKey));
  const bitmap = bitmapToBigInt(bftWeightsUpdateBitmap);
  let used = 0;
  for (let i = 0; i < all.length; i += 1) {
    if (!bitAt(bitmap, i)) continue;
    // An index past the weights gives undefined in lisk-sdk; the count check below rejects it.
    (all[i] as ActiveValidator).bftWeight = bftWeightsUpdate[used] as bigint;
    used += 1;
  }
  if (used !== bftWeightsUpdate.length) throw new ExecutionError('No BFT weights should be left.');
  return all.filter((validator) => validator.bftWeight > 0n);
}

/** LIP 0053 verifyValidatorsUpdate, with lisk-sdk's checks and messages in its order. */
export function verifyValidatorsUpdate(ctx: ReadContext, params: CrossChainUpdateParams): void {
  if (params.certificate.length === 0) {
    throw new ExecutionError('Certificate must be non-empty if validators have been updated.');
  }
  const { bftWeightsUpdate, bftWeightsUpdateBitmap, blsKeysUpdate } = params.activeValidatorsUpdate;
  if (!isAscending(blsKeysUpdate)) throw new ExecutionError('Keys are not sorted in lexicographic order.');

  const { activeValidators } = chainValidatorsStore.getOrThrow(ctx.state, params.sendingChainID);
  const allKeys = [...activeValidators.map((validator) => validator.blsKey), ...blsKeysUpdate].sort((a, b) => a.compare(b));
  if (!allDistinct(allKeys)) throw new ExecutionError('Keys have duplicated entry.');

  const expectedBitmapLength = Math.floor((allKeys.length + 7) / 8);
  if (bftWeightsUpdateBitmap.length !== expectedBitmapLength) {
    throw new ExecutionError(`Invalid bftWeightsUpdateBitmap. Expected length ${expectedBitmapLength}.`);
  }
  const bitmap = bitmapToBigInt(bftWeightsUpdateBitmap);
  const setBits = (bitmap.toString(2).match(/1/g) ?? []).length;
  if (setBits !== bftWeightsUpdate.length) {
    throw new ExecutionError('The number of 1s in the bitmap is not equal to the number of new BFT weights.');
  }

  const newKeys = new Set(blsKeysUpdate.map((key) => key.toString('hex')));
  let weightIndex = 0;
  for (let i = 0; i < allKeys.length; i += 1) {
    const selected = bitAt(bitmap, i);
    if (newKeys.has((allKeys[i] as Buffer).toString('hex'))) {
      if (!selected) throw new ExecutionError('New validators must have a BFT weight update.');
      // lisk-sdk reads the weight at the running index, as here.
      if (bftWeightsUpdate[weightIndex] === 0n) throw new ExecutionError('New validators must have a positive BFT weight.');
    }
    if (selected) weightIndex += 1;
  }

  const newValidators = calculateNewActiveValidators(activeValidators, blsKeysUpdate, bftWeightsUpdate, bftWeightsUpdateBitmap);
  if (newValidators.length < 1 || newValidators.length > MAX_NUM_VALIDATORS) {
    throw new ExecutionError(`Invalid validators array. It must have at least 1 element and at most ${MAX_NUM_VALIDATORS} elements.`);
  }
  let totalWeight = 0n;
  for (const validator of newValidators) {
    if (validator.bftWeight === 0n) throw new ExecutionError('Validator bft weight must be positive integer.');
    totalWeight += validator.bftWeight;
    if (totalWeight > MAX_UINT64) throw new ExecutionError('Total BFT weight exceeds maximum value.');
  }
  const certificate = decodeCertificate(params.certificate);
  if (params.certificateThreshold < totalWeight / 3n + 1n) throw new ExecutionError('Certificate threshold is too small.');
  if (params.certificateThreshold > totalWeight) throw new ExecutionError('Certificate threshold is too large.');
  if (!certificate.validatorsHash.equals(computeValidatorsHash(newValidators, params.certificateThreshold))) {
    throw new ExecutionError('ValidatorsHash in certificate and the computed values do not match.');
  }
}

/** LIP 0053 updateValidators: the stored validators and threshold of the sending chain become the updated ones. */
export function updateValidators(ctx: MethodContext, params: CrossChainUpdateParams): void {
  const current = chainValidatorsStore.getOrThrow(ctx.state, params.sendingChainID);
  const { blsKeysUpdate, bftWeightsUpdate, bftWeightsUpdateBitmap } = params.activeValidatorsUpdate;
  chainValidatorsStore.set(ctx.state, params.sendingChainID, {
    activeValidators: calculateNewActiveValidators(current.activeValidators, blsKeysUpdate, bftWeightsUpdate, bftWeightsUpdateBitmap),
    certificateThreshold: params.certificateThreshold,
  });
}
