/** The BFT-relevant fields of a header (lisk-sdk BFT block info). */
export interface BftHeaderFields {
  readonly height: number;
  readonly generatorAddress: Buffer;
  readonly maxHeightGenerated: number;
  readonly maxHeightPrevoted: number;
}

/**
 * Whether two distinct headers of the same chain position contradict each other (LIP 0014 as
 * lisk-sdk 6 applies it in engine/bft/utils.ts; docs/protocol/bft.md): the generator
 * double-forged, or one header fails to acknowledge the other. Headers of different generators
 * never contradict. Callers handle the "same block" case (equal IDs are not contradicting).
 */
export function areDistinctHeadersContradicting(a: BftHeaderFields, b: BftHeaderFields): boolean {
  const [earlier, later] = isLaterThan(a, b) ? [b, a] : [a, b];
  if (!earlier.generatorAddress.equals(later.generatorAddress)) return false;
  // Forging twice at the same prevote height without moving up (double forging).
  if (earlier.maxHeightPrevoted === later.maxHeightPrevoted && earlier.height >= later.height) return true;
  // The later header does not count the earlier one as previously generated.
  if (earlier.height > later.maxHeightGenerated) return true;
  // The prevoted height went down.
  return earlier.maxHeightPrevoted > later.maxHeightPrevoted;
}

/** Which header counts as the later one: by maxHeightGenerated, then maxHeightPrevoted, then height. */
function isLaterThan(a: BftHeaderFields, b: BftHeaderFields): boolean {
  if (a.maxHeightGenerated !== b.maxHeightGenerated) return a.maxHeightGenerated > b.maxHeightGenerated;
  if (a.maxHeightPrevoted !== b.maxHeightPrevoted) return a.maxHeightPrevoted > b.maxHeightPrevoted;
  return a.height > b.height;
}

/** `chain_areHeadersContradicting`: false for the same block, else the rule above. */
export function areHeadersContradicting(
  a: BftHeaderFields & { readonly id: Buffer },
  b: BftHeaderFields & { readonly id: Buffer },
): boolean {
  if (a.id.equals(b.id)) return false;
  return areDistinctHeadersContradicting(a, b);
}
