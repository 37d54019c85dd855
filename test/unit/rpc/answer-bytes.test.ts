import { describe, expect, it } from 'vitest';
import { MAX_PARTS_CHARS, successBytes } from '../../../src/rpc/answer-bytes.js';
import { SuccessParts, answerText } from '../../../src/rpc/response.js';

/** The bytes a transport sends for `parts`: a copy, since the next call reuses the buffer. */
function bytesOf(parts: SuccessParts): Buffer | undefined {
  const bytes = successBytes(parts);
  return bytes === undefined ? undefined : Buffer.from(bytes);
}

describe('successBytes', () => {
  it('writes the UTF-8 bytes of the joined answer', () => {
    const cases = [
      new SuccessParts('1', '{"height":106}'),
      new SuccessParts('"a-string-id"', '[]'),
      new SuccessParts('null', '"é, ü, € and 🦆"'),
      new SuccessParts('"ïd 🦆"', '{"name":"ÿ"}'),
      new SuccessParts('12345678901234567890', `"${'ab'.repeat(40_000)}"`),
    ];
    for (const parts of cases) expect(bytesOf(parts)).toEqual(Buffer.from(answerText(parts), 'utf8'));
  });

  it('grows its buffer for a long result and still gives the short ones right afterwards', () => {
    const long = new SuccessParts('7', `"${'€'.repeat(MAX_PARTS_CHARS - 2)}"`);
    expect(bytesOf(long)).toEqual(Buffer.from(answerText(long), 'utf8'));
    const short = new SuccessParts('8', '{}');
    expect(bytesOf(short)).toEqual(Buffer.from('{"jsonrpc":"2.0","id":8,"result":{}}'));
  });

  it('leaves very long results and text that is not well-formed to the string path', () => {
    expect(successBytes(new SuccessParts('1', `"${'a'.repeat(MAX_PARTS_CHARS)}"`))).toBeUndefined();
    expect(successBytes(new SuccessParts('1', '"\ud800"'))).toBeUndefined();
    expect(successBytes(new SuccessParts('"\udc00"', '1'))).toBeUndefined();
  });
});
