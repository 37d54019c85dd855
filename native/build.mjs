#!/usr/bin/env node
// Builds the native addon. See native/README.md for the two outputs and why.
//
//   node native/build.mjs              the local build: `cargo build --release`, copied to
//                                      native/basalt_native.node; fails if cargo is missing or
//                                      the build fails (CI runs this)
//   node native/build.mjs --optional   the install hook: a shipped prebuild that loads here is
//                                      used as it is; otherwise the local build, and without
//                                      cargo, or if the build fails, one line says so and the
//                                      install goes on (Basalt then uses its TypeScript code)
//   node native/build.mjs --prebuild   the prebuild shipped in the package (prepack):
//                                      `napi build --platform` names it after this platform's
//                                      triple in native/prebuilds/; needs @napi-rs/cli
//
// Each output is loaded once in a fresh node process, so a broken build is caught here.
// Plain JavaScript on purpose: it runs from `npm install`, before anything else is built.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const crateDir = dirname(fileURLToPath(import.meta.url));
const output = join(crateDir, 'basalt_native.node');
const prebuildsDir = join(crateDir, 'prebuilds');
const optional = process.argv.includes('--optional');
const prebuild = process.argv.includes('--prebuild');

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

/** Loads an addon in a fresh process and hashes "abc": the SHA-256 backend, or an error line. */
function loadCheck(path) {
  const check = spawnSync(
    process.execPath,
    [
      '-e',
      `const a = require(process.argv[1]);
       const d = a.sha256(Buffer.from('abc')).toString('hex');
       if (d !== 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad') throw new Error('wrong digest ' + d);
       console.log(a.sha256Backend);`,
      path,
    ],
    { encoding: 'utf8' },
  );
  if (check.status === 0) return { ok: true, backend: check.stdout.trim() };
  return { ok: false, error: (check.stderr || check.stdout).trim().split('\n')[0] };
}

/** The shipped prebuilds (one per platform triple), as `napi build --platform` names them. */
function listPrebuilds() {
  if (!existsSync(prebuildsDir)) return [];
  return readdirSync(prebuildsDir)
    .filter((name) => name.startsWith('basalt-native.') && name.endsWith('.node'))
    .map((name) => join(prebuildsDir, name));
}

if (process.env.BASALT_SKIP_NATIVE_BUILD === '1') finish(optional, 'skipped (BASALT_SKIP_NATIVE_BUILD=1)');

if (optional && !existsSync(join(crateDir, '..', '.git'))) {
  // An installed package (a git checkout always builds, so that Rust changes take effect): a
  // prebuild of another platform fails to load, so the first one that loads is this platform's
  // and src/native uses it; nothing to compile.
  for (const path of listPrebuilds()) {
    const check = loadCheck(path);
    if (check.ok) finish(true, `using the shipped prebuild ${path} (SHA-256: ${check.backend}); nothing to build`);
  }
}

const cargo = process.env.CARGO ?? 'cargo';
if (spawnSync(cargo, ['--version'], { stdio: 'ignore' }).status !== 0) {
  finish(false, 'cargo not found (install Rust to build the native addon)');
}

if (prebuild) {
  // napi build runs cargo build --release and copies the library under the triple's name; the
  // crate uses no napi-rs crates, so it generates no JavaScript or type bindings.
  let napiBin;
  try {
    const require = createRequire(import.meta.url);
    const cliPackage = require.resolve('@napi-rs/cli/package.json');
    const { bin } = require(cliPackage);
    napiBin = join(dirname(cliPackage), typeof bin === 'string' ? bin : bin.napi);
  } catch {
    finish(false, '@napi-rs/cli is not installed (it is a devDependency: run `npm ci`)');
  }
  const started = Date.now();
  const napi = spawnSync(
    process.execPath,
    [
      napiBin,
      'build',
      '--platform',
      '--release',
      '--no-js',
      '--manifest-path',
      join(crateDir, 'Cargo.toml'),
      '--package-json-path',
      join(crateDir, '..', 'package.json'),
      '--output-dir',
      prebuildsDir,
    ],
    { stdio: 'inherit', env: { ...process.env, CARGO_NET_OFFLINE: 'true' } },
  );
  if (napi.status !== 0) finish(false, `napi build failed (exit ${napi.status ?? napi.signal})`);
  const built = listPrebuilds().filter((path) => statSync(path).mtimeMs >= started - 1000);
  if (built.length !== 1) finish(false, `napi build left ${built.length} new prebuilds in ${prebuildsDir}`);
  const check = loadCheck(built[0]);
  if (!check.ok) {
    rmSync(built[0], { force: true });
    finish(false, `the prebuild does not load: ${check.error}`);
  }
  finish(true, `built the prebuild ${built[0]} (SHA-256: ${check.backend})`);
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

const check = loadCheck(output);
if (!check.ok) {
  rmSync(output, { force: true });
  finish(false, `the built addon does not load: ${check.error}`);
}
finish(true, `built ${output} (SHA-256: ${check.backend})`);
