/**
 * The built CLI (`npm run build`, dist/cli/main.js), which the nodes the bench starts run: an
 * operator runs the package, not the TypeScript sources. Through tsx every worker thread of the
 * node compiles its modules again at start, about a second of CPU on the node's core in its first
 * seconds, which the package never pays and which the first-seconds-after-start rows would
 * otherwise measure. The build is made, or made again, when any file under src/ is newer than it,
 * so the bench never runs stale code.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUILT_CLI = join(ROOT, 'dist', 'cli', 'main.js');

let checked = false;

function newestModification(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestModification(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Path of dist/cli/main.js, built first when missing or older than the sources. */
export function builtCli(): string {
  if (!checked) {
    const stale = !existsSync(BUILT_CLI) || statSync(BUILT_CLI).mtimeMs < newestModification(join(ROOT, 'src'));
    if (stale) {
      process.stderr.write('bench: building the package (npm run build); the nodes run dist/, as an installed basalt does\n');
      execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    }
    checked = true;
  }
  return BUILT_CLI;
}
