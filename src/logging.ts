import { pino } from 'pino';
import type { Logger } from './logger.js';

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'none';

/**
 * Field names that carry secrets anywhere in a log record. They are censored by the logger
 * itself, so a careless log call cannot leak a key or password (DEVELOPERS.md: secrets never
 * reach logs).
 */
const SECRET_FIELDS = [
  'privateKey',
  'generatorPrivateKey',
  'blsPrivateKey',
  'blsSecretKey',
  'passphrase',
  'password',
  'encryptedPassphrase',
  'seed',
];

/**
 * The node's structured logger: one JSON line per record on stdout (pino), levels as in Lisk's
 * `system.logLevel`. Records carry structured fields; messages are plain sentences.
 */
export function createLogger(level: LogLevel, destination: NodeJS.WritableStream = process.stdout): Logger {
  const paths = SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]);
  return pino(
    {
      level: level === 'none' ? 'silent' : level,
      base: { module: 'basalt' },
      redact: { paths, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
