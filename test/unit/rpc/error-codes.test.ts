import { describe, expect, it } from 'vitest';
import {
  BasaltError,
  CryptoError,
  DecodeError,
  DecryptionError,
  EncodeError,
  FormatError,
  InvalidBlockError,
  InvalidParamsError,
  NotFoundError,
  ValidationError,
} from '../../../src/errors.js';
import { jsonRpcCodeOf } from '../../../src/rpc/error-codes.js';

describe('jsonRpcCodeOf: the one table from src/errors.ts codes to JSON-RPC codes', () => {
  it.each([
    ['NotFoundError', new NotFoundError('x'), -32001],
    ['InvalidParamsError', new InvalidParamsError('x'), -32602],
    ['ValidationError', new ValidationError(['.a: must be string']), -32602],
    ['FormatError', new FormatError('x'), -32602],
    ['DecodeError', new DecodeError('x'), -32602],
    ['EncodeError', new EncodeError('x'), -32603],
    ['CryptoError', new CryptoError('x'), -32603],
    ['DecryptionError', new DecryptionError(), -32603],
    ['InvalidBlockError', new InvalidBlockError('height', 'x'), -32603],
    ['BasaltError with another code', new BasaltError('ERR_SOMETHING', 'x'), -32603],
    ['plain Error', new Error('x'), -32603],
    // Codes are the contract (src/errors.ts), so a copy of the error classes (a plugin importing
    // Basalt's sources while the node runs from dist/) still maps by its stable code.
    ['Error carrying a table code without being a BasaltError', Object.assign(new Error('x'), { code: 'ERR_NOT_FOUND' }), -32001],
    ['Error carrying a foreign code', Object.assign(new Error('x'), { code: 'ENOENT' }), -32603],
    ['a thrown string', 'x', -32603],
    ['undefined', undefined, -32603],
  ])('%s → %i', (_name, error, code) => {
    expect(jsonRpcCodeOf(error)).toBe(code);
  });
});
