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
