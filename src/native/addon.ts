/** The addon of this process, loaded on first import of src/native (see load-addon.ts). */
import { loadAddon } from './load-addon.js';
import type { NativeAddon } from './native-addon.js';

const loaded = loadAddon();

/** The loaded addon, or undefined when the TypeScript implementations are in use. */
export const nativeAddon: NativeAddon | undefined = loaded.addon;

/** True when the native addon is loaded. */
export const nativeAvailable: boolean = loaded.addon !== undefined;

/** One line saying whether the addon is used and why (log it once at start). */
export const nativeStatus: string = loaded.status;

/** Each place the loader looked at and what it found there (logged at debug level). */
export const nativeSearch: readonly string[] = loaded.tried;
