/**
 * `modules.hello` in the node config: message length bounds and words a message may not contain
 * (the checks lisk-sdk's hello tutorial module makes in its command's verify).
 */
import { ValidationError } from '../../../src/plugins/index.js';
import { MESSAGE_LENGTH_LIMIT } from './schemas.js';

export interface HelloConfig {
  readonly minMessageLength: number;
  readonly maxMessageLength: number;
  readonly blacklist: readonly string[];
}

export const DEFAULT_HELLO_CONFIG: HelloConfig = { minMessageLength: 3, maxMessageLength: MESSAGE_LENGTH_LIMIT, blacklist: [] };

/** The config with defaults filled in; ValidationError lists every bad key. */
export function parseHelloConfig(section: Record<string, unknown>): HelloConfig {
  const config = { ...DEFAULT_HELLO_CONFIG, ...section } as Record<string, unknown>;
  const problems: string[] = [];
  const length = (key: string): number => {
    const value = config[key];
    if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > MESSAGE_LENGTH_LIMIT) {
      problems.push(`.modules.hello.${key}: must be an integer from 1 to ${MESSAGE_LENGTH_LIMIT}`);
      return 1;
    }
    return value as number;
  };
  const minMessageLength = length('minMessageLength');
  const maxMessageLength = length('maxMessageLength');
  if (minMessageLength > maxMessageLength) problems.push('.modules.hello: minMessageLength must not exceed maxMessageLength');
  const { blacklist } = config;
  if (!Array.isArray(blacklist) || blacklist.some((word) => typeof word !== 'string' || word === '')) {
    problems.push('.modules.hello.blacklist: must be an array of non-empty strings');
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return { minMessageLength, maxMessageLength, blacklist: (blacklist as string[]).map((word) => word.toLowerCase()) };
}
