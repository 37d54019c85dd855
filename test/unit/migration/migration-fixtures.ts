/**
 * Where the real lisk-migrator 2.0.1 outputs live: `../shared/fixtures/migration` from the
 * repository root. A clone without that folder skips the tests that need it, with a printed reason.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const MIGRATION_FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'shared', 'fixtures', 'migration');

export const migrationFixturesPresent = existsSync(MIGRATION_FIXTURES);

if (!migrationFixturesPresent) {
  console.info(`Skipping the lisk-migrator fixture tests: ${MIGRATION_FIXTURES} is missing.`);
}

/** The files every successful migration writes, sorted. */
export const GENESIS_OUTPUT_FILES = [
  'genesis_assets.json',
  'genesis_block.blob',
  'genesis_block.blob.SHA256',
  'genesis_block.blob.tar.gz',
  'genesis_block.blob.tar.gz.SHA256',
  'genesis_block.json',
  'genesis_block.json.SHA256',
  'genesis_block.json.tar.gz',
  'genesis_block.json.tar.gz.SHA256',
];
