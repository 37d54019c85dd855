/**
 * `forger_info.json` in the data dir: the forging status of the legacy delegates in Core's terms
 * (Core 3.x forger.db `forger:previouslyForged`), so it can be copied to another node.
 * The node's own record is the generator store (v4 generator info); this file mirrors it for
 * the configured delegates and is read when a delegate is enabled. Format:
 *
 *   { "forgerInfo": [ { "address": "lsk…", "height": 0, "maxHeightPrevoted": 0,
 *                       "maxHeightPreviouslyForged": 0 } ] }
 *
 * maxHeightPreviouslyForged is v4's maxHeightGenerated. Written whole (temp file and
 * rename); entries of other addresses are kept. Meant for the forging toggle: on enable, resume
 * from `laterInfo(generator store, file)` and save after each toggle and at shutdown.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeLisk32, encodeLisk32 } from '../crypto/index.js';
import type { GeneratedInfo } from '../engine/generator/generator-store.js';
import { LegacyConfigError } from './legacy-config.js';

export const FORGER_INFO_FILE = 'forger_info.json';

interface ForgerInfoJSON {
  address: string;
  height: number;
  maxHeightPrevoted: number;
  maxHeightPreviouslyForged: number;
}

const isHeight = (value: unknown): value is number =>
  Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= 0xffff_ffff;

/** Validates the file's content; throws LegacyConfigError naming the bad entry. */
export function parseForgerInfo(json: unknown, source: string): Map<string, GeneratedInfo> {
  const list = (json as { forgerInfo?: unknown } | null)?.forgerInfo;
  if (!Array.isArray(list)) throw new LegacyConfigError(`${source}: expected {"forgerInfo": [...]}.`);
  const info = new Map<string, GeneratedInfo>();
  list.forEach((entry: Partial<ForgerInfoJSON>, index) => {
    const where = `${source}: forgerInfo[${index}]`;
    let address: Buffer;
    try {
      address = decodeLisk32(String(entry?.address));
    } catch {
      throw new LegacyConfigError(`${where}.address must be a lisk32 address.`);
    }
    if (!isHeight(entry.height) || !isHeight(entry.maxHeightPrevoted) || !isHeight(entry.maxHeightPreviouslyForged)) {
      throw new LegacyConfigError(`${where}: height, maxHeightPrevoted and maxHeightPreviouslyForged must be integers ≥ 0.`);
    }
    info.set(address.toString('hex'), {
      height: entry.height,
      maxHeightPrevoted: entry.maxHeightPrevoted,
      maxHeightGenerated: entry.maxHeightPreviouslyForged,
    });
  });
  return info;
}

/** The JSON text for `info` (address hex → generator info), in address order. */
export function formatForgerInfo(info: ReadonlyMap<string, GeneratedInfo>): string {
  const forgerInfo: ForgerInfoJSON[] = [...info.keys()].sort().map((key) => {
    const entry = info.get(key) as GeneratedInfo;
    return {
      address: encodeLisk32(Buffer.from(key, 'hex')),
      height: entry.height,
      maxHeightPrevoted: entry.maxHeightPrevoted,
      maxHeightPreviouslyForged: entry.maxHeightGenerated,
    };
  });
  return `${JSON.stringify({ forgerInfo }, undefined, 2)}\n`;
}

export class ForgerInfoFile {
  readonly path: string;
  private readonly entries: Map<string, GeneratedInfo>;

  /** Reads `<dataPath>/forger_info.json` when present; a damaged file stops the start. */
  constructor(dataPath: string) {
    this.path = join(dataPath, FORGER_INFO_FILE);
    if (!existsSync(this.path)) {
      this.entries = new Map();
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(this.path, 'utf8'));
    } catch {
      throw new LegacyConfigError(`${this.path} is not valid JSON.`);
    }
    this.entries = parseForgerInfo(json, this.path);
  }

  get(address: Buffer): GeneratedInfo | undefined {
    return this.entries.get(address.toString('hex'));
  }

  /** Records `info` for each address and rewrites the file. */
  save(updates: readonly { address: Buffer; info: GeneratedInfo }[]): void {
    for (const { address, info } of updates) this.entries.set(address.toString('hex'), info);
    const temporary = `${this.path}.tmp`;
    writeFileSync(temporary, formatForgerInfo(this.entries), { mode: 0o644 });
    renameSync(temporary, this.path);
  }
}

/** Field by field the higher value: never resume below anything either record says was signed. */
export function laterInfo(a: GeneratedInfo | undefined, b: GeneratedInfo | undefined): GeneratedInfo | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  return {
    height: Math.max(a.height, b.height),
    maxHeightPrevoted: Math.max(a.maxHeightPrevoted, b.maxHeightPrevoted),
    maxHeightGenerated: Math.max(a.maxHeightGenerated, b.maxHeightGenerated),
  };
}
