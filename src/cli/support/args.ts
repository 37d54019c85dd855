/**
 * Flag parsing shared by the commands: node:util parseArgs with every mistake turned into a
 * UsageError (exit code 1), plus the checks of integer and hex flags.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../command.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** The flags every command that talks to a node accepts. */
export const NODE_FLAGS = {
  'data-path': { type: 'string', short: 'd' },
  url: { type: 'string' },
  pretty: { type: 'boolean' },
} as const satisfies Options;

export const NODE_FLAGS_HELP = `  -d, --data-path DIR  the node's data path (default ~/.basalt/devnet)          [LISK_DATA_PATH]
      --url URL        talk to the node over HTTP (http://host:port) or WebSocket
                       (ws://host:port, needs Node 22+) instead of IPC
      --pretty         indent the JSON output`;

type ParseConfig<T extends Options> = { args: string[]; options: T; allowPositionals: boolean; strict: true };

/** The flag values and positionals parseArgs gives for `options`. */
export type ParsedFlags<T extends Options> = ReturnType<typeof parseArgs<ParseConfig<T>>>;

function parseOrUsageError<T extends Options>(argv: readonly string[], options: T, allowPositionals: boolean): ParsedFlags<T> {
  try {
    return parseArgs<ParseConfig<T>>({ args: [...argv], options, allowPositionals, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** Parses `argv` against `options`; positionals are returned in order. */
export function parseFlags<T extends Options>(argv: readonly string[], options: T, maxPositionals = 0): ParsedFlags<T> {
  const parsed = parseOrUsageError(argv, options, true);
  if (parsed.positionals.length > maxPositionals) {
    // The value is not repeated: a mistyped secret must not reach the terminal or a log.
    throw new UsageError(`Too many arguments: this command takes at most ${maxPositionals}.`);
  }
  return parsed;
}

/**
 * Parses `argv` for a command that takes no positionals and reads no secret from its arguments:
 * parseArgs itself refuses a stray argument, with a message that names it.
 */
export function parseFlagsOnly<T extends Options>(argv: readonly string[], options: T): ParsedFlags<T>['values'] {
  return parseOrUsageError(argv, options, false).values;
}

/** A whole number flag within [min, max]; undefined when absent. */
export function integerFlag(name: string, value: string | undefined, min = 0, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got "${value}".`);
  }
  return Number(value);
}
