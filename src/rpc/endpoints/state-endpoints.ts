/**
 * The engine's `state` namespace (lisk-sdk engine/endpoint/state.ts): `state_prove`, a multiproof
 * of state entries against the stateRoot of the last block.
 *
 * The query keys are SMT keys, as lisk-sdk 6.1 takes them: its endpoint passes them unchanged to
 * lisk-db's StateDB.prove, which walks the 38-byte-key tree without hashing them, and lisk-sdk's
 * chain connector asks for `storePrefix ‖ substorePrefix ‖ H(chainID)` (the SMT key of the outbox
 * root entry), not for the raw state key. `smtKeyFromStateKey` turns a raw state key into one.
 */
import type { SmtProof } from '../../merkle/index.js';
import type { RpcMethod } from '../registry.js';
import { stateProveRequest } from './chain-requests.js';
import { OFFLOAD_MIN_STATE_PROOF_KEYS, stateProofJson, type ReadTaskPool } from './chain-read-offload.js';
import { stateProofJsonText } from '../../chain/json/proof-json.js';
import { RawJson } from '../raw-json.js';

/**
 * Proofs over the committed state tree, meant to be provided by StateDb: the multiproof of the
 * given 38-byte SMT keys under the committed root, which is the tip header's stateRoot (block and
 * state are committed in one LMDB transaction; while the next block's transaction is still being
 * written, the tree already holds its root but proves against this one, StateTree.settledRoot).
 */
export interface StateTreeProver {
  prove(queryKeys: readonly Uint8Array[]): SmtProof;
  /** The committed root the proofs are against. */
  root(): Buffer;
  /** The share id through which workers read the same tree; undefined when they cannot. */
  treeShareId(): number | undefined;
}

export interface StateEndpointsOptions {
  readonly prover: StateTreeProver;
  /**
   * Given, and the tree shared with workers: proofs of OFFLOAD_MIN_STATE_PROOF_KEYS keys or more
   * are built in the worker pool.
   */
  readonly offload?: ReadTaskPool;
  /** Most query keys in one call. */
  readonly maxQueryKeys?: number;
}

/** Builds `state_prove`: `{queryKeys: hex[]}` → `{proof: ProofJSON}`. */
export function createStateEndpoints(options: StateEndpointsOptions): RpcMethod[] {
  const { prover } = options;
  return [
    {
      namespace: 'state',
      name: 'prove',
      request: stateProveRequest(options.maxQueryKeys ?? 1000),
      invoke: (params) => {
        const keysHex = params.queryKeys as string[];
        const inMainThread = () => stateProofJsonText(prover.prove(keysHex.map((key) => Buffer.from(key, 'hex'))));
        const { offload } = options;
        const treeId = prover.treeShareId();
        if (offload === undefined || treeId === undefined || keysHex.length < OFFLOAD_MIN_STATE_PROOF_KEYS) {
          return new RawJson(inMainThread());
        }
        return stateProofJson(offload, treeId, prover.root(), keysHex, inMainThread).then((json) => new RawJson(json));
      },
    },
  ];
}
