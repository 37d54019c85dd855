/** hex helpers (src/codec/hex.ts) and lisk32 addresses (LIP 0018, src/codec/lisk32.ts). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bytesToHex,
  decodeLisk32Address,
  encodeLisk32Address,
  hexToBytes,
  isHex,
  isValidLisk32Address,
  lisk32,
} from '../../../src/codec/index.js';
import { FormatError } from '../../../src/errors.js';

describe('hex', () => {
  it('bytesToHex is lowercase and accepts plain Uint8Array views', () => {
    expect(bytesToHex(Buffer.from([0xab, 0x01]))).toBe('ab01');
    expect(bytesToHex(new Uint8Array([9, 0xff, 0xee]).subarray(1))).toBe('ffee');
    expect(bytesToHex(new Uint8Array(0))).toBe('');
  });

  it('hexToBytes parses either case and the empty string', () => {
    expect(hexToBytes('ABcd')).toEqual(Buffer.from([0xab, 0xcd]));
    expect(hexToBytes('')).toEqual(Buffer.alloc(0));
  });

  it('hexToBytes rejects odd length, bad characters and prefixes with FormatError', () => {
    for (const bad of ['a', 'abc', 'zz', '0x00', 'ab cd', 'abg0', ' ab', 'ab\n']) {
      expect(() => hexToBytes(bad), JSON.stringify(bad)).toThrow(FormatError);
      expect(isHex(bad)).toBe(false);
    }
    expect(() => hexToBytes('abc')).toThrow('Invalid hex: hex string has odd length (3)');
    expect(() => hexToBytes(5 as unknown as string)).toThrow('Invalid hex: must be a hex string');
  });

  it('round-trips random bytes, and agrees with a regex on random strings', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expect(hexToBytes(bytesToHex(bytes))).toEqual(Buffer.from(bytes));
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEFxg -'), maxLength: 10 }), (text) => {
        const valid = /^(?:[0-9a-fA-F]{2})*$/.test(text);
        expect(isHex(text)).toBe(valid);
        if (valid) expect(hexToBytes(text)).toEqual(Buffer.from(text, 'hex'));
        else expect(() => hexToBytes(text)).toThrow(FormatError);
      }),
      { numRuns: 500 },
    );
  });
});

describe('lisk32', () => {
  const address = Buffer.from('ed629c34f72e276ba38be61b6f289f84627f2b81', 'hex');
  const text = 'lskhqy429nwm2tew3j5j29ef6pguyynf6jxcmgrh2';

  it('reproduces the lisk32 examples of docs/protocol/crypto.md', () => {
    expect(encodeLisk32Address(address)).toBe(text);
    expect(decodeLisk32Address(text)).toEqual(address);
    expect(encodeLisk32Address(Buffer.alloc(20))).toBe('lskzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz5fw596');
    expect(lisk32.decode('lskzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz5fw596')).toEqual(Buffer.alloc(20));
  });

  it('validates length, prefix, alphabet and checksum', () => {
    expect(isValidLisk32Address(text)).toBe(true);
    expect(lisk32.isValid(text.slice(0, -1))).toBe(false);
    expect(lisk32.isValid(`${text}z`)).toBe(false);
    expect(lisk32.isValid(`lsj${text.slice(3)}`)).toBe(false);
    expect(lisk32.isValid(text.toUpperCase())).toBe(false);
    expect(lisk32.isValid(`${text.slice(0, 10)}1${text.slice(11)}`)).toBe(false); // '1' is not in the alphabet
    expect(lisk32.isValid(`${text.slice(0, -1)}3`)).toBe(false);
    expect(lisk32.isValid(42)).toBe(false);
    expect(() => decodeLisk32Address(`${text.slice(0, -1)}3`)).toThrow('Invalid lisk32 address: lisk32 address has an invalid checksum');
  });

  it('encodes only 20-byte addresses', () => {
    expect(() => encodeLisk32Address(Buffer.alloc(19))).toThrow(FormatError);
    expect(() => encodeLisk32Address(Buffer.alloc(21))).toThrow(FormatError);
  });

  it('supports another prefix (the checksum does not cover it)', () => {
    const other = encodeLisk32Address(address, 'abc');
    expect(other).toBe(`abc${text.slice(3)}`);
    expect(decodeLisk32Address(other, 'abc')).toEqual(address);
    expect(isValidLisk32Address(other)).toBe(false);
  });

  it('round-trips random addresses', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), (bytes) => {
        const encoded = encodeLisk32Address(bytes);
        expect(encoded).toMatch(/^lsk[zxvcpmbn3465o978uyrtkqew2adsjhfg]{38}$/);
        expect(isValidLisk32Address(encoded)).toBe(true);
        expect(decodeLisk32Address(encoded)).toEqual(Buffer.from(bytes));
      }),
      { numRuns: 300 },
    );
  });
});
