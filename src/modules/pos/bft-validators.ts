import type { MethodContext } from '../base/index.js';
import type { PosValidatorsMethod, PosValidatorsSetter } from './dependencies.js';

/**
 * Hands a validator set to BFT with the precommit and the certificate threshold both at
 * ⌊2W/3⌋ + 1 of the set's total weight W, as lisk-sdk's PoS does at genesis and for each round.
 */
export function setBftValidators(
  validators: PosValidatorsMethod,
  context: MethodContext & PosValidatorsSetter,
  weighted: readonly { readonly address: Buffer; readonly bftWeight: bigint }[],
): void {
  let totalWeight = 0n;
  for (const validator of weighted) totalWeight += validator.bftWeight;
  const threshold = (2n * totalWeight) / 3n + 1n;
  validators.setValidatorsParams(context, context, threshold, threshold, weighted);
}
