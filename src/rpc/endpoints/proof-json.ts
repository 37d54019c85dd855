import type { SmtProof } from '../../merkle/index.js';

/** A sparse Merkle multiproof as the RPC shows it (rpc.md §3.1 ProofJSON), keys in lisk's order. */
export interface ProofJSON {
  queries: { bitmap: string; key: string; value: string }[];
  siblingHashes: string[];
}

/** The JSON form of an SMT multiproof (rpc.md §3.1): every byte string as hex. */
export function smtProofToJSON(proof: SmtProof): ProofJSON {
  return {
    queries: proof.queries.map(query => ({
      bitmap: query.bitmap.toString('hex'),
      key: query.key.toString('hex'),
      value: query.value.toString('hex'),
    })),
    siblingHashes: proof.siblingHashes.map(hash => hash.toString('hex')),
  };
}
