/**
 * The pool's settings: the `transactionPool` section of a Lisk config (lisk-sdk
 * application_config_schema.ts) plus the payload limit the node takes from the genesis config.
 */
import { ValidationError } from '../../errors.js';

export interface TransactionPoolConfig {
  /** Transactions the pool holds at most (lisk default 4096). */
  readonly maxTransactions: number;
  /** Transactions one sender may have in the pool (lisk default 64). */
  readonly maxTransactionsPerAccount: number;
  /** Milliseconds a transaction may wait in the pool (lisk default 3 hours, at least 1 minute). */
  readonly transactionExpiryTime: number;
  /** Minimum fee priority (beddows per byte) to enter the pool (lisk default 0). */
  readonly minEntranceFeePriority: bigint;
  /** Extra fee (beddows) a same-nonce transaction must pay to replace a pooled one (lisk default 10). */
  readonly minReplacementFeeDifference: bigint;
  /** Largest transaction accepted, in bytes: lisk-sdk passes genesis.maxTransactionsSize. */
  readonly maxPayloadLength: number;
}

const MAX_UINT64 = 2n ** 64n - 1n;
const MIN_EXPIRY_TIME_MS = 60 * 1000;

/** lisk-sdk's defaults (lisk-transaction-pool constants and the default application config). */
export const DEFAULT_TRANSACTION_POOL_CONFIG: TransactionPoolConfig = Object.freeze({
  maxTransactions: 4096,
  maxTransactionsPerAccount: 64,
  transactionExpiryTime: 3 * 60 * 60 * 1000,
  minEntranceFeePriority: 0n,
  minReplacementFeeDifference: 10n,
  maxPayloadLength: 15 * 1024,
});

/**
 * Merges `overrides` over the defaults and checks every value against lisk-sdk's config schema
 * (integers >= 1, expiry >= 60000 ms, fees uint64). Throws ValidationError listing each bad key.
 */
export function resolveTransactionPoolConfig(overrides: Partial<TransactionPoolConfig> = {}): TransactionPoolConfig {
  const config: TransactionPoolConfig = { ...DEFAULT_TRANSACTION_POOL_CONFIG, ...definedOnly(overrides) };
  const problems: string[] = [];
  checkInteger(problems, 'maxTransactions', config.maxTransactions, 1);
  checkInteger(problems, 'maxTransactionsPerAccount', config.maxTransactionsPerAccount, 1);
  checkInteger(problems, 'transactionExpiryTime', config.transactionExpiryTime, MIN_EXPIRY_TIME_MS);
  checkInteger(problems, 'maxPayloadLength', config.maxPayloadLength, 1);
  checkUint64(problems, 'minEntranceFeePriority', config.minEntranceFeePriority);
  checkUint64(problems, 'minReplacementFeeDifference', config.minReplacementFeeDifference);
  if (problems.length > 0) throw new ValidationError(problems);
  return Object.freeze(config);
}

/**
 * Reads the `transactionPool` section of a Lisk config file (uint64 values as decimal strings,
 * every key optional, unknown keys ignored as lisk-sdk's schema does) and validates it.
 * `maxPayloadLength` is the chain's genesis.maxTransactionsSize. Errors name `.transactionPool.<key>`.
 */
export function parseTransactionPoolConfig(section: unknown, maxPayloadLength: number): TransactionPoolConfig {
  if (section === undefined) return resolveTransactionPoolConfig({ maxPayloadLength });
  if (typeof section !== 'object' || section === null || Array.isArray(section)) {
    throw new ValidationError(['.transactionPool: must be an object']);
  }
  const raw = section as Record<string, unknown>;
  const problems: string[] = [];
  const overrides: { -readonly [K in keyof TransactionPoolConfig]?: TransactionPoolConfig[K] } = { maxPayloadLength };
  for (const key of ['maxTransactions', 'maxTransactionsPerAccount', 'transactionExpiryTime'] as const) {
    const value = raw[key];
    if (value === undefined) continue;
    if (typeof value !== 'number') problems.push(`.transactionPool.${key}: must be an integer`);
    else overrides[key] = value;
  }
  for (const key of ['minEntranceFeePriority', 'minReplacementFeeDifference'] as const) {
    const value = raw[key];
    if (value === undefined) continue;
    if (typeof value !== 'string' || !/^[0-9]+$/.test(value)) {
      problems.push(`.transactionPool.${key}: must be a uint64 as a decimal string`);
    } else {
      overrides[key] = BigInt(value);
    }
  }
  if (problems.length > 0) throw new ValidationError(problems);
  try {
    return resolveTransactionPoolConfig(overrides);
  } catch (error) {
    if (error instanceof ValidationError) throw new ValidationError(error.errors.map((problem) => `.transactionPool${problem}`));
    throw error;
  }
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function checkInteger(problems: string[], key: string, value: unknown, minimum: number): void {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) problems.push(`.${key}: must be an integer`);
  else if (value < minimum) problems.push(`.${key}: must be >= ${minimum}`);
}

function checkUint64(problems: string[], key: string, value: unknown): void {
  if (typeof value !== 'bigint' || value < 0n || value > MAX_UINT64) problems.push(`.${key}: must be a uint64`);
}
