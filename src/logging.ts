import { pino } from 'pino';
import type { Logger } from './logger.js';

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'none';

/** `json`: one JSON record per line (for log collectors); `pretty`: one human line per record. */
export type LogFormat = 'json' | 'pretty';

export const LOG_FORMATS: readonly LogFormat[] = ['json', 'pretty'];

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
 * The node's structured logger, levels as in Lisk's `system.logLevel`. Records carry structured
 * fields; messages are plain sentences. By default each record is one JSON line on `destination`
 * (pino); `pretty` writes the same records as human lines (prettyLine), after the same censoring.
 */
export function createLogger(level: LogLevel, destination: NodeJS.WritableStream = process.stdout, format: LogFormat = 'json'): Logger {
  const paths = SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]);
  const colours = format === 'pretty' && (destination as { isTTY?: boolean }).isTTY === true;
  return pino(
    {
      level: level === 'none' ? 'silent' : level,
      base: { module: 'basalt' },
      redact: { paths, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    format === 'pretty' ? { write: (record: string) => destination.write(prettyLine(record, colours)) } : destination,
  );
}

/**
 * The format to log in: the one asked for, else pretty on a terminal and JSON elsewhere (a file,
 * a pipe, a log collector), so that nothing that parses the logs sees a change.
 */
export function chooseLogFormat(asked: string | undefined, destination: { isTTY?: boolean }): LogFormat {
  if (asked === 'json' || asked === 'pretty') return asked;
  return destination.isTTY === true ? 'pretty' : 'json';
}

const LEVEL_NAMES: Readonly<Record<number, string>> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const LEVEL_COLOURS: Readonly<Record<number, string>> = { 10: '90', 20: '36', 30: '32', 40: '33', 50: '31', 60: '35' };
/** Record members the line shows in its own places, or never (pino's bookkeeping). */
const PLACED = new Set(['time', 'level', 'msg', 'module', 'component', 'err', 'pid', 'hostname', 'v']);
/** A field value longer than this is cut: a line is for reading, the JSON format keeps everything. */
const MAX_VALUE_LENGTH = 120;

/**
 * One pino JSON record as a line in the manner of Lisk Core's console log (lisk-sdk
 * framework/src/logger/logger.ts): time, level, module (the component for a child logger),
 * the fields as `[key=value ...]`, then the message; an error adds its message, and its stack
 * from the error level up. Lines that are not records pass through unchanged.
 */
export function prettyLine(recordJson: string, colours = false): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(recordJson) as Record<string, unknown>;
  } catch {
    return recordJson;
  }
  const level = typeof record.level === 'number' ? record.level : 30;
  let levelName = (LEVEL_NAMES[level] ?? String(level)).padEnd(5);
  if (colours) levelName = `\u001b[${LEVEL_COLOURS[level] ?? '0'}m${levelName}\u001b[0m`;
  const module = String(record.component ?? record.module ?? '');
  const fields: string[] = [];
  for (const [key, value] of Object.entries(record)) {
    if (PLACED.has(key) || value === undefined) continue;
    fields.push(`${key}=${fieldText(value)}`);
  }
  const error = record.err as { message?: unknown; stack?: unknown } | undefined;
  if (error !== undefined) fields.push(`err=${fieldText(error.message ?? error)}`);
  let line = `${String(record.time ?? '')} ${levelName} ${module}${fields.length > 0 ? ` [${fields.join(' ')}]` : ''} ${String(record.msg ?? '')}`;
  if (level >= 50 && typeof error?.stack === 'string') line += `\n${error.stack.replace(/^/gm, '    ')}`;
  return `${line.trimEnd()}\n`;
}

function fieldText(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH - 1)}…` : text;
}
