/**
 * Build configuration: transpiles every file under src/ to dist/ one-to-one with esbuild
 * (no bundling), so that worker-thread entry files (src/workers/*.worker.ts) exist as their
 * own files in dist/ and can be handed to Piscina by path. Type declarations come from tsc.
 *
 * Run with `npm run build`.
 */
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SOURCE_DIR = 'src';
const OUT_DIR = 'dist';

function listSourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...listSourceFiles(path));
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

rmSync(OUT_DIR, { recursive: true, force: true });

await build({
  entryPoints: listSourceFiles(SOURCE_DIR),
  outdir: OUT_DIR,
  outbase: SOURCE_DIR,
  bundle: false,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
});

// Declarations (and a full type check of src/) from the TypeScript compiler itself.
execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
console.log(`built ${listSourceFiles(SOURCE_DIR).length} modules into ${OUT_DIR}/`);
