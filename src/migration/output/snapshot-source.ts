/**
 * Offline mode's v3 database: a directory that is the database, a `.tar.gz` of it, or a URL of
 * such an archive with its `<url>.SHA256` beside it (lisk-migrator 2.0.1 `src/utils/download.ts`,
 * `src/utils/path.ts` `resolveSnapshotPath`). An archive is extracted into a folder of its own
 * (emptied first) and its first entry, in name order, is the database.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MigrationError } from '../migration-error.js';
import { extractTarGz } from '../../archive/tar.js';

/** The folder, inside the output directory, that archives are extracted into. */
export const SNAPSHOT_EXTRACT_DIR = 'v3-snapshot';

/** The migrator's rule for `--snapshot-url`, with its message. */
export function checkSnapshotUrl(url: string): void {
  if (!url.startsWith('http') || !url.endsWith('tar.gz')) {
    throw new MigrationError(
      'MIGRATION_SNAPSHOT_URL',
      `Expected --snapshot-url to begin with http(s) and end with 'tar.gz' instead received ${url}.`,
    );
  }
}

/** The file name a download is saved under: the URL's last path segment. */
export function downloadedFileName(url: string): string {
  return url
    .replace(/^\w+:\/\//, '')
    .split('/')
    .pop() as string;
}

async function download(url: string, target: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, { redirect: 'follow' });
  } catch (error) {
    throw new MigrationError('MIGRATION_SNAPSHOT_DOWNLOAD', `Cannot download ${url}: ${(error as Error).message}`, undefined, {
      cause: error,
    });
  }
  if (!response.ok || response.body === null) {
    throw new MigrationError('MIGRATION_SNAPSHOT_DOWNLOAD', `Cannot download ${url}: HTTP ${response.status}.`);
  }
  rmSync(target, { force: true });
  await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), createWriteStream(target));
}

export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Downloads `<url>` and `<url>.SHA256` into `dir` and checks the archive against the first word
 * of the checksum file (`sha256sum` format), with the migrator's message on a mismatch. Returns
 * the archive's path.
 */
export async function downloadSnapshot(url: string, dir: string): Promise<string> {
  checkSnapshotUrl(url);
  mkdirSync(dir, { recursive: true });
  const archive = join(dir, downloadedFileName(url));
  await download(url, archive);
  await download(`${url}.SHA256`, `${archive}.SHA256`);
  const expected = readFileSync(`${archive}.SHA256`, 'utf8').trim().split(/\s+/)[0] ?? '';
  const actual = await sha256OfFile(archive);
  if (actual !== expected) {
    throw new MigrationError('MIGRATION_SNAPSHOT_CHECKSUM', `File checksum: ${actual} mismatched with expected checksum: ${expected}`);
  }
  return archive;
}

/**
 * Extracts a snapshot archive into `extractDir` (emptied first) and returns the database
 * directory: the first entry of `extractDir` in name order.
 */
export async function extractSnapshot(archive: string, extractDir: string): Promise<string> {
  rmSync(extractDir, { recursive: true, force: true });
  mkdirSync(extractDir, { recursive: true });
  try {
    await extractTarGz(archive, extractDir);
  } catch (error) {
    throw new MigrationError('MIGRATION_SNAPSHOT_ARCHIVE', `Cannot extract ${archive}: ${(error as Error).message}`, undefined, {
      cause: error,
    });
  }
  const [first] = readdirSync(extractDir).sort();
  if (first === undefined) throw new MigrationError('MIGRATION_SNAPSHOT_ARCHIVE', `The snapshot archive ${archive} is empty.`);
  return join(extractDir, first);
}
