/**
 * Native SHA-256 (FIPS 180-4) against the NIST example vectors and node:crypto: every input
 * length from 0 to 1024, as Buffers and as plain Uint8Array views at odd offsets, one at a time
 * and in batches; and the portable backend (forced in a child process) against the same digests.
 */
import { createHash, randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { InvalidParamsError } from '../../../src/errors.js';
import { DEFAULT_ADDON_PATH, nativeAddon, sha256, sha256Into, sha256Many } from '../../../src/native/index.js';
import { nativeMissing } from './native-test-support.js';

const reference = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** FIPS 180-4 / NIST CSRC example messages. */
const NIST_VECTORS: [string, Buffer][] = [
  ['e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', Buffer.alloc(0)],
  ['ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad', Buffer.from('abc')],
  [
    '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    Buffer.from('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'),
  ],
  [
    'cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1',
    Buffer.from('abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu'),
  ],
  ['cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0', Buffer.alloc(1_000_000, 'a')],
];

const MAX_LENGTH = 1024;

describe('src/native sha256 wrappers (addon or node:crypto, whichever is in use)', () => {
  it('match node:crypto', () => {
    const data = randomBytes(300);
    const out = Buffer.alloc(40);
    for (const length of [0, 1, 55, 56, 64, 73, 300]) {
      const input = data.subarray(0, length);
      expect(sha256(input).toString('hex')).toBe(reference(input));
      sha256Into(input, out, 8);
      expect(out.subarray(8).toString('hex')).toBe(reference(input));
    }
    const lengths = Uint32Array.of(0, 64, 73, 163);
    const digests = sha256Many(data, lengths);
    expect(digests.subarray(64, 96).toString('hex')).toBe(reference(data.subarray(64, 137)));
  });

  it('return fresh digests and reject an output without room', () => {
    const input = Buffer.from('abc');
    const first = sha256(input);
    const second = sha256(input);
    first[0] ^= 1;
    expect(second.toString('hex')).toBe(NIST_VECTORS[1]![0]);
    expect(() => sha256Into(input, Buffer.alloc(40), 9)).toThrow(InvalidParamsError);
    expect(() => sha256Many(Buffer.alloc(3), Uint32Array.of(2))).toThrow(InvalidParamsError);
  });
});

describe.skipIf(nativeMissing('sha256'))('native sha256', () => {
  const addon = nativeAddon!;
  const input = randomBytes(MAX_LENGTH + 3);

  it('reports its backend', () => {
    expect(['sha-extensions', 'portable']).toContain(addon.sha256Backend);
  });

  it('matches the NIST example vectors', () => {
    for (const [digest, message] of NIST_VECTORS) {
      expect(addon.sha256(message).toString('hex')).toBe(digest);
      expect(sha256(message).toString('hex')).toBe(digest);
    }
  });

  it('matches node:crypto on every length 0..1024 (Buffers and Uint8Array views at odd offsets)', () => {
    for (let length = 0; length <= MAX_LENGTH; length += 1) {
      const data = input.subarray(0, length);
      const expected = reference(data);
      expect(addon.sha256(data).toString('hex'), `length ${length}`).toBe(expected);
      const view = new Uint8Array(input.buffer, input.byteOffset + 3, length);
      expect(addon.sha256(view).toString('hex'), `view of length ${length}`).toBe(reference(view));
    }
  });

  it('hashes in batches: every length 0..1024 in one call, and random segmentations', () => {
    const lengths = Uint32Array.from({ length: MAX_LENGTH + 1 }, (_, i) => i);
    const data = randomBytes((MAX_LENGTH * (MAX_LENGTH + 1)) / 2);
    const digests = sha256Many(data, lengths);
    expect(digests.length).toBe(32 * lengths.length);
    let start = 0;
    lengths.forEach((length, i) => {
      expect(digests.subarray(32 * i, 32 * i + 32).toString('hex'), `segment ${i}`).toBe(reference(data.subarray(start, start + length)));
      start += length;
    });

    for (let round = 0; round < 50; round += 1) {
      const segmentLengths = Uint32Array.from({ length: 1 + (round % 17) }, () => Math.floor(Math.random() * 140));
      const total = segmentLengths.reduce((sum, length) => sum + length, 0);
      const segmented = randomBytes(total);
      const batch = addon.sha256Many(segmented, segmentLengths);
      let at = 0;
      segmentLengths.forEach((length, i) => {
        expect(
          batch.subarray(32 * i, 32 * i + 32).equals(
            createHash('sha256')
              .update(segmented.subarray(at, at + length))
              .digest(),
          ),
        ).toBe(true);
        at += length;
      });
    }
    expect(addon.sha256Many(Buffer.alloc(0), new Uint32Array(0)).length).toBe(0);
  });

  it('rejects lengths that do not add up, and non-byte inputs', () => {
    expect(() => sha256Many(Buffer.alloc(10), Uint32Array.of(4, 5))).toThrow(InvalidParamsError);
    expect(() => sha256Many(Buffer.alloc(10), Uint32Array.of(4, 7))).toThrow(InvalidParamsError);
    expect(() => addon.sha256('abc' as unknown as Uint8Array)).toThrow(TypeError);
    expect(() => addon.sha256Into(Buffer.from('abc'), Buffer.alloc(32), 1)).toThrow(RangeError);
    expect(() => addon.sha256Many(Buffer.alloc(4), [4] as unknown as Uint32Array)).toThrow(TypeError);
  });

  it('gives the same digests with the portable backend (forced in a child process)', () => {
    const script = `
      const { createHash } = require('node:crypto');
      const addon = require(process.argv[1]);
      const data = Buffer.alloc(${MAX_LENGTH}, 0).map((_, i) => (i * 131 + 7) & 255);
      const out = [addon.sha256Backend];
      for (let n = 0; n <= ${MAX_LENGTH}; n++) {
        const d = data.subarray(0, n);
        out.push(addon.sha256(d).equals(createHash('sha256').update(d).digest()) ? 1 : 0);
      }
      process.stdout.write(JSON.stringify(out));`;
    const output = execFileSync(process.execPath, ['-e', script, DEFAULT_ADDON_PATH], {
      env: { ...process.env, BASALT_NATIVE_SHA_PORTABLE: '1' },
      encoding: 'utf8',
    });
    const [backend, ...matches] = JSON.parse(output) as [string, ...number[]];
    expect(backend).toBe('portable');
    expect(matches).toHaveLength(MAX_LENGTH + 1);
    expect(matches.every((match) => match === 1)).toBe(true);
  });
});
