/**
 * The inbox update choice of the CCU builder on made-up outboxes: several messages in one block,
 * a partner that already received part of that block, the size limit and the right witness of
 * what is left out (LIP 0053), and the validators update bitmap.
 */
import { describe, expect, it } from 'vitest';
import { codec } from '../../../src/codec/index.js';
import { appendToMerkleRoot, calculateRootFromRightWitness, merkleRoot } from '../../../src/merkle/index.js';
import type { CrossChainMessage } from '../../../src/modules/base/cross-chain.js';
import { ccmSchema } from '../../../src/modules/interoperability/schemas.js';
import { activeValidatorsUpdate, type CcmsAtHeight, chooseInboxMessages } from '../../../src/plugins/chain-connector/ccu-builder.js';

const ccm = (nonce: number, size = 0): CrossChainMessage => ({
  module: 'token',
  crossChainCommand: 'transferCrossChain',
  nonce: BigInt(nonce),
  fee: 0n,
  sendingChainID: Buffer.from('04000000', 'hex'),
  receivingChainID: Buffer.from('04000001', 'hex'),
  params: Buffer.alloc(size, nonce),
  status: 0,
});

const EMPTY_PROOF = { bitmap: Buffer.alloc(0), siblingHashes: [] };

/** Blocks 10 (nonces 0-2), 11 (none), 12 (nonces 3-4). */
function outbox(): CcmsAtHeight[] {
  return [
    { height: 10, ccms: [ccm(0), ccm(1), ccm(2)], outboxSize: 3, inclusionProof: EMPTY_PROOF },
    { height: 11, ccms: [], outboxSize: 3, inclusionProof: EMPTY_PROOF },
    { height: 12, ccms: [ccm(3), ccm(4)], outboxSize: 5, inclusionProof: EMPTY_PROOF },
  ];
}

const nonces = (messages: readonly Buffer[]) => messages.map((bytes) => codec.decode<CrossChainMessage>(ccmSchema, bytes).nonce);

describe('chooseInboxMessages', () => {
  it('carries the messages the partner has not received, by outbox position, never an earlier one of the same block', () => {
    expect(nonces(chooseInboxMessages(outbox(), 0, 12, 10_240).crossChainMessages)).toEqual([0n, 1n, 2n, 3n, 4n]);
    // The partner received nonces 0 and 1 (the first two of block 10): 2 comes next, not 0 or 1 again.
    const choice = chooseInboxMessages(outbox(), 2, 12, 10_240);
    expect(nonces(choice.crossChainMessages)).toEqual([2n, 3n, 4n]);
    expect(choice.messageWitnessHashes).toEqual([]);
    expect(choice.lastCcm?.height).toBe(12);
    expect(choice.lastCcm?.ccm.nonce).toBe(4n);
    expect(chooseInboxMessages(outbox(), 5, 12, 10_240).crossChainMessages).toEqual([]);
  });

  it('stops at the certified height', () => {
    expect(nonces(chooseInboxMessages(outbox(), 1, 11, 10_240).crossChainMessages)).toEqual([1n, 2n]);
  });

  it('keeps under maxCCUSize and proves the rest with a right witness', () => {
    const big = outbox().map((record) => ({ ...record, ccms: record.ccms.map((message) => ccm(Number(message.nonce), 400)) }));
    const all = big.flatMap((record) => record.ccms).map((message) => codec.encode(ccmSchema, message));
    const choice = chooseInboxMessages(big, 1, 12, 1_000);
    expect(nonces(choice.crossChainMessages)).toEqual([1n, 2n]);
    // The partner's inbox after the two (its append path) plus the witness gives the full outbox root.
    const received = all.slice(0, 3);
    const appendPath = appendPathOf(received);
    expect(calculateRootFromRightWitness(3, appendPath, choice.messageWitnessHashes).equals(merkleRoot(all))).toBe(true);
  });
});

/** The append path of a regular Merkle tree over `leaves` (what an inbox keeps). */
function appendPathOf(leaves: Buffer[]): readonly Buffer[] {
  let appendPath: readonly Buffer[] = [];
  leaves.forEach((leaf, size) => {
    appendPath = appendToMerkleRoot(leaf, appendPath, size).appendPath;
  });
  return appendPath;
}

describe('activeValidatorsUpdate', () => {
  it('lists new keys, changed and removed weights in BLS key order, with a big-endian bitmap over all keys', () => {
    const key = (byte: number) => Buffer.alloc(48, byte);
    const current = [
      { blsKey: key(1), bftWeight: 1n },
      { blsKey: key(2), bftWeight: 1n },
      { blsKey: key(3), bftWeight: 1n },
    ];
    const next = [
      { blsKey: key(3), bftWeight: 1n },
      { blsKey: key(2), bftWeight: 5n },
      { blsKey: key(9), bftWeight: 2n },
    ];
    const update = activeValidatorsUpdate(current, next);
    expect(update.blsKeysUpdate).toEqual([key(9)]);
    // Keys 1 (removed: 0), 2 (5) and 9 (new: 2) changed; sorted union 1,2,3,9 -> bits 0, 1, 3.
    expect(update.bftWeightsUpdate).toEqual([0n, 5n, 2n]);
    expect(update.bftWeightsUpdateBitmap).toEqual(Buffer.from([0b1011]));
  });
});
