/**
 * The decoder keeps recently decoded short ASCII strings in a small table indexed by length and
 * first and last bytes: strings sharing an index, and non-ASCII strings with the same index
 * bytes, must still decode to their own text.
 */
import { describe, expect, it } from 'vitest';
import { codec, objectSchema } from '../../../src/codec/index.js';

const schema = objectSchema('/test/short-strings', { text: { dataType: 'string', fieldNumber: 1 } });

function encodedText(bytes: Buffer): Buffer {
  return Buffer.concat([Buffer.from([0x0a, bytes.length]), bytes]);
}

const decodeText = (bytes: Buffer): unknown => codec.decode<{ text: string }>(schema, encodedText(bytes)).text;

describe('short string table', () => {
  it('strings with the same length, first and last bytes decode to their own text', () => {
    for (let round = 0; round < 3; round += 1) {
      for (const text of ['token', 'taken', 'tok3n', 'token']) expect(decodeText(Buffer.from(text, 'latin1'))).toBe(text);
    }
  });

  it('a non-ASCII string sharing the index of a kept ASCII string is decoded as UTF-8', () => {
    expect(decodeText(Buffer.from('axyb', 'latin1'))).toBe('axyb');
    expect(decodeText(Buffer.from('a\u00e9b', 'utf8'))).toBe('a\u00e9b');
    expect(decodeText(Buffer.from('axyb', 'latin1'))).toBe('axyb');
  });

  it('a leading byte-order mark is still dropped, and the empty string decodes', () => {
    expect(decodeText(Buffer.from('\ufeffab', 'utf8'))).toBe('ab');
    expect(decodeText(Buffer.alloc(0))).toBe('');
  });
});
