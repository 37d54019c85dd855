/**
 * state_prove over an in-memory state tree: the proof is the tree's multiproof in ProofJSON form
 * (it verifies against the root), params are 38-byte SMT keys, and bad requests are -32602.
 */
import { describe, expect, it } from 'vitest';
import { createStateEndpoints } from '../../../src/rpc/endpoints/state-endpoints.js';
import {
  EMPTY_HASH,
  InMemorySmtNodeStore,
  SparseMerkleTree,
  STATE_KEY_LENGTH,
  sha256,
  smtKeyFromStateKey,
  smtValueFromStateValue,
  verifyInclusionProof,
  verifyNonInclusionProof,
} from '../../../src/merkle/index.js';
import { dispatcherFor, proofFromJSON } from './support.js';

/** Raw state keys: store prefix 4 bytes ‖ substore prefix 2 bytes ‖ key. */
const entries = Array.from({ length: 40 }, (_, i) => ({
  key: Buffer.concat([Buffer.from('3c469e9d0000', 'hex'), sha256(Buffer.from([i])).subarray(0, 20)]),
  value: Buffer.from(`value ${i}`),
}));

function stateTree() {
  const store = new InMemorySmtNodeStore();
  const tree = new SparseMerkleTree(store, STATE_KEY_LENGTH);
  const update = tree.update(
    EMPTY_HASH,
    entries.map((entry) => smtKeyFromStateKey(entry.key)),
    entries.map((entry) => smtValueFromStateValue(entry.value)),
  );
  store.apply(update);
  return { root: update.root, tree };
}

describe('state_prove', () => {
  const { root, tree } = stateTree();
  const call = dispatcherFor(
    createStateEndpoints({
      prover: { prove: (keys) => tree.prove(root, keys), root: () => root, treeShareId: () => undefined },
      maxQueryKeys: 8,
    }),
  );

  it('answers {proof} whose queries carry the SMT key and the hash of the value, verifying against the root', async () => {
    const keys = entries.slice(0, 5).map((entry) => smtKeyFromStateKey(entry.key));
    const answer = (await call('state_prove', { queryKeys: keys.map((key) => key.toString('hex')) })).result as { proof: unknown };
    expect(Object.keys(answer)).toEqual(['proof']);
    expect(Object.keys(answer.proof as object)).toEqual(['queries', 'siblingHashes']);
    const proof = proofFromJSON(answer.proof);
    expect(verifyInclusionProof(keys, proof, root, STATE_KEY_LENGTH)).toBe(true);
    proof.queries.forEach((query, i) => {
      expect(query.key.equals(keys[i] as Buffer)).toBe(true);
      expect(query.value.equals(sha256((entries[i] as { value: Buffer }).value))).toBe(true);
    });
    const direct = tree.prove(root, keys);
    expect(JSON.stringify(answer.proof)).toBe(
      JSON.stringify({
        queries: direct.queries.map((q) => ({
          bitmap: q.bitmap.toString('hex'),
          key: q.key.toString('hex'),
          value: q.value.toString('hex'),
        })),
        siblingHashes: direct.siblingHashes.map((h) => h.toString('hex')),
      }),
    );
  });

  it('proves absent keys as absent and answers an empty query list with an empty proof', async () => {
    const absent = [smtKeyFromStateKey(Buffer.from('3c469e9d0000ffff', 'hex'))];
    const answer = (await call('state_prove', { queryKeys: absent.map((key) => key.toString('hex')) })).result as { proof: unknown };
    expect(verifyNonInclusionProof(absent, proofFromJSON(answer.proof), root, STATE_KEY_LENGTH)).toBe(true);
    expect((await call('state_prove', { queryKeys: [] })).result).toEqual({ proof: { queries: [], siblingHashes: [] } });
  });

  it('refuses keys that are not 38-byte SMT keys, bad hex, too many keys and a missing list', async () => {
    const rawKey = (entries[0] as { key: Buffer }).key.toString('hex');
    expect((await call('state_prove', { queryKeys: [rawKey] })).error).toEqual({
      code: -32602,
      message: 'Invalid params: params.queryKeys[0]: must NOT have fewer than 76 characters',
    });
    expect((await call('state_prove', { queryKeys: ['zz'.repeat(38)] })).error?.message).toBe(
      'Invalid params: params.queryKeys[0]: must match format "hex"',
    );
    expect((await call('state_prove', { queryKeys: Array(9).fill('00'.repeat(38)) })).error?.message).toBe(
      'Invalid params: params.queryKeys: must NOT have more than 8 items',
    );
    const missing = "Invalid params: params: must have required property 'queryKeys'";
    expect((await call('state_prove', {})).error).toEqual({ code: -32602, message: missing });
  });
});
