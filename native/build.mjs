#!/usr/bin/env node
// Builds the native addon: `cargo build --release` of this crate, then the shared library is
// copied to native/basalt_native.node, where src/native/load-addon.ts looks for it, and loaded
// once to check that it works. See native/README.md for why this is cargo plus a copy.
//
//   node native/build.mjs              build; fail if cargo is missing or the build fails
//   node native/build.mjs --optional   the install hook: without cargo, or if the build fails,
//                                      say so and exit 0 (Basalt then uses its TypeScript code)
//
// Plain JavaScript on purpose: it runs from `npm install`, before anything else is built.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const crateDir = dirname(fileURLToPath(import.meta.url));
const output = join(crateDir, 'basalt_native.node');
const optional = process.argv.includes('--optional');

/** Ends the build: a failure is fatal unless the build is optional. */
function finish(ok, message) {
  if (ok) {
    console.log(`build:native: ${message}`);
    process.exit(0);
  }
  if (optional) {
    console.warn(`build:native: ${message}; Basalt will use its TypeScript implementations.`);
    process.exit(0);
  }
  console.error(`build:native: ${message}`);
  process.exit(1);
}

if (process.env.BASALT_SKIP_NATIVE_BUILD === '1') finish(optional, 'skipped (BASALT_SKIP_NATIVE_BUILD=1)');

const cargo = process.env.CARGO ?? 'cargo';
if (spawnSync(cargo, ['--version'], { stdio: 'ignore' }).status !== 0) {
  finish(false, 'cargo not found (install Rust to build the native addon)');
}

// No dependencies, so nothing is fetched: --offline makes that a guarantee.
const build = spawnSync(cargo, ['build', '--release', '--offline', '--manifest-path', join(crateDir, 'Cargo.toml')], {
  stdio: 'inherit',
});
if (build.status !== 0) finish(false, `cargo build failed (exit ${build.status ?? build.signal})`);

const targetDir = process.env.CARGO_TARGET_DIR ?? join(crateDir, 'target');
const libraryName =
  {
    linux: 'libbasalt_native.so',
    darwin: 'libbasalt_native.dylib',
    win32: 'basalt_native.dll',
  }[process.platform] ?? 'libbasalt_native.so';
const library = join(targetDir, 'release', libraryName);
if (!existsSync(library)) finish(false, `cargo produced no ${library}`);

// Copy beside the target, then rename over it: a process that has the old addon loaded keeps a
// valid mapping, where writing into the loaded file could crash it.
const staging = `${output}.${process.pid}.tmp`;
copyFileSync(library, staging);
renameSync(staging, output);

// Load it in a fresh process and hash "abc", so a broken build is caught here, not at start.
const check = spawnSync(
  process.execPath,
  [
    '-e',
    `const a = require(process.argv[1]);
     const d = a.sha256(Buffer.from('abc')).toString('hex');
     if (d !== 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad') throw new Error('wrong digest ' + d);
     console.log(a.sha256Backend);`,
    output,
  ],
  { encoding: 'utf8' },
);
if (check.status !== 0) {
  rmSync(output, { force: true });
  finish(false, `the built addon does not load: ${(check.stderr || check.stdout).trim().split('\n')[0]}`);
}
finish(true, `built ${output} (SHA-256: ${check.stdout.trim()})`);
