/**
 * The devnet's `genesis.minimumCertifyHeight`: the first height a certificate (LIP 0061) may be
 * made for, and why it is not 1.
 *
 * A certificate is a BLS aggregate signature, checked against the BLS keys the BFT parameters of
 * the certified height hold. With pos `useInvalidBLSKey` the genesis registers every validator
 * without a BLS key, and the set it installs (the init validators, weight 1 each) stays in force
 * for all `initRounds` rounds: pos chooses a new set only at the end of the last init round.
 * That first elected set reads the keys the bootstrap transactions registered in block 1, so it
 * is the first set that can sign. Two rules of lisk-sdk's commit pool then fix the height:
 *
 * - it never aggregates below minimumCertifyHeight, and never beyond the last height of the
 *   validator set that follows the last certified height (a certificate must not skip a set
 *   change). Certifying anything in the key-less init rounds is impossible, so the first certified
 *   height must lie in the first elected set, or the pool waits forever;
 * - it can only aggregate single commits that exist, and validators sign single commits for the
 *   newly finalized height and for the last height before each set change (lisk-sdk
 *   SingleCommitHandler). The first height of a set is skipped whenever finality jumps over it;
 *   its last height never is.
 *
 * Hence the last height of the first elected round: round initRounds + 1.
 */

/**
 * The last height of round `initRounds + 1` for rounds of `roundLength` blocks counted from the
 * genesis height (pos getRoundNumberFromHeight: heights genesis+1 .. genesis+roundLength are round 1).
 */
export function devnetMinimumCertifyHeight(initRounds: number, roundLength: number, genesisHeight = 0): number {
  return genesisHeight + (initRounds + 1) * roundLength;
}
