/** `modules.token` parsing (lisk-sdk token/module.ts init, constants.ts defaultConfig, schemas.ts configSchema). */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../../src/errors.js';
import { DEFAULT_TOKEN_CONFIG, parseTokenConfig } from '../../../../src/modules/token/index.js';
import { devConfig } from './token-test-kit.js';

describe('parseTokenConfig', () => {
  it('defaults both fees to 5000000 beddows', () => {
    expect(parseTokenConfig({})).toEqual({
      userAccountInitializationFee: 5_000_000n,
      escrowAccountInitializationFee: 5_000_000n,
    });
    expect(DEFAULT_TOKEN_CONFIG.userAccountInitializationFee).toBe(5_000_000n);
  });

  it('reads the dev chain config', () => {
    expect(parseTokenConfig(devConfig.modules.token ?? {})).toEqual({
      userAccountInitializationFee: 5_000_000n,
      escrowAccountInitializationFee: 5_000_000n,
    });
  });

  it('overrides one key and ignores unknown keys, as lisk-sdk (no additionalProperties: false)', () => {
    expect(parseTokenConfig({ userAccountInitializationFee: '0', somethingElse: 1 })).toEqual({
      userAccountInitializationFee: 0n,
      escrowAccountInitializationFee: 5_000_000n,
    });
    expect(parseTokenConfig({ escrowAccountInitializationFee: '18446744073709551615' }).escrowAccountInitializationFee).toBe(
      18446744073709551615n,
    );
  });

  it.each([
    ['a number instead of a string', 5000000, 'userAccountInitializationFee'],
    ['a negative amount', '-1', 'userAccountInitializationFee'],
    ['more than uint64', '18446744073709551616', 'escrowAccountInitializationFee'],
    ['hex', '0x10', 'escrowAccountInitializationFee'],
  ])('rejects %s with a .modules.token path', (_label, value, key) => {
    let caught: unknown;
    try {
      parseTokenConfig({ [key]: value });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ValidationError);
    const errors = (caught as ValidationError).errors;
    expect(errors).toHaveLength(1);
    expect(errors[0]?.startsWith(`.modules.token.${key}: `)).toBe(true);
  });
});
