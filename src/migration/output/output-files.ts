/**
 * Writing the migration's files. Nothing is written until the migration has succeeded, and each
 * file goes to a temporary name in the output directory first and is then renamed, so an
 * interrupted run never leaves a file that looks complete. The set follows lisk-migrator 2.0.1:
 * the genesis block (blob, mode 0600, and JSON), a SHA-256 file for each (lowercase hex, no
 * newline), a one-file `.tar.gz` of each with its own SHA-256 file, and the assets.
 */
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, gzipSync } from 'node:zlib';
import { tarOneFile } from '../../archive/tar.js';

export interface OutputFile {
  readonly name: string;
  readonly content: string | Uint8Array;
  /** File mode; default 0644. */
  readonly mode?: number;
}

export function sha256Hex(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}

/** Writes `content` to `<dir>/<name>` through a temporary file and a rename. */
export function writeFileAtomically(dir: string, file: OutputFile): string {
  mkdirSync(dir, { recursive: true });
  const target = join(dir, file.name);
  const temporary = join(dir, `.${file.name}.${process.pid}.tmp`);
  try {
    writeFileSync(temporary, file.content, { mode: file.mode ?? 0o644 });
    // The umask may have narrowed the mode; the blob's 0600 must be exact either way.
    chmodSync(temporary, file.mode ?? 0o644);
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  return target;
}

/**
 * Gzip level of the tarballs. lisk-migrator's node-tar uses zlib's default (6); nothing reads the
 * archives but tar, which does not care, and their bytes hold an mtime, so they never matched
 * byte for byte anyway. The fastest level compresses the genesis block (tens of MB of hex at
 * mainnet scale) several times faster for archives about a fifth larger.
 */
const TARBALL_GZIP_LEVEL = constants.Z_BEST_SPEED;

/** A file, its `.SHA256`, its one-file `.tar.gz` and that archive's `.SHA256`. */
export function withChecksumAndTarball(file: OutputFile, mtime = new Date()): OutputFile[] {
  // A text is encoded once here, not again by the hash, the archive and the write.
  const content = typeof file.content === 'string' ? Buffer.from(file.content, 'utf8') : file.content;
  const tarball = gzipSync(tarOneFile(file.name, content, { mode: file.mode ?? 0o644, mtime }), { level: TARBALL_GZIP_LEVEL });
  return [
    { ...file, content },
    { name: `${file.name}.SHA256`, content: sha256Hex(content) },
    { name: `${file.name}.tar.gz`, content: tarball },
    { name: `${file.name}.tar.gz.SHA256`, content: sha256Hex(tarball) },
  ];
}

export const GENESIS_ASSETS_FILE = 'genesis_assets.json';
export const GENESIS_BLOCK_BLOB_FILE = 'genesis_block.blob';
export const GENESIS_BLOCK_JSON_FILE = 'genesis_block.json';

/** The genesis files of a migration, in the order they are written. */
export function genesisOutputFiles(result: {
  genesisAssetsJson: string;
  genesisBlock: Uint8Array;
  genesisBlockJson: string;
}): OutputFile[] {
  return [
    { name: GENESIS_ASSETS_FILE, content: result.genesisAssetsJson },
    ...withChecksumAndTarball({ name: GENESIS_BLOCK_BLOB_FILE, content: result.genesisBlock, mode: 0o600 }),
    ...withChecksumAndTarball({ name: GENESIS_BLOCK_JSON_FILE, content: result.genesisBlockJson }),
  ];
}

/** Writes every file; returns their paths. */
export function writeOutputFiles(dir: string, files: readonly OutputFile[]): string[] {
  return files.map((file) => writeFileAtomically(dir, file));
}
