/**
 * JSON output of the commands (docs/protocol/cli.md): data on stdout, compact or with two-space
 * indentation under --pretty; files in Lisk's form, one-space indentation, mode 0600 (they may hold
 * keys), the parent directory created.
 */
import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { expandHome } from '../../config/config-paths.js';

/** Writes `value` as one JSON document and a newline. */
export function printJson(out: NodeJS.WritableStream, value: unknown, pretty = false): void {
  out.write(`${JSON.stringify(value, undefined, pretty ? 2 : undefined) ?? '{}'}\n`);
}

/**
 * Where `--output` writes (SDK 6.1 handleOutputFlag): a path with an extension is the file; a
 * path without one is a directory that receives `<defaultName>`.
 */
export function resolveOutputFile(output: string, defaultName: string): string {
  const path = resolve(expandHome(output));
  return extname(path) === '' ? join(path, defaultName) : path;
}

/**
 * Writes `value` to `path` as Lisk's tools do (one-space indentation) with mode 0600. The file
 * is written under a temporary name and renamed, so a crash never leaves half a key file, and
 * an existing file with a wider mode is replaced, not reused.
 */
export function writePrivateJsonFile(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  rmSync(temporary, { force: true });
  try {
    writeFileSync(temporary, `${JSON.stringify(value, undefined, ' ')}\n`, { mode: 0o600, flag: 'wx' });
    // The mode given at creation is reduced by the umask, never widened; make sure it is 0600.
    chmodSync(temporary, 0o600);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/**
 * Where a command's document goes: printed on stdout (compact or --pretty) when `output` is
 * undefined, else written as a private file (see writePrivateJsonFile) with Lisk's confirmation
 * line on stdout.
 */
export function writeOrPrintJson(
  out: NodeJS.WritableStream,
  output: string | undefined,
  defaultName: string,
  value: unknown,
  pretty: boolean,
): void {
  if (output === undefined) {
    printJson(out, value, pretty);
    return;
  }
  const path = resolveOutputFile(output, defaultName);
  writePrivateJsonFile(path, value);
  out.write(`Successfully written data to ${path}\n`);
}
