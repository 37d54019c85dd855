import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EMPTY_HASH,
  MESSAGE_TAG_BLOCK_HEADER,
  MESSAGE_TAG_CERTIFICATE,
  MESSAGE_TAG_CHAIN_REG,
  MESSAGE_TAG_MULTISIG_REG,
  MESSAGE_TAG_NON_PROTOCOL_MESSAGE,
  MESSAGE_TAG_POA,
  MESSAGE_TAG_TRANSACTION,
  createMessageTag,
  randomBytes,
  sha256,
  sha256Concat,
  tagMessage,
  taggedDigest,
} from '../../../src/crypto/index.js';
import { FormatError } from '../../../src/errors.js';

describe('sha256', () => {
  it('hashes the empty input to e3b0c442…', () => {
    expect(EMPTY_HASH.toString('hex')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256(Buffer.alloc(0)).equals(EMPTY_HASH)).toBe(true);
  });

  it('agrees with createHash and with the concatenated form', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 80 }), { maxLength: 4 }), (parts) => {
        const whole = Buffer.concat(parts);
        const expected = createHash('sha256').update(whole).digest();
        expect(sha256(whole).equals(expected)).toBe(true);
        expect(sha256Concat(...parts).equals(expected)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('message tags (LIP 0037)', () => {
  it('has the protocol tags', () => {
    expect([
      MESSAGE_TAG_TRANSACTION,
      MESSAGE_TAG_BLOCK_HEADER,
      MESSAGE_TAG_CERTIFICATE,
      MESSAGE_TAG_MULTISIG_REG,
      MESSAGE_TAG_CHAIN_REG,
      MESSAGE_TAG_POA,
      MESSAGE_TAG_NON_PROTOCOL_MESSAGE,
    ]).toEqual(['LSK_TX_', 'LSK_BH_', 'LSK_CE_', 'LSK_RMSG_', 'LSK_CRM_', 'LSK_POA_', 'LSK_NPM_']);
  });

  it('creates tags with and without a version', () => {
    expect(createMessageTag('TX')).toBe('LSK_TX_');
    expect(createMessageTag('TEST', 1)).toBe('LSK_TEST:1_');
    expect(createMessageTag('TX', 'v1')).toBe('LSK_TX:v1_');
    expect(createMessageTag('TX', 0)).toBe('LSK_TX_');
    expect(createMessageTag('TX', '')).toBe('LSK_TX_');
  });

  it('rejects non-alphanumeric domains and versions', () => {
    for (const domain of ['', 'T_X', 'TX ', 'T:X', 'ÄB']) {
      expect(() => createMessageTag(domain)).toThrow(FormatError);
    }
    expect(() => createMessageTag('TX', 'v_1')).toThrow(FormatError);
    expect(() => createMessageTag('TX', -1)).toThrow(FormatError);
  });

  it('tags and digests messages: H(tag ‖ chainID ‖ message)', () => {
    const chainID = Buffer.from('04000000', 'hex');
    const message = Buffer.from('beaf', 'hex');
    const tagged = tagMessage('LSK_TX_', chainID, message);
    expect(tagged.toString('hex')).toBe(`${Buffer.from('LSK_TX_').toString('hex')}04000000beaf`);
    expect(taggedDigest('LSK_TX_', chainID, message).equals(sha256(tagged))).toBe(true);
    expect(tagMessage('LSK_NPM_', Buffer.alloc(0), Buffer.alloc(0)).toString()).toBe('LSK_NPM_');
  });
});

describe('randomBytes', () => {
  it('returns fresh bytes of the asked length', () => {
    expect(randomBytes(16)).toHaveLength(16);
    expect(randomBytes(32).equals(randomBytes(32))).toBe(false);
  });
});
