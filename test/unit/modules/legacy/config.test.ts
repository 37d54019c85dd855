/**
 * `modules.legacy` config (lisk-core legacy/constants.ts defaultConfig, utils.ts getModuleConfig):
 * tokenIDReclaim keeps its local ID and takes the chain's own ID as chain part.
 */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../../src/errors.js';
import { DEFAULT_LEGACY_CONFIG, parseLegacyConfig } from '../../../../src/modules/legacy/index.js';

const chain = (id: string): Buffer => Buffer.from(id, 'hex');
const tokenIDOf = (config: Record<string, unknown>, chainID: string): string =>
  parseLegacyConfig(config, chain(chainID)).tokenIDReclaim.toString('hex');

describe('legacy config', () => {
  it('defaults to the LSK token of the own network (lisk-core default 0000000000000000)', () => {
    expect(DEFAULT_LEGACY_CONFIG).toEqual({ tokenIDReclaim: '0000000000000000' });
    expect(tokenIDOf({}, '00000000')).toBe('0000000000000000');
    expect(tokenIDOf({}, '01000000')).toBe('0100000000000000');
    expect(tokenIDOf({}, '04000000')).toBe('0400000000000000');
  });

  it('replaces the configured chain part with the chain ID', () => {
    expect(tokenIDOf({ tokenIDReclaim: '0100000000000000' }, '04000000')).toBe('0400000000000000');
    expect(tokenIDOf({ tokenIDReclaim: 'ffffffff0000002a' }, '04000000')).toBe('040000000000002a');
    expect(tokenIDOf({ tokenIDReclaim: '00000000ABCDEF01' }, '0400abcd')).toBe('0400abcdabcdef01');
  });

  it('keeps the default for null or undefined and ignores other keys', () => {
    expect(tokenIDOf({ tokenIDReclaim: null }, '04000000')).toBe('0400000000000000');
    expect(tokenIDOf({ tokenIDReclaim: undefined, somethingElse: 1 }, '04000000')).toBe('0400000000000000');
  });

  it('refuses a tokenIDReclaim that is not 16 hex digits', () => {
    for (const value of ['040000000000000', '04000000000000000', '04000000000000zz', 42, true, ['0400000000000000']]) {
      let caught: unknown;
      try {
        parseLegacyConfig({ tokenIDReclaim: value }, chain('04000000'));
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ValidationError);
      expect((caught as Error).message).toBe(
        `.modules.legacy.tokenIDReclaim: must be a hex string of 16 characters, got ${JSON.stringify(value)}`,
      );
    }
  });
});
