/**
 * Reads the operator's previous Lisk Core config as it is (cli_migration.md §6.1, §6.3, §6.4):
 * the forging delegates and the HTTP API whitelists. Read once at start; edits apply on restart.
 *
 * Where each version keeps them:
 *   delegates  1.x and 3.x `forging.delegates`, 2.x `modules.chain.forging.delegates`
 *   API gate   2.x `modules.http_api.access.{public, whiteList}`, 1.x `api.access.{public, whiteList}`
 *   forging    2.x `modules.http_api.forging.access.whiteList`, 1.x `forging.access.whiteList`
 * A missing whitelist is Core's default ["127.0.0.1"]: only local callers, who pass anyway.
 */
import { readFileSync } from 'node:fs';
import { addressFromPublicKey, decodeLisk32, parseEncryptedPassphraseV3 } from '../crypto/index.js';
import type { HashOnionCheckpoints } from '../modules/random/hash-onion-types.js';
import { buildIpWhitelist, type IpWhitelist } from './ip-whitelist.js';
import { LegacyApiConfigError } from './legacy-api-error.js';

export interface LegacyDelegate {
  /** As written in the config (1.x/2.x entries); PUT matches it exactly, case included (§6.2). */
  readonly publicKey?: string;
  /** The 20-byte account address (3.x `address`, or derived from `publicKey`). */
  readonly address: Buffer;
  /** v3 string format (§2.4); parsed at load so a damaged entry stops the start. */
  readonly encryptedPassphrase: string;
  /** The delegate's onion for its seed reveals (§3.3), when the config has one. */
  readonly hashOnion?: HashOnionCheckpoints;
}

export interface LegacyForgingConfig {
  readonly delegates: readonly LegacyDelegate[];
  /** `access.public`: true opens the non-forging endpoints to everyone (§6.3). */
  readonly apiPublic: boolean;
  readonly apiWhitelist: IpWhitelist;
  readonly forgingWhitelist: IpWhitelist;
}

const PUBLIC_KEY = /^[0-9a-fA-F]{64}$/;
const HEX_ADDRESS = /^[0-9a-fA-F]{40}$/;
const ONION_HASH = /^[0-9a-fA-F]{32}$/;
/** The Core 3.x config validator's form of encryptedPassphrase (§2.4). */
const ENCRYPTED_PASSPHRASE = /^([a-zA-Z0-9]{2,15}=[a-f0-9]{1,512})(&[a-zA-Z0-9]{2,15}=[a-f0-9]{1,512}){0,10}$/;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `root.a.b.c`, or undefined when any step is missing. */
function at(root: unknown, ...path: string[]): unknown {
  let value = root;
  for (const key of path) {
    if (!isObject(value)) return undefined;
    value = value[key];
  }
  return value;
}

const DEFAULT_WHITELIST = ['127.0.0.1'];

function parseHashOnion(value: unknown, where: string): HashOnionCheckpoints {
  if (!isObject(value)) throw new LegacyApiConfigError(`${where}.hashOnion must be an object {count, distance, hashes}.`);
  const { count, distance, hashes } = value;
  if (!Number.isSafeInteger(count) || (count as number) < 1 || !Number.isSafeInteger(distance) || (distance as number) < 1) {
    throw new LegacyApiConfigError(`${where}.hashOnion: count and distance must be integers of at least 1.`);
  }
  if ((count as number) % (distance as number) !== 0) {
    throw new LegacyApiConfigError(`${where}.hashOnion: count must be a multiple of distance.`);
  }
  const expected = (count as number) / (distance as number) + 1;
  if (!Array.isArray(hashes) || hashes.length !== expected || !hashes.every(hash => typeof hash === 'string' && ONION_HASH.test(hash))) {
    throw new LegacyApiConfigError(`${where}.hashOnion.hashes must be ${expected} hashes of 32 hex characters (count/distance + 1).`);
  }
  return { count: count as number, distance: distance as number, hashes: (hashes as string[]).map(hash => Buffer.from(hash, 'hex')) };
}

function parseAddress(value: unknown, where: string): Buffer {
  if (typeof value === 'string' && HEX_ADDRESS.test(value)) return Buffer.from(value, 'hex');
  if (typeof value === 'string' && value.startsWith('lsk')) {
    try {
      return decodeLisk32(value);
    } catch {
      // reported below
    }
  }
  throw new LegacyApiConfigError(`${where}.address must be 40 hex characters (Core 3.x) or a lisk32 address.`);
}

function parseDelegate(value: unknown, where: string): LegacyDelegate {
  if (!isObject(value)) throw new LegacyApiConfigError(`${where} must be an object.`);
  const { publicKey, address, encryptedPassphrase, hashOnion } = value;
  if (typeof encryptedPassphrase !== 'string' || !ENCRYPTED_PASSPHRASE.test(encryptedPassphrase)) {
    throw new LegacyApiConfigError(`${where}.encryptedPassphrase must be a Lisk Core encrypted passphrase (iterations=…&cipherText=…&iv=…&salt=…&tag=…&version=1).`);
  }
  try {
    parseEncryptedPassphraseV3(encryptedPassphrase);
  } catch (error) {
    throw new LegacyApiConfigError(`${where}.encryptedPassphrase: ${(error as Error).message}`);
  }
  const onion = hashOnion === undefined ? undefined : parseHashOnion(hashOnion, where);
  if (publicKey !== undefined) {
    if (typeof publicKey !== 'string' || !PUBLIC_KEY.test(publicKey)) {
      throw new LegacyApiConfigError(`${where}.publicKey must be 64 hex characters.`);
    }
    const derived = addressFromPublicKey(Buffer.from(publicKey, 'hex'));
    if (address !== undefined && !parseAddress(address, where).equals(derived)) {
      throw new LegacyApiConfigError(`${where}: address and publicKey belong to different accounts.`);
    }
    return { publicKey, address: derived, encryptedPassphrase, hashOnion: onion };
  }
  if (address === undefined) throw new LegacyApiConfigError(`${where} needs a publicKey or an address.`);
  return { address: parseAddress(address, where), encryptedPassphrase, hashOnion: onion };
}

/** Parses an already-read config object; `source` names it in errors. */
export function parseLegacyForgingConfig(config: unknown, source: string): LegacyForgingConfig {
  if (!isObject(config)) throw new LegacyApiConfigError(`${source}: the legacy config must be a JSON object.`);
  const v1v3 = at(config, 'forging', 'delegates');
  const v2 = at(config, 'modules', 'chain', 'forging', 'delegates');
  const list = v1v3 ?? v2 ?? [];
  const listPath = v1v3 !== undefined ? 'forging.delegates' : 'modules.chain.forging.delegates';
  if (!Array.isArray(list)) throw new LegacyApiConfigError(`${source}: ${listPath} must be an array.`);
  const delegates = list.map((entry, index) => parseDelegate(entry, `${source}: ${listPath}[${index}]`));
  const seen = new Set<string>();
  for (const delegate of delegates) {
    const key = delegate.address.toString('hex');
    if (seen.has(key)) throw new LegacyApiConfigError(`${source}: ${listPath} names the account ${key} twice.`);
    seen.add(key);
  }

  const apiAccess = at(config, 'modules', 'http_api', 'access') ?? at(config, 'api', 'access');
  const forgingList = at(config, 'modules', 'http_api', 'forging', 'access', 'whiteList') ?? at(config, 'forging', 'access', 'whiteList');
  const apiList = at(apiAccess, 'whiteList');
  return {
    delegates,
    apiPublic: at(apiAccess, 'public') === true,
    apiWhitelist: buildIpWhitelist(apiList === undefined ? DEFAULT_WHITELIST : apiList),
    forgingWhitelist: buildIpWhitelist(forgingList === undefined ? DEFAULT_WHITELIST : forgingList),
  };
}

/** Reads and parses the file at `path` (absolute: config resolution made it so). */
export function readLegacyForgingConfig(path: string): LegacyForgingConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new LegacyApiConfigError(`Cannot read the legacy config ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}.`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new LegacyApiConfigError(`The legacy config ${path} is not valid JSON.`);
  }
  return parseLegacyForgingConfig(json, path);
}
