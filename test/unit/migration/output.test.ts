import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { genesisOutputFiles, writeOutputFiles } from '../../../src/migration/output/output-files.js';
import { outputDirectory, resolveMigrationPath, verifyOutputPath } from '../../../src/migration/output/output-path.js';
import { checkSnapshotUrl, downloadSnapshot, extractSnapshot } from '../../../src/migration/output/snapshot-source.js';
import { extractTarGz, tarOneFile } from '../../../src/archive/tar.js';
import { GENESIS_OUTPUT_FILES, MIGRATION_FIXTURES, migrationFixturesPresent } from './migration-fixtures.js';

const work = mkdtempSync(join(tmpdir(), 'basalt-migration-output-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('output path rule', () => {
  const home = '/home/op';
  it('refuses anything that string-starts with ~/.lisk/lisk-core, with the migrator message', () => {
    for (const given of ['~/.lisk/lisk-core', '~/.lisk/lisk-core/config/mainnet', '/home/op/.lisk/lisk-core-v3/out']) {
      expect(() => verifyOutputPath(given, '/srv', home)).toThrow(
        `Output path '${given}' is not allowed. Please restart the migrator with a different output path.`,
      );
    }
    expect(() => verifyOutputPath('./out', '/home/op/.lisk', home)).not.toThrow();
    expect(() => verifyOutputPath('lisk-core', '/home/op/.lisk', home)).toThrow();
  });

  it('resolves ~ and relative paths and defaults to ./output/<label>', () => {
    expect(resolveMigrationPath('~/x', '/srv', home)).toBe('/home/op/x');
    expect(resolveMigrationPath('x/y', '/srv', home)).toBe('/srv/x/y');
    expect(outputDirectory(undefined, 'mainnet', '/srv', home)).toBe('/srv/output/mainnet');
    expect(outputDirectory('~/mig', 'mainnet', '/srv', home)).toBe('/home/op/mig');
  });
});

describe('output files', () => {
  it('writes the genesis files with checksums (no newline), tarballs system tar reads, and the blob with mode 0600', () => {
    const dir = join(work, 'out');
    const blob = Buffer.from('00ff'.repeat(300), 'hex');
    writeOutputFiles(
      dir,
      genesisOutputFiles({ genesisAssetsJson: '{"assets":[]}', genesisBlock: blob, genesisBlockJson: '{"header":{}}' }),
    );
    expect(readdirSync(dir).sort()).toEqual(GENESIS_OUTPUT_FILES);
    expect(statSync(join(dir, 'genesis_block.blob')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, 'genesis_block.blob.SHA256'), 'utf8')).toBe(createHash('sha256').update(blob).digest('hex'));
    const tarball = readFileSync(join(dir, 'genesis_block.blob.tar.gz'));
    expect(readFileSync(join(dir, 'genesis_block.blob.tar.gz.SHA256'), 'utf8')).toBe(createHash('sha256').update(tarball).digest('hex'));
    const listed = join(work, 'listed');
    mkdirSync(listed);
    execFileSync('tar', ['xzf', join(dir, 'genesis_block.blob.tar.gz'), '-C', listed]);
    expect(readFileSync(join(listed, 'genesis_block.blob'))).toEqual(blob);
    expect(execFileSync('tar', ['tzf', join(dir, 'genesis_block.json.tar.gz')], { encoding: 'utf8' })).toBe('genesis_block.json\n');
  });

  it('pads the archive to whole records and ends it with two zero records', () => {
    const tar = tarOneFile('a', Buffer.from('x'), { mtime: new Date(0) });
    expect(tar.length).toBe(512 * 4);
    expect(gunzipSync(readFileSync(join(work, 'out', 'genesis_block.json.tar.gz'))).length % 512).toBe(0);
  });
});

describe('snapshot archives', () => {
  it('extracts what GNU tar writes (directories, long names, empty files) and picks the first entry', async () => {
    const source = join(work, 'src');
    const long = 'd'.repeat(120);
    mkdirSync(join(source, 'blockchain.db', long), { recursive: true });
    writeFileSync(join(source, 'blockchain.db', 'CURRENT'), 'MANIFEST-000001\n');
    writeFileSync(join(source, 'blockchain.db', long, 'f'.repeat(90)), Buffer.alloc(70_000, 7));
    writeFileSync(join(source, 'blockchain.db', 'LOCK'), '');
    const archive = join(work, 'blockchain.db.tar.gz');
    execFileSync('tar', ['czf', archive, '-C', source, 'blockchain.db']);
    const extractDir = join(work, 'extract');
    mkdirSync(extractDir);
    writeFileSync(join(extractDir, 'aaa-stale'), 'emptied first');
    const db = await extractSnapshot(archive, extractDir);
    expect(db).toBe(join(extractDir, 'blockchain.db'));
    expect(readFileSync(join(db, 'CURRENT'), 'utf8')).toBe('MANIFEST-000001\n');
    expect(readFileSync(join(db, long, 'f'.repeat(90)))).toEqual(Buffer.alloc(70_000, 7));
    expect(readFileSync(join(db, 'LOCK'), 'utf8')).toBe('');
  });

  it('refuses entries that escape the extraction directory and archives that are not tar', async () => {
    const dir = join(work, 'evil');
    mkdirSync(dir);
    const bad = tarOneFile('x', Buffer.from('y'));
    bad.write('../escape\0', 0, 'ascii');
    // Recompute the checksum so only the name is wrong.
    bad.fill(0x20, 148, 156);
    let sum = 0;
    for (const byte of bad.subarray(0, 512)) sum += byte;
    bad.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'ascii');
    writeFileSync(join(work, 'evil.tar.gz'), (await import('node:zlib')).gzipSync(bad));
    await expect(extractTarGz(join(work, 'evil.tar.gz'), dir)).rejects.toThrow(/outside the extraction directory/);
    writeFileSync(join(work, 'junk.tar.gz'), (await import('node:zlib')).gzipSync(Buffer.alloc(1024, 1)));
    await expect(extractTarGz(join(work, 'junk.tar.gz'), dir)).rejects.toThrow(/bad header checksum/);
  });

  it.skipIf(!migrationFixturesPresent)('extracts a real Lisk Core 3 data directory tarball like tar does', async () => {
    const archive = join(MIGRATION_FIXTURES, 'dev', 'lisk-core-3.0.3-devnet-h59.tgz');
    const dir = join(work, 'real');
    const db = await extractSnapshot(archive, dir);
    expect(db).toBe(join(dir, 'data'));
    const expected = execFileSync('tar', ['tzf', archive], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line !== '' && !line.endsWith('/'));
    for (const file of expected) expect(statSync(join(dir, file)).isFile()).toBe(true);
  });
});

describe('snapshot download', () => {
  let server: Server;
  let base: string;
  const archiveBytes = Buffer.from('pretend archive');
  const files = new Map<string, Buffer | string>();
  beforeAll(async () => {
    files.set('/ok/blockchain.db.tar.gz', archiveBytes);
    files.set('/ok/blockchain.db.tar.gz.SHA256', `${createHash('sha256').update(archiveBytes).digest('hex')}  blockchain.db.tar.gz\n`);
    files.set('/bad/blockchain.db.tar.gz', archiveBytes);
    files.set('/bad/blockchain.db.tar.gz.SHA256', `${'0'.repeat(64)}\n`);
    server = createServer((request, response) => {
      const body = files.get(request.url ?? '');
      response.writeHead(body === undefined ? 404 : 200);
      response.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('checks the URL shape with the migrator message', () => {
    expect(() => checkSnapshotUrl('ftp://x/a.tar.gz')).toThrow(
      "Expected --snapshot-url to begin with http(s) and end with 'tar.gz' instead received ftp://x/a.tar.gz.",
    );
    expect(() => checkSnapshotUrl('https://x/a.zip')).toThrow(/instead received https:\/\/x\/a\.zip\./);
  });

  it('downloads the archive and its .SHA256 and verifies it', async () => {
    const dir = join(work, 'dl-ok');
    const archive = await downloadSnapshot(`${base}/ok/blockchain.db.tar.gz`, dir);
    expect(readFileSync(archive)).toEqual(archiveBytes);
    expect(readdirSync(dir).sort()).toEqual(['blockchain.db.tar.gz', 'blockchain.db.tar.gz.SHA256']);
  });

  it('refuses a mismatching checksum with the migrator message, and a missing file', async () => {
    const actual = createHash('sha256').update(archiveBytes).digest('hex');
    await expect(downloadSnapshot(`${base}/bad/blockchain.db.tar.gz`, join(work, 'dl-bad'))).rejects.toThrow(
      `File checksum: ${actual} mismatched with expected checksum: ${'0'.repeat(64)}`,
    );
    await expect(downloadSnapshot(`${base}/missing/blockchain.db.tar.gz`, join(work, 'dl-missing'))).rejects.toThrow(/HTTP 404/);
  });
});
