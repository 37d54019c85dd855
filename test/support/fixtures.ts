/**
 * Access to the conformance data in test/fixtures/ (see test/fixtures/README.md for the provenance
 * of every file). Loading fails loudly: a fixture that cannot be read or parsed must fail the run,
 * never skip silently.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

export function fixturePath(relativePath: string): string {
  return join(FIXTURES_DIR, relativePath);
}

export function loadJsonFixture<T = unknown>(relativePath: string): T {
  return JSON.parse(readFileSync(fixturePath(relativePath), 'utf8')) as T;
}

export function loadBinaryFixture(relativePath: string): Buffer {
  return readFileSync(fixturePath(relativePath));
}

export function hex(value: string): Buffer {
  return Buffer.from(value.startsWith('0x') ? value.slice(2) : value, 'hex');
}
