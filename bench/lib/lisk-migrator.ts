/**
 * The real lisk-migrator 2.0.1 for side-by-side migration runs: a build of LiskHQ/lisk-migrator
 * v2.0.1 (LISK_MIGRATOR_DIR) that calls a build of LiskHQ/lisk-core v4.0.3 (LISK_CORE4_DIR) for
 * `genesis-block:create`, both with the reference tools' stand-ins for @liskhq/lisk-db (its native
 * addon cannot be built here) and the tools' PATH wrappers: `lisk-core` runs the v4 build, and the
 * `npm i -g lisk-core@^4.0.1` the migrator always runs is answered without installing anything.
 * The wrappers are looked up where `npm run test:interop` finds the tools (BASALT_INTEROP_TOOLS,
 * or its default). A benchmark builds nothing: without the builds the rows are skipped.
 */
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const LISK_MIGRATOR_SKIPPED =
  'skipped: set LISK_MIGRATOR_DIR and LISK_CORE4_DIR to builds of lisk-migrator v2.0.1 and Lisk Core 4.0.3 over the interop tools\' lisk-db stand-ins (bench/README.md, "migration")';

export interface LiskMigratorTool {
  /** `node <bin> --snapshot-path …`: the migrator's oclif entry point. */
  readonly bin: string;
  /** The environment to run it in: the wrappers first on PATH, LISK_CORE4_DIR for them. */
  readonly env: NodeJS.ProcessEnv;
}

/** The two builds and the wrappers, or why they cannot be used. */
export function findLiskMigrator(): LiskMigratorTool | { readonly missing: string } {
  const migrator = process.env.LISK_MIGRATOR_DIR;
  const core = process.env.LISK_CORE4_DIR;
  if (migrator === undefined || core === undefined) return { missing: LISK_MIGRATOR_SKIPPED };
  const bin = join(migrator, 'bin', 'run');
  const standIn = (dir: string, word: string) => {
    const manifest = join(dir, 'node_modules', '@liskhq', 'lisk-db', 'package.json');
    return existsSync(manifest) && readFileSync(manifest, 'utf8').includes(word);
  };
  if (!existsSync(bin) || !existsSync(join(migrator, 'dist', 'index.js')) || !standIn(migrator, 'stand-in'))
    return { missing: `${LISK_MIGRATOR_SKIPPED} (LISK_MIGRATOR_DIR=${migrator} holds no built lisk-migrator with the lisk-db stand-in)` };
  if (!existsSync(join(core, 'dist', 'commands', 'genesis-block', 'create.js')) || !standIn(core, 'shim'))
    return { missing: `${LISK_MIGRATOR_SKIPPED} (LISK_CORE4_DIR=${core} holds no built lisk-core 4 with the lisk-db shim)` };
  const tools = resolve(ROOT, process.env.BASALT_INTEROP_TOOLS ?? join('..', 'shared', 'tools'));
  const wrappers = join(tools, 'lisk-migrator', 'wrappers');
  if (!existsSync(join(wrappers, 'npm')) || !existsSync(join(wrappers, 'lisk-core')))
    return { missing: `${LISK_MIGRATOR_SKIPPED} (no PATH wrappers in ${wrappers}; set BASALT_INTEROP_TOOLS)` };
  // Without the wrappers first on PATH the migrator would really run `npm i -g lisk-core`.
  const env = { ...process.env, PATH: `${wrappers}${delimiter}${process.env.PATH ?? ''}`, LISK_CORE4_DIR: core };
  return { bin, env };
}
