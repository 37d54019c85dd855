/** The package's library entry (src/index.ts) exposes the protocol core under stable names. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as basalt from '../../src/index.js';
import { version } from '../../src/version.js';

describe('library entry', () => {
  it('exports the codec, crypto, merkle and chain rooms', () => {
    for (const name of [
      'codec',
      'validate',
      'sha256',
      'verifyData',
      'encodeLisk32',
      'merkleRoot',
      'SparseMerkleTree',
      'Block',
      'BlockHeader',
      'Transaction',
      'computeValidatorsHash',
      'areHeadersContradicting',
    ]) {
      expect(basalt, name).toHaveProperty(name);
    }
    const root = basalt.merkleRoot([
      Buffer.from('01', 'hex'),
      Buffer.from('02', 'hex'),
      Buffer.from('03', 'hex'),
      Buffer.from('04', 'hex'),
      Buffer.from('05', 'hex'),
    ]);
    expect(root.toString('hex')).toBe('b2165c86fbfb34fa51840bb6ba3d5ce0d7dc31f2e605b5ba62c98fa86ff6746d');
  });

  it('reports the version of package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(version).toBe(pkg.version);
  });
});

describe('package exports', () => {
  it('name the built library and plugin entries, each with its declarations', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      exports: Record<string, { types: string; import: string }>;
    };
    // The build maps src/X.ts to dist/X.js and dist/X.d.ts (build.config.ts).
    expect(pkg.exports['.']).toEqual({ types: './dist/index.d.ts', import: './dist/index.js' });
    expect(pkg.exports['./plugins']).toEqual({ types: './dist/plugins/index.d.ts', import: './dist/plugins/index.js' });
    for (const entry of ['.', './plugins']) {
      const source = (pkg.exports[entry] as { import: string }).import.replace('./dist/', '../../src/').replace(/\.js$/, '.ts');
      expect(() => readFileSync(new URL(source, import.meta.url)), source).not.toThrow();
    }
  });
});
