/**
 * Imports a plugin file and returns its default export. JavaScript files (`.js`, `.mjs`, `.cjs`)
 * load with Node's own `import()`. TypeScript files load the same way when the node runs under
 * tsx (`npm start`, the e2e tests); otherwise through tsx's scoped loader when tsx is installed,
 * so that a node built to `dist/` can still run a TypeScript plugin in a checkout.
 */
import { pathToFileURL } from 'node:url';
import { ConfigError } from '../config/config-error.js';

const TYPESCRIPT_FILE = /\.(?:ts|mts|cts)$/;

/** The file's default export (`undefined` when it has none). Throws ConfigError naming `key`. */
export async function importPluginFile(file: string, key: string): Promise<unknown> {
  const url = pathToFileURL(file).href;
  let namespace: { default?: unknown };
  try {
    namespace = (await import(url)) as { default?: unknown };
  } catch (error) {
    if (!TYPESCRIPT_FILE.test(file) || (error as { code?: unknown }).code !== 'ERR_UNKNOWN_FILE_EXTENSION') {
      throw new ConfigError(`${key}: cannot load ${file}: ${(error as Error).message}`);
    }
    namespace = await importWithTsx(url, file, key);
  }
  return namespace.default;
}

async function importWithTsx(url: string, file: string, key: string): Promise<{ default?: unknown }> {
  let tsImport: (specifier: string, parent: string) => Promise<unknown>;
  try {
    ({ tsImport } = (await import('tsx/esm/api')) as { tsImport: typeof tsImport });
  } catch {
    throw new ConfigError(`${key}: ${file} is TypeScript; compile it to JavaScript or install tsx to load it.`);
  }
  try {
    return (await tsImport(url, import.meta.url)) as { default?: unknown };
  } catch (error) {
    throw new ConfigError(`${key}: cannot load ${file}: ${(error as Error).message}`);
  }
}
