/**
 * Finds and loads the native addon once per process (and once per worker thread: N-API modules
 * are context-aware). A missing or unusable addon is not an error: every native function has a
 * TypeScript implementation with the same contract, and `nativeStatus` says which is in use.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { NATIVE_FUNCTIONS } from './native-addon.js';
import type { NativeAddon } from './native-addon.js';

/** Set to `0` to ignore the addon even when it is built (tests, comparisons, troubleshooting). */
export const NATIVE_DISABLE_ENV = 'BASALT_NATIVE';
/** Path of a `.node` file to load instead of the default one. */
export const NATIVE_PATH_ENV = 'BASALT_NATIVE_PATH';

/**
 * Where `npm run build:native` puts the addon. This file sits two levels below the package root
 * both as src/native/load-addon.ts and as dist/native/load-addon.js, so one relative path serves.
 */
export const DEFAULT_ADDON_PATH = fileURLToPath(new URL('../../native/basalt_native.node', import.meta.url));

export interface AddonLoadResult {
  readonly addon: NativeAddon | undefined;
  /** One line for the log: what was loaded from where, or why nothing was. */
  readonly status: string;
}

export function loadAddon(env: NodeJS.ProcessEnv = process.env): AddonLoadResult {
  if (env[NATIVE_DISABLE_ENV] === '0') {
    return { addon: undefined, status: `native addon disabled (${NATIVE_DISABLE_ENV}=0): using the TypeScript implementations` };
  }
  const path = env[NATIVE_PATH_ENV] ?? DEFAULT_ADDON_PATH;
  if (!existsSync(path)) {
    return {
      addon: undefined,
      status: `native addon not built (no ${path}; run \`npm run build:native\`): using the TypeScript implementations`,
    };
  }
  let loaded: unknown;
  try {
    loaded = createRequire(import.meta.url)(path);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { addon: undefined, status: `native addon at ${path} failed to load (${reason}): using the TypeScript implementations` };
  }
  const exports = loaded as Partial<Record<string, unknown>>;
  const absent = NATIVE_FUNCTIONS.filter((name) => typeof exports[name] !== 'function');
  if (absent.length > 0) {
    return {
      addon: undefined,
      status: `native addon at ${path} lacks ${absent.join(', ')} (stale build? run \`npm run build:native\`): using the TypeScript implementations`,
    };
  }
  const addon = loaded as NativeAddon;
  const sha = addon.sha256Backend === 'sha-extensions' ? 'SHA-256 with CPU SHA extensions' : 'portable SHA-256';
  return { addon, status: `native addon loaded from ${path} (${sha}, N-API ${addon.napiVersion})` };
}
