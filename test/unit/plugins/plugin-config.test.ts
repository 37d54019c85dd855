import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/config-error.js';
import { readPluginEntries } from '../../../src/plugins/plugin-config.js';
import { absolutePluginPaths } from '../../../src/config/plugin-paths.js';

describe('readPluginEntries', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'basalt-plugin-config-'));
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'a.mjs'), 'export default {};\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('resolves relative paths against the base directory and hands the other keys over as options', () => {
    const { entries, warnings } = readPluginEntries({ feed: { path: './sub/a.mjs', size: 3, nested: { x: true } } }, dir);
    expect(warnings).toEqual([]);
    expect(entries).toEqual([{ name: 'feed', path: join(dir, 'sub', 'a.mjs'), options: { size: 3, nested: { x: true } } }]);
  });

  it('keeps absolute paths and the config order', () => {
    const absolute = join(dir, 'sub', 'a.mjs');
    const { entries } = readPluginEntries({ second: { path: absolute }, first: { path: 'sub/a.mjs' } }, dir);
    expect(entries.map((entry) => [entry.name, entry.path])).toEqual([
      ['second', absolute],
      ['first', absolute],
    ]);
  });

  it('expands ~ to the home directory', () => {
    expect(() => readPluginEntries({ home: { path: '~/surely-not-a-basalt-plugin-file.js' } }, dir)).toThrow(
      `.plugins.home.path: "~/surely-not-a-basalt-plugin-file.js" not found (looked at ${join(homedir(), 'surely-not-a-basalt-plugin-file.js')})`,
    );
  });

  it('skips entries without a path (settings of Lisk Core plugins) with a warning', () => {
    const { entries, warnings } = readPluginEntries({ reportMisbehavior: { encryptedPassphrase: 'x' } }, dir);
    expect(entries).toEqual([]);
    expect(warnings).toEqual([
      '.plugins.reportMisbehavior has no "path": Basalt only runs plugins it can load from a file; the entry is ignored.',
    ]);
  });

  it('treats a missing or empty section as no plugins', () => {
    expect(readPluginEntries(undefined, dir)).toEqual({ entries: [], builtIns: [], warnings: [] });
    expect(readPluginEntries(null, dir)).toEqual({ entries: [], builtIns: [], warnings: [] });
    expect(readPluginEntries({}, dir)).toEqual({ entries: [], builtIns: [], warnings: [] });
  });

  it.each([
    [[], '.plugins: must be an object'],
    ['x', '.plugins: must be an object'],
    [{ feed: 'x' }, '.plugins.feed: must be an object'],
    [{ feed: [] }, '.plugins.feed: must be an object'],
    [{ feed: null }, '.plugins.feed: must be an object'],
    [
      { 'my-feed': { path: 'sub/a.mjs' } },
      ".plugins.my-feed: a plugin name must be letters and digits, starting with a letter (it is the plugin's RPC namespace)",
    ],
    [
      { '1feed': { path: 'sub/a.mjs' } },
      ".plugins.1feed: a plugin name must be letters and digits, starting with a letter (it is the plugin's RPC namespace)",
    ],
    [{ feed: { path: 3 } }, '.plugins.feed.path: must be a non-empty string'],
    [{ feed: { path: '' } }, '.plugins.feed.path: must be a non-empty string'],
  ])('refuses %j', (section, message) => {
    let thrown: unknown;
    try {
      readPluginEntries(section, dir);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as Error).message).toBe(message);
  });

  it('names the missing file and where it looked', () => {
    expect(() => readPluginEntries({ feed: { path: './nope.js' } }, dir)).toThrow(
      `.plugins.feed.path: "./nope.js" not found (looked at ${join(dir, 'nope.js')})`,
    );
  });
});

describe('absolutePluginPaths', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'basalt-plugin-paths-'));
    mkdirSync(join(dir, 'b'));
    writeFileSync(join(dir, 'b', 'p.js'), '');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('replaces each path by the first existing candidate and keeps the options', () => {
    const asked: [string, string][] = [];
    const result = absolutePluginPaths({ feed: { path: './p.js', size: 2 } }, (name, path) => {
      asked.push([name, path]);
      return [join(dir, 'a', path), join(dir, 'b', path)];
    });
    expect(asked).toEqual([['feed', './p.js']]);
    expect(result).toEqual({ feed: { path: join(dir, 'b', 'p.js'), size: 2 } });
  });

  it('keeps entries it cannot resolve unchanged, for the loader to report', () => {
    const section = { missing: { path: './none.js' }, noPath: { x: 1 }, odd: 'text', empty: { path: '' } };
    expect(absolutePluginPaths(section, () => [join(dir, 'none.js')])).toEqual(section);
  });

  it('does not modify its input', () => {
    const section = { feed: { path: './p.js' } };
    absolutePluginPaths(section, () => [join(dir, 'b', 'p.js')]);
    expect(section).toEqual({ feed: { path: './p.js' } });
  });
});
