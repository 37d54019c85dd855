/**
 * `npm run test:interop`: the tests in test/interop/, which drive real lisk-sdk / Lisk Core
 * software. They need the reference tools checked out next to the repository (`../shared/tools`,
 * or the directory BASALT_INTEROP_TOOLS names); without them this says they were skipped and
 * succeeds, so a machine without the tools still passes its checks.
 *
 * `--ci` runs the subset CI runs on every submission (at most about ten minutes): it sets
 * BASALT_INTEROP_CI=1, and the longer cases skip themselves under it (`ciSkip` below).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The directory of the reference tools; the interop tests read it from this variable too. */
export const INTEROP_TOOLS_ENV = 'BASALT_INTEROP_TOOLS';
/** Set by `--ci`: only the cases that fit CI's time run. */
export const INTEROP_CI_ENV = 'BASALT_INTEROP_CI';
/** For `it.skipIf`: true in the CI subset, for cases that take minutes. */
export const ciSkip = process.env[INTEROP_CI_ENV] === '1';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const tools = resolve(ROOT, process.env[INTEROP_TOOLS_ENV] ?? join('..', 'shared', 'tools'));

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const ci = process.argv.includes('--ci');
  if (existsSync(tools)) {
    const vitest = join(ROOT, 'node_modules', '.bin', 'vitest');
    const run = spawnSync(vitest, ['run', 'test/interop/', '--passWithNoTests'], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, [INTEROP_TOOLS_ENV]: tools, ...(ci ? { [INTEROP_CI_ENV]: '1' } : {}) },
    });
    process.exitCode = run.status ?? 1;
  } else {
    console.log(`Interop tests skipped: no lisk-sdk / Lisk Core tools at ${tools}.`);
  }
}
