import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TRANSACTION_POOL_CONFIG,
  parseTransactionPoolConfig,
  resolveTransactionPoolConfig,
} from '../../../src/engine/txpool/index.js';
import { ValidationError } from '../../../src/errors.js';
import { loadJsonFixture } from '../../support/fixtures.js';

describe('transaction pool config', () => {
  it('reads the transactionPool section of the dev chain config (lisk-sdk 6.1 defaults)', () => {
    const config = loadJsonFixture<{ transactionPool: unknown; genesis: { maxTransactionsSize: number } }>('chains/dev/config.json');
    expect(parseTransactionPoolConfig(config.transactionPool, config.genesis.maxTransactionsSize)).toEqual({
      maxTransactions: 4096,
      maxTransactionsPerAccount: 64,
      transactionExpiryTime: 10_800_000,
      minEntranceFeePriority: 0n,
      minReplacementFeeDifference: 10n,
      maxPayloadLength: 15_360,
    });
  });

  it('fills missing keys with the defaults and ignores unknown ones', () => {
    expect(parseTransactionPoolConfig(undefined, 20_000)).toEqual({ ...DEFAULT_TRANSACTION_POOL_CONFIG, maxPayloadLength: 20_000 });
    expect(parseTransactionPoolConfig({ maxTransactions: 10, minEntranceFeePriority: '5', other: true }, 15_360)).toEqual({
      ...DEFAULT_TRANSACTION_POOL_CONFIG,
      maxTransactions: 10,
      minEntranceFeePriority: 5n,
    });
  });

  it('names every bad key', () => {
    const parse = (section: unknown) => () => parseTransactionPoolConfig(section, 15_360);
    expect(parse([])).toThrow('.transactionPool: must be an object');
    expect(parse({ maxTransactions: '10', minReplacementFeeDifference: 10 })).toThrow(
      '.transactionPool.maxTransactions: must be an integer; .transactionPool.minReplacementFeeDifference: must be a uint64 as a decimal string',
    );
    expect(parse({ maxTransactionsPerAccount: 0, transactionExpiryTime: 1.5 })).toThrow(
      '.transactionPool.maxTransactionsPerAccount: must be >= 1; .transactionPool.transactionExpiryTime: must be an integer',
    );
    expect(parse({ minEntranceFeePriority: '18446744073709551616' })).toThrow('.transactionPool.minEntranceFeePriority: must be a uint64');
    expect(parse({ minEntranceFeePriority: '-1' })).toThrow(ValidationError);
    expect(parseTransactionPoolConfig({ minEntranceFeePriority: '18446744073709551615' }, 15_360).minEntranceFeePriority).toBe(
      2n ** 64n - 1n,
    );
  });

  it('validates programmatic overrides and freezes the result', () => {
    const config = resolveTransactionPoolConfig({ maxTransactions: 8, minReplacementFeeDifference: undefined });
    expect(config.maxTransactions).toBe(8);
    expect(config.minReplacementFeeDifference).toBe(10n);
    expect(Object.isFrozen(config)).toBe(true);
    expect(() => resolveTransactionPoolConfig({ maxPayloadLength: 0 })).toThrow('.maxPayloadLength: must be >= 1');
  });
});
