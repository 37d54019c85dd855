/**
 * The shared tar writer and reader (src/archive/tar.ts): directories and files streamed from disk
 * into an archive the system's tar reads, and extraction that vets every entry (names normalized
 * before the caller sees them, links skipped or refused, nothing written for a refused entry).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArchiveError } from '../../../src/archive/archive-error.js';
import { extractTarGz, writeTarGz, type ExtractEntry } from '../../../src/archive/tar.js';

describe('src/archive/tar', () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'basalt-tar-'));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('streams directories and files into an archive that GNU tar and the reader both read back', async () => {
    const source = join(work, 'source');
    mkdirSync(source);
    const big = Buffer.alloc(3 * 2 ** 20 + 7);
    for (let index = 0; index < big.length; index += 1) big[index] = (index * 31) & 0xff;
    writeFileSync(join(source, 'store'), big);
    writeFileSync(join(source, 'empty'), '');
    const archive = join(work, 'out.tar.gz');
    const bytes = await writeTarGz(archive, [
      { name: 'store', path: join(source, 'store') },
      { name: 'dir' },
      { name: 'dir/empty', path: join(source, 'empty') },
    ]);
    expect(bytes).toBe(readFileSync(archive).length);
    expect(execFileSync('tar', ['tzf', archive], { encoding: 'utf8' })).toBe('store\ndir/\ndir/empty\n');

    const byTar = join(work, 'by-tar');
    mkdirSync(byTar);
    execFileSync('tar', ['xzf', archive, '-C', byTar]);
    expect(readFileSync(join(byTar, 'store')).equals(big)).toBe(true);

    const byReader = join(work, 'by-reader');
    mkdirSync(byReader);
    const seen: ExtractEntry[] = [];
    expect(await extractTarGz(archive, byReader, { admit: (entry) => seen.push(entry) })).toBe(2);
    expect(seen).toEqual([
      { name: 'store', type: 'file', size: big.length },
      { name: 'dir', type: 'directory', size: 0 },
      { name: 'dir/empty', type: 'file', size: 0 },
    ]);
    expect(readFileSync(join(byReader, 'store')).equals(big)).toBe(true);
    await expect(writeTarGz(join(work, 'long.tar.gz'), [{ name: 'x'.repeat(101), path: join(source, 'empty') }])).rejects.toThrow(
      /at most 100 bytes/,
    );
  });

  it('skips links by default, refuses them when asked, and writes nothing for an entry the caller refuses', async () => {
    const source = join(work, 'links');
    mkdirSync(source);
    writeFileSync(join(source, 'file'), 'content');
    symlinkSync('/etc/hostname', join(source, 'link'));
    const archive = join(work, 'links.tar.gz');
    // "./" names, as `tar -C dir .` writes them: the caller sees them normalized.
    execFileSync('tar', ['czf', archive, '-C', source, './link', './file']);

    const skipped = join(work, 'skipped');
    mkdirSync(skipped);
    expect(await extractTarGz(archive, skipped)).toBe(1);
    expect(readdirSync(skipped)).toEqual(['file']);

    const refused = join(work, 'refused');
    mkdirSync(refused);
    const error = await extractTarGz(archive, refused, { links: 'refuse' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ArchiveError);
    expect((error as ArchiveError).code).toBe('ERR_ARCHIVE_LINK');
    expect(readdirSync(refused)).toEqual([]);

    const vetted = join(work, 'vetted');
    mkdirSync(vetted);
    const names: string[] = [];
    const admit = ({ name }: ExtractEntry): void => {
      names.push(name);
      throw new ArchiveError('ERR_ARCHIVE_CONTENT', `no ${name}`);
    };
    await expect(extractTarGz(archive, vetted, { admit })).rejects.toThrow('no file');
    expect(names).toEqual(['file']);
    expect(readdirSync(vetted)).toEqual([]);
  });
});
