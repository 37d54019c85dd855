/**
 * Reads an operator's Lisk Core 1.x–3.x config file as it is (docs/protocol/legacy-forging-api.md):
 * the forging delegates and the whitelists of the forging HTTP API. Layouts read:
 * - 1.x: `forging.delegates[{publicKey, encryptedPassphrase}]`, `forging.access.whiteList`,
 *   `api.access.{public, whiteList}`;
 * - 2.x: `modules.chain.forging.delegates`, `modules.http_api.forging.access.whiteList`,
 *   `modules.http_api.access.{public, whiteList}`;
 * - 3.x: `forging.delegates[{address (hex40), encryptedPassphrase, hashOnion}]`.
 * Errors name the file and the JSON path, never a value (an encryptedPassphrase is a secret).
 */
import { readFileSync } from 'node:fs';
import { parseEncryptedPassphraseV3 } from '../crypto/passphrase-v3.js';
import { BasaltError } from '../errors.js';

export class LegacyConfigError extends BasaltError {
  constructor(message: string) {
    super('ERR_LEGACY_CONFIG', message);
  }
}

export interface LegacyHashOnion {
  readonly count: number;
  readonly distance: number;
  readonly hashes: readonly string[];
}

export interface LegacyDelegate {
  /** Lower-case hex, when the entry names a public key (1.x/2.x). */
  readonly publicKey?: string;
  /** 20-byte address as lower-case hex, given (3.x) or SHA-256(publicKey)[0:20]; filled by the caller. */
  readonly address?: string;
  readonly encryptedPassphrase: string;
  readonly hashOnion?: LegacyHashOnion;
}

export interface LegacyAccess {
  /** `access.public`: the general API gate lets everyone in (never the forging gate). */
  readonly public: boolean;
  readonly whiteList: unknown;
}

export interface LegacyForgingConfig {
  readonly delegates: readonly LegacyDelegate[];
  /** The general API gate. */
  readonly apiAccess: LegacyAccess;
  /** The forging gate: raw entries, parsed by whitelist.ts (invalid ones skipped). */
  readonly forgingWhiteList: unknown;
  /**
   * Auto-load: set only when `force` is true, `defaultPassword` is a string and delegates
   * exist; every delegate is then enabled at start with it. A secret: never logged.
   */
  readonly defaultPassword?: string;
}

/** Core 1.x/2.x defaults: only localhost, API not public. */
export const DEFAULT_WHITELIST = ['127.0.0.1'];

const HEX64 = /^[0-9a-fA-F]{64}$/;
const HEX40 = /^[0-9a-fA-F]{40}$/;
const HEX = /^[0-9a-fA-F]+$/;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function at(root: unknown, ...path: string[]): unknown {
  let node = root;
  for (const key of path) {
    if (!isObject(node)) return undefined;
    node = node[key];
  }
  return node;
}

function parseHashOnion(value: unknown, where: string): LegacyHashOnion {
  const count = at(value, 'count');
  const distance = at(value, 'distance');
  const hashes = at(value, 'hashes');
  // Core 3.x config schema: count ≥ 1, distance ≥ 1, at least two hashes.
  if (!Number.isSafeInteger(count) || (count as number) < 1) throw new LegacyConfigError(`${where}.count must be an integer ≥ 1.`);
  if (!Number.isSafeInteger(distance) || (distance as number) < 1) throw new LegacyConfigError(`${where}.distance must be an integer ≥ 1.`);
  if (!Array.isArray(hashes) || hashes.length < 2 || !hashes.every((hash) => typeof hash === 'string' && HEX.test(hash))) {
    throw new LegacyConfigError(`${where}.hashes must be at least two hex strings.`);
  }
  return { count: count as number, distance: distance as number, hashes: hashes as string[] };
}

function parseDelegate(entry: unknown, where: string): LegacyDelegate {
  if (!isObject(entry)) throw new LegacyConfigError(`${where} must be an object.`);
  const { publicKey, address, encryptedPassphrase, hashOnion } = entry;
  if (publicKey !== undefined && (typeof publicKey !== 'string' || !HEX64.test(publicKey))) {
    throw new LegacyConfigError(`${where}.publicKey must be 64 hex characters.`);
  }
  if (address !== undefined && (typeof address !== 'string' || !HEX40.test(address))) {
    throw new LegacyConfigError(`${where}.address must be 40 hex characters (the Lisk Core 3.x address).`);
  }
  if (publicKey === undefined && address === undefined) throw new LegacyConfigError(`${where} needs a publicKey or an address.`);
  if (typeof encryptedPassphrase !== 'string') throw new LegacyConfigError(`${where}.encryptedPassphrase must be a string.`);
  try {
    parseEncryptedPassphraseV3(encryptedPassphrase);
  } catch (error) {
    // The parser's messages name fields, not values.
    throw new LegacyConfigError(`${where}.encryptedPassphrase is not a Lisk Core encryptedPassphrase: ${(error as Error).message}`);
  }
  return {
    ...(publicKey !== undefined ? { publicKey: (publicKey as string).toLowerCase() } : {}),
    ...(address !== undefined ? { address: (address as string).toLowerCase() } : {}),
    encryptedPassphrase,
    ...(hashOnion !== undefined ? { hashOnion: parseHashOnion(hashOnion, `${where}.hashOnion`) } : {}),
  };
}

/** The forging config of a parsed Lisk Core config object. */
export function parseLegacyConfig(root: unknown, source = 'legacy config'): LegacyForgingConfig {
  if (!isObject(root)) throw new LegacyConfigError(`${source}: the file must hold a JSON object.`);
  const v1v3 = at(root, 'forging', 'delegates');
  const v2 = at(root, 'modules', 'chain', 'forging', 'delegates');
  const [raw, path] = v1v3 !== undefined ? [v1v3, '.forging.delegates'] : [v2, '.modules.chain.forging.delegates'];
  const forging = v1v3 !== undefined ? at(root, 'forging') : at(root, 'modules', 'chain', 'forging');
  const force = at(forging, 'force') === true;
  const defaultPassword = at(forging, 'defaultPassword');
  if (raw !== undefined && !Array.isArray(raw)) throw new LegacyConfigError(`${source}: ${path} must be an array.`);
  const delegates = ((raw as unknown[] | undefined) ?? []).map((entry, i) => parseDelegate(entry, `${source}: ${path}[${i}]`));

  // 2.x places win over 1.x ones when both are present (a 2.x file is what 1.x files migrated to).
  const access = at(root, 'modules', 'http_api', 'access') ?? at(root, 'api', 'access');
  const publicFlag = at(access, 'public');
  // Lisk merges its defaults under the file: an absent list is the default, a present one is kept as is.
  const apiWhiteList = at(access, 'whiteList');
  const forgingWhiteList = at(root, 'modules', 'http_api', 'forging', 'access', 'whiteList') ?? at(root, 'forging', 'access', 'whiteList');
  return {
    delegates,
    apiAccess: { public: publicFlag === true, whiteList: apiWhiteList ?? DEFAULT_WHITELIST },
    forgingWhiteList: forgingWhiteList === undefined ? DEFAULT_WHITELIST : forgingWhiteList,
    ...(force && typeof defaultPassword === 'string' && delegates.length > 0 ? { defaultPassword } : {}),
  };
}

/** Reads and parses the file; a missing or non-JSON file is a LegacyConfigError naming it. */
export function readLegacyConfig(file: string): LegacyForgingConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new LegacyConfigError(`Cannot read the legacy forging config ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}.`);
  }
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text near the fault, which may be a secret.
    throw new LegacyConfigError(`The legacy forging config ${file} is not valid JSON.`);
  }
  return parseLegacyConfig(root, file);
}
