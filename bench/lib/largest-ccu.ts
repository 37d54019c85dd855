/**
 * The largest cross-chain update lisk-sdk's limits allow, on the real interop mainchain
 * (test/fixtures/chains/interop-dev/mainchain) before height 49: the sidechain's stored
 * validators are replaced by MAX_NUM_VALIDATORS (199) generated BLS keys, which sign the
 * certificate; the CCU replaces all of them by 199 new keys (a full activeValidatorsUpdate), and
 * fills the rest of `maxTransactionsSize` with token:transferCrossChain messages (each far below
 * MAX_CCM_SIZE), copies of the sidechain's real message of height 49. The certificate's state root
 * is a small state tree proving the sidechain's outbox root, so every check of the command runs
 * and passes: verification, the aggregate signature, the outbox root proof, every message.
 */
import { Transaction } from '../../src/chain/transaction.js';
import { codec } from '../../src/codec/index.js';
import { createAggSig, MESSAGE_TAG_CERTIFICATE, sha256, signBLS, blsPublicKeyFromSecretKey } from '../../src/crypto/index.js';
import { InMemorySmtNodeStore } from '../../src/merkle/smt/in-memory-node-store.js';
import { SparseMerkleTree } from '../../src/merkle/smt/sparse-merkle-tree.js';
import { STATE_KEY_LENGTH } from '../../src/merkle/smt/state-key.js';
import { impliedPartnerOutboxRoot } from '../../src/modules/interoperability/ccu/inbox-update.js';
import { calculateNewActiveValidators } from '../../src/modules/interoperability/ccu/validators-update.js';
import {
  ccmSchema,
  certificateSchema,
  chainAccountStore,
  chainValidatorsStore,
  computeValidatorsHash,
  crossChainUpdateParamsSchema,
  MAX_CCM_SIZE,
  MAX_NUM_VALIDATORS,
  outboxRootSchema,
  outboxRootStore,
  unsignedCertificateSchema,
  type CrossChainUpdateParams,
} from '../../src/modules/interoperability/index.js';
import { escrowKey, escrowStore } from '../../src/modules/token/stores.js';
import { MemoryState } from '../../src/state/memory-state.js';
import { OverlayState } from '../../src/state/overlay-state.js';

export interface BuiltCcu {
  readonly transaction: Transaction;
  readonly params: CrossChainUpdateParams;
  /** The state before the block, edited to accept the CCU. */
  readonly state: MemoryState;
  readonly messages: number;
}

interface Key {
  readonly secretKey: Buffer;
  readonly blsKey: Buffer;
}

function keys(label: string): Key[] {
  return Array.from({ length: MAX_NUM_VALIDATORS }, (_, i) => {
    const secretKey = sha256(Buffer.from(`basalt-bench:interop:${label}:${i}`));
    return { secretKey, blsKey: blsPublicKeyFromSecretKey(secretKey) };
  }).sort((a, b) => a.blsKey.compare(b.blsKey));
}

/**
 * Builds the CCU on `before` (the mainchain's module state before `fixture`'s block, which must
 * carry a CCU with at least one message) for a block with `timestamp`.
 */
export function buildLargestCcu(
  before: MemoryState,
  fixture: { readonly transaction: Transaction; readonly params: CrossChainUpdateParams },
  ownChainID: Buffer,
  timestamp: number,
  maxTransactionsSize: number,
): BuiltCcu {
  const { sendingChainID } = fixture.params;
  const edits = new OverlayState(before);
  const signers = keys('signers');
  const next = keys('next');
  // One unit of weight each; a two-thirds threshold, as a PoS sidechain would have.
  const threshold = BigInt(Math.floor((2 * MAX_NUM_VALIDATORS) / 3) + 1);
  const activeValidators = signers.map(({ blsKey }) => ({ blsKey, bftWeight: 1n }));
  chainValidatorsStore.set(edits, sendingChainID, { activeValidators, certificateThreshold: threshold });
  // Plenty of escrowed LSK behind the transfers.
  const template = fixture.params.inboxUpdate.crossChainMessages[0];
  if (template === undefined) throw new Error('interop: the fixture CCU carries no message to copy.');
  const lsk = Buffer.concat([ownChainID, Buffer.alloc(4)]);
  escrowStore.set(edits, escrowKey(sendingChainID, lsk), { amount: 10n ** 17n });

  // Every old key leaves (weight 0), every new one comes with weight 1: a bit for each of the 398.
  const all = [...signers, ...next].sort((a, b) => a.blsKey.compare(b.blsKey));
  const newKeys = new Set(next.map(({ blsKey }) => blsKey.toString('hex')));
  const bftWeightsUpdate = all.map(({ blsKey }) => (newKeys.has(blsKey.toString('hex')) ? 1n : 0n));
  const bitmap = (1n << BigInt(all.length)) - 1n;
  const bftWeightsUpdateBitmap = Buffer.from(bitmap.toString(16).padStart(Math.ceil(all.length / 8) * 2, '0'), 'hex');
  const blsKeysUpdate = next.map(({ blsKey }) => blsKey);
  const newValidators = calculateNewActiveValidators(activeValidators, blsKeysUpdate, bftWeightsUpdate, bftWeightsUpdateBitmap);

  const state = new MemoryState(before.iterate({ gte: Buffer.alloc(0), lte: Buffer.alloc(64, 0xff) }));
  for (const { key, value } of edits.changes()) state.put(key, value);
  const lastCertificate = chainAccountStore.getOrThrow(state, sendingChainID).lastCertificate;
  const unsigned = {
    blockID: sha256(Buffer.from('basalt-bench:interop:block')),
    height: lastCertificate.height + 1,
    timestamp: timestamp - 1,
    stateRoot: Buffer.alloc(32),
    validatorsHash: computeValidatorsHash(newValidators, threshold),
  };
  const base: CrossChainUpdateParams = {
    ...fixture.params,
    certificateThreshold: threshold,
    activeValidatorsUpdate: { blsKeysUpdate, bftWeightsUpdate, bftWeightsUpdateBitmap },
    inboxUpdate: { ...fixture.params.inboxUpdate, messageWitnessHashes: [] },
  };
  const certificateOf = (stateRoot: Buffer, witness: { bitmap: Buffer; siblingHashes: Buffer[] }) => {
    const message = codec.encode(unsignedCertificateSchema, { ...unsigned, stateRoot });
    const signature = createAggSig(
      signers.map(({ blsKey }) => blsKey),
      signers.map(({ blsKey, secretKey }) => ({
        publicKey: blsKey,
        signature: signBLS(MESSAGE_TAG_CERTIFICATE, sendingChainID, message, secretKey),
      })),
    );
    return { certificate: codec.encode(certificateSchema, { ...unsigned, stateRoot, ...signature }), witness };
  };
  const transactionOf = (params: CrossChainUpdateParams) =>
    new Transaction({ ...fixture.transaction, params: codec.encode(crossChainUpdateParamsSchema, params) });

  // As many copies of the message as fit (distinct nonces), measured with a placeholder
  // certificate and witness of about the final sizes.
  const placeholder = {
    certificate: codec.encode(certificateSchema, { ...unsigned, aggregationBits: Buffer.alloc(25, 0xff), signature: Buffer.alloc(96) }),
    witness: { bitmap: Buffer.alloc(1, 1), siblingHashes: [Buffer.alloc(32)] },
  };
  const ccm = codec.decode<{ nonce: bigint }>(ccmSchema, template);
  let messages: Buffer[] = [];
  for (let i = 0; ; i += 1) {
    const candidate = [...messages, codec.encode(ccmSchema, { ...ccm, nonce: ccm.nonce + BigInt(i) * 1_000n })];
    if ((candidate[candidate.length - 1] as Buffer).length > MAX_CCM_SIZE) throw new Error('interop: a message exceeds MAX_CCM_SIZE.');
    const params = withInbox(base, candidate, placeholder);
    if (transactionOf(params).bytes.length > maxTransactionsSize) break;
    messages = candidate;
  }

  // The placeholder witness may be shorter than the real one: drop messages until it all fits.
  for (; messages.length > 0; messages = messages.slice(0, -1)) {
    const params = signedWith(state, base, messages, ownChainID, certificateOf);
    const transaction = transactionOf(params);
    if (transaction.bytes.length <= maxTransactionsSize) return { transaction, params, state, messages: messages.length };
  }
  throw new Error('interop: not even one message fits beside the validators update.');
}

/**
 * The params with `messages`, a certificate whose state root is a two-leaf state tree holding the
 * sidechain's outbox root once the messages are in, and the inclusion proof of that leaf.
 */
function signedWith(
  state: MemoryState,
  base: CrossChainUpdateParams,
  messages: Buffer[],
  ownChainID: Buffer,
  certificateOf: (
    stateRoot: Buffer,
    witness: { bitmap: Buffer; siblingHashes: Buffer[] },
  ) => {
    certificate: Buffer;
    witness: { bitmap: Buffer; siblingHashes: Buffer[] };
  },
): CrossChainUpdateParams {
  const unproved = { certificate: base.certificate, witness: { bitmap: Buffer.alloc(0), siblingHashes: [] } };
  const outboxRoot = impliedPartnerOutboxRoot({ state } as never, withInbox(base, messages, unproved));
  const outboxKey = Buffer.concat([outboxRootStore.prefix, sha256(ownChainID)]);
  const otherKey = Buffer.concat([outboxRootStore.prefix, sha256(Buffer.from('basalt-bench:interop:other'))]);
  const store = new InMemorySmtNodeStore();
  const tree = new SparseMerkleTree(store, STATE_KEY_LENGTH);
  const update = tree.update(
    Buffer.alloc(0),
    [outboxKey, otherKey],
    [sha256(codec.encode(outboxRootSchema, { root: outboxRoot })), sha256(Buffer.from('other'))],
  );
  store.apply(update);
  const proof = tree.prove(update.root, [outboxKey]);
  const witness = { bitmap: proof.queries[0]?.bitmap as Buffer, siblingHashes: [...proof.siblingHashes] };
  return withInbox(base, messages, certificateOf(update.root, witness));
}

function withInbox(
  base: CrossChainUpdateParams,
  crossChainMessages: Buffer[],
  signed: { certificate: Buffer; witness: { bitmap: Buffer; siblingHashes: Buffer[] } },
): CrossChainUpdateParams {
  return {
    ...base,
    certificate: signed.certificate,
    inboxUpdate: { crossChainMessages, messageWitnessHashes: [], outboxRootWitness: signed.witness },
  };
}
