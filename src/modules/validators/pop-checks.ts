/**
 * Where the validators module gets its proof-of-possession answers (LIP 0038; lisk-sdk
 * validators/method.ts and endpoint.ts call `bls.popVerify` in place). One check costs tens of
 * milliseconds, so a node hands the module a source that computed them ahead, on other threads;
 * the module never knows where an answer came from, and every answer equals `popVerify`'s.
 */
import { popVerify } from '../../crypto/index.js';

export interface ProofOfPossessionChecks {
  /**
   * During execution (synchronous, as the command's checks are): the answer computed ahead for
   * this pair before its block executed, or computed here when there is none.
   */
  check(blsKey: Buffer, proofOfPossession: Buffer): boolean;
  /** For a request (the validateBLSKey endpoint): may run on another thread. */
  checkOffThread(blsKey: Buffer, proofOfPossession: Buffer): Promise<boolean>;
}

/** Every check on the calling thread: the module's default, and a node without worker threads. */
export const POP_CHECKS_ON_THIS_THREAD: ProofOfPossessionChecks = {
  check: (blsKey, proofOfPossession) => popVerify(blsKey, proofOfPossession),
  checkOffThread: async (blsKey, proofOfPossession) => popVerify(blsKey, proofOfPossession),
};
