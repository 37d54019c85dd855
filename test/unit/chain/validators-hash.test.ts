/**
 * validatorsHash (LIP 0058; docs/protocol/bft.md): the worked example, and the rules that make it
 * independent of list order and of validators without BFT weight.
 */
import { describe, expect, it } from 'vitest';
import { computeValidatorsHash } from '../../../src/chain/validators-hash.js';
import { sha256 } from '../../../src/crypto/index.js';

const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

const key11 = Buffer.alloc(48, 0x11);
const key22 = Buffer.alloc(48, 0x22);
const EXAMPLE = '2ddcf4986338f63dcc0ac03ae0f3e3b0d358aea4501e075f984f40bd28434ff7';

describe('computeValidatorsHash', () => {
  it('reproduces the bft.md example and its encoded input', () => {
    const input = Buffer.from(`0a340a30${'11'.repeat(48)}10010a340a30${'22'.repeat(48)}10021003`, 'hex');
    expect(toHex(sha256(input))).toBe(EXAMPLE);
    const validators = [
      { blsKey: key11, bftWeight: 1n },
      { blsKey: key22, bftWeight: 2n },
    ];
    expect(toHex(computeValidatorsHash(validators, 3n))).toBe(EXAMPLE);
  });

  it('sorts by BLS key and drops validators of weight 0', () => {
    const shuffled = [
      { blsKey: key22, bftWeight: 2n },
      { blsKey: Buffer.alloc(48, 0x00), bftWeight: 0n },
      { blsKey: key11, bftWeight: 1n },
    ];
    expect(toHex(computeValidatorsHash(shuffled, 3n))).toBe(EXAMPLE);
  });

  it('depends on the threshold and the weights', () => {
    const validators = [
      { blsKey: key11, bftWeight: 1n },
      { blsKey: key22, bftWeight: 2n },
    ];
    expect(toHex(computeValidatorsHash(validators, 2n))).not.toBe(EXAMPLE);
    expect(
      toHex(
        computeValidatorsHash(
          [
            { blsKey: key11, bftWeight: 2n },
            { blsKey: key22, bftWeight: 2n },
          ],
          3n,
        ),
      ),
    ).not.toBe(EXAMPLE);
  });

  it('hashes an empty list as the threshold alone', () => {
    expect(computeValidatorsHash([], 0n).equals(sha256(Buffer.from('1000', 'hex')))).toBe(true);
  });
});
