/**
 * Finds and loads the native addon once per process (and once per worker thread: N-API modules
 * are context-aware). A missing or unusable addon is not an error: every native function has a
 * TypeScript implementation with the same contract, and `nativeStatus` says which is in use.
 *
 * Where it looks, first found and working wins (README "Install"):
 *   1. the local build, native/basalt_native.node (`npm run build:native`, or the install hook
 *      on a machine with cargo);
 *   2. the prebuild shipped in the package for this platform,
 *      native/prebuilds/basalt-native.<triple>.node (`npm run build:prebuild`, run by prepack);
 *   3. the optional per-platform package basalt-native-<triple> (the npm/<triple>/ layout that
 *      `napi prepublish` publishes);
 *   4. nothing: the TypeScript implementations.
 * `BASALT_NATIVE_PATH` replaces the search with one file.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { NATIVE_FUNCTIONS } from './native-addon.js';
import type { NativeAddon } from './native-addon.js';

/** Set to `0` to ignore the addon even when it is built (tests, comparisons, troubleshooting). */
export const NATIVE_DISABLE_ENV = 'BASALT_NATIVE';
/** Path of a `.node` file to load instead of searching. */
export const NATIVE_PATH_ENV = 'BASALT_NATIVE_PATH';

/**
 * Where `npm run build:native` puts the addon. This file sits two levels below the package root
 * both as src/native/load-addon.ts and as dist/native/load-addon.js, so one relative path serves.
 */
export const DEFAULT_ADDON_PATH = fileURLToPath(new URL('../../native/basalt_native.node', import.meta.url));

/** The folder of shipped prebuilds, named as `napi build --platform` names them. */
export const PREBUILDS_DIR = fileURLToPath(new URL('../../native/prebuilds/', import.meta.url));

/** `binaryName` and `packageName` of package.json's `napi` section. */
const BINARY_NAME = 'basalt-native';
const PLATFORM_PACKAGE_PREFIX = 'basalt-native';

export type AddonSource = 'path' | 'local build' | 'prebuild' | 'platform package';

export interface AddonLoadResult {
  readonly addon: NativeAddon | undefined;
  /** One line for the log: what was loaded from where, or why nothing was. */
  readonly status: string;
  /** Where the loaded addon came from; undefined when none was loaded. */
  readonly source?: AddonSource;
  /** Each place looked at, in order, and what was found there (for a debug log). */
  readonly tried: readonly string[];
}

/**
 * The platform triple as napi-rs names binaries and per-platform packages: `linux-x64-gnu`,
 * `linux-x64-musl`, `darwin-arm64`, `win32-x64-msvc`. Linux's C library is read from the process
 * report: glibc builds of node report the glibc version they run on, musl builds do not.
 */
export function platformTriple(platform: NodeJS.Platform = process.platform, arch: string = process.arch): string {
  if (platform === 'linux') return `linux-${arch}-${isGlibc() ? 'gnu' : 'musl'}`;
  if (platform === 'win32') return `win32-${arch}-msvc`;
  return `${platform}-${arch}`;
}

function isGlibc(): boolean {
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  return typeof header?.glibcVersionRuntime === 'string';
}

interface Candidate {
  readonly source: AddonSource;
  /** The file to load, or undefined when the place does not exist here. */
  readonly path: string | undefined;
  /** What to say when the place does not exist. */
  readonly missing: string;
}

function candidates(env: NodeJS.ProcessEnv): Candidate[] {
  const explicit = env[NATIVE_PATH_ENV];
  if (explicit !== undefined) {
    return [{ source: 'path', path: existsSync(explicit) ? explicit : undefined, missing: `no ${explicit}` }];
  }
  const triple = platformTriple();
  const prebuild = `${PREBUILDS_DIR}${BINARY_NAME}.${triple}.node`;
  const platformPackage = `${PLATFORM_PACKAGE_PREFIX}-${triple}`;
  return [
    { source: 'local build', path: existsSync(DEFAULT_ADDON_PATH) ? DEFAULT_ADDON_PATH : undefined, missing: `no ${DEFAULT_ADDON_PATH}` },
    { source: 'prebuild', path: existsSync(prebuild) ? prebuild : undefined, missing: `no ${prebuild}` },
    { source: 'platform package', path: resolvePackage(platformPackage), missing: `no package ${platformPackage}` },
  ];
}

function resolvePackage(name: string): string | undefined {
  try {
    return createRequire(import.meta.url).resolve(name);
  } catch {
    return undefined;
  }
}

/** Loads one file; a string says why it is not usable. */
function tryLoad(path: string): NativeAddon | string {
  let loaded: unknown;
  try {
    loaded = createRequire(import.meta.url)(path);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return `failed to load (${reason})`;
  }
  const exports = loaded as Partial<Record<string, unknown>>;
  const absent = NATIVE_FUNCTIONS.filter((name) => typeof exports[name] !== 'function');
  if (absent.length > 0) return `lacks ${absent.join(', ')} (stale build? run \`npm run build:native\`)`;
  return loaded as NativeAddon;
}

export function loadAddon(env: NodeJS.ProcessEnv = process.env): AddonLoadResult {
  if (env[NATIVE_DISABLE_ENV] === '0') {
    return {
      addon: undefined,
      status: `native addon disabled (${NATIVE_DISABLE_ENV}=0): using the TypeScript implementations`,
      tried: [],
    };
  }
  const tried: string[] = [];
  const failures: string[] = [];
  for (const { source, path, missing } of candidates(env)) {
    if (path === undefined) {
      tried.push(`${source}: ${missing}`);
      continue;
    }
    const result = tryLoad(path);
    if (typeof result === 'string') {
      tried.push(`${source}: ${path} ${result}`);
      failures.push(`native addon at ${path} ${result}`);
      continue;
    }
    tried.push(`${source}: ${path} loaded`);
    const sha = result.sha256Backend === 'sha-extensions' ? 'SHA-256 with CPU SHA extensions' : 'portable SHA-256';
    return { addon: result, source, tried, status: `native addon loaded from ${path} (${source}, ${sha}, N-API ${result.napiVersion})` };
  }
  const reason = failures.length > 0 ? failures.join('; ') : `native addon not built (${tried.join('; ')}; run \`npm run build:native\`)`;
  return { addon: undefined, tried, status: `${reason}: using the TypeScript implementations` };
}
