import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addressFromPublicKey,
  decodeLisk32,
  encodeLisk32,
  isValidLisk32,
  legacyAddressFromPublicKey,
  lisk32FromPublicKey,
  validateLisk32,
} from '../../../src/crypto/index.js';
import { FormatError } from '../../../src/errors.js';

const PUBLIC_KEY = Buffer.from('c6bae83af23540096ac58d5121b00f33be6f02f05df785766725acdd5d48be9d', 'hex');
const VALID = 'lskhqy429nwm2tew3j5j29ef6pguyynf6jxcmgrh2';

function reasonOf(text: string): string {
  try {
    decodeLisk32(text);
  } catch (error) {
    expect(error).toBeInstanceOf(FormatError);
    return (error as Error).message;
  }
  throw new Error('expected a FormatError');
}

describe('addresses (LIP 0018)', () => {
  it('derives the binary, lisk32 and legacy addresses of the spec example', () => {
    expect(addressFromPublicKey(PUBLIC_KEY).toString('hex')).toBe('ed629c34f72e276ba38be61b6f289f84627f2b81');
    expect(lisk32FromPublicKey(PUBLIC_KEY)).toBe(VALID);
    expect(legacyAddressFromPublicKey(PUBLIC_KEY)).toBe('7721191725424468717L');
  });

  it('encodes 20 zero bytes as the spec says', () => {
    expect(encodeLisk32(Buffer.alloc(20))).toBe('lskzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz5fw596');
    expect(decodeLisk32('lskzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz5fw596').equals(Buffer.alloc(20))).toBe(true);
  });

  it('round-trips any 20 bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), (address) => {
        const text = encodeLisk32(address);
        expect(text).toHaveLength(41);
        expect(decodeLisk32(text).equals(Buffer.from(address))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('rejects each kind of malformed lisk32 address with its reason', () => {
    expect(reasonOf(VALID.slice(0, 40))).toMatch(/length/);
    expect(reasonOf(`${VALID}z`)).toMatch(/length/);
    expect(reasonOf(`lsc${VALID.slice(3)}`)).toMatch(/prefix/);
    expect(reasonOf(`${VALID.slice(0, 10)}1${VALID.slice(11)}`)).toMatch(/character/); // '1' is not in the alphabet
    expect(reasonOf(`${VALID.slice(0, 10)}L${VALID.slice(11)}`)).toMatch(/character/); // upper case
    const lastChar = VALID.at(-1) === 'z' ? 'x' : 'z';
    expect(reasonOf(`${VALID.slice(0, 40)}${lastChar}`)).toMatch(/checksum/);
    // swapping two data characters keeps the alphabet but breaks the checksum
    expect(reasonOf(`lsk${VALID[4]}${VALID[3]}${VALID.slice(5)}`)).toMatch(/checksum/);
  });

  it('detects every single-character substitution', () => {
    const alphabet = 'zxvcpmbn3465o978uyrtkqew2adsjhfg';
    for (let position = 3; position < VALID.length; position++) {
      for (const char of alphabet) {
        if (char === VALID[position]) continue;
        expect(isValidLisk32(VALID.slice(0, position) + char + VALID.slice(position + 1))).toBe(false);
      }
    }
    expect(isValidLisk32(VALID)).toBe(true);
    expect(() => validateLisk32(VALID)).not.toThrow();
  });

  it('refuses to encode a wrong-length address or public key', () => {
    expect(() => encodeLisk32(Buffer.alloc(19))).toThrow(FormatError);
    expect(() => lisk32FromPublicKey(Buffer.alloc(31))).toThrow(FormatError);
  });
});
