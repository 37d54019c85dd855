/**
 * One schema for keys.json, shared by the node's start-up check (`generator.keys.fromFile`) and
 * the keys:* commands: a file passes both readers or neither.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { afterAll, describe, expect, it } from 'vitest';
import { readKeysFile } from '../../../src/cli/support/keys-file.js';
import { validationErrors } from '../../../src/codec/index.js';
import { checkGeneratorKeysFile } from '../../../src/config/generator-keys-file.js';
import { keysFileSchema } from '../../../src/config/keys-file-entry.js';
import { importGeneratorKeysFile } from '../../../src/engine/generator/generator-keys-import.js';
import { GeneratorStore } from '../../../src/engine/generator/generator-store.js';
import { fixturePath } from '../../support/fixtures.js';

// lisk-sdk's examples/pos-mainchain/config/default/dev-validators.json: plaintext keys, each entry
// with an empty `encrypted` object.
const LISK_DEV_VALIDATORS = fixturePath('genesis/pos-mainchain-default/dev-validators.json');

const root = mkdtempSync(join(tmpdir(), 'basalt-keys-schema-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let counter = 0;
function writeKeysFile(value: unknown): string {
  counter += 1;
  const path = join(root, `keys-${counter}.json`);
  writeFileSync(path, JSON.stringify(value));
  return path;
}

/** Whether each reader accepts the file: [start-up check, keys:* commands]. */
function acceptedBy(path: string): [boolean, boolean] {
  const passes = (read: () => unknown): boolean => {
    try {
      read();
      return true;
    } catch {
      return false;
    }
  };
  return [passes(() => checkGeneratorKeysFile(path)), passes(() => readKeysFile(path))];
}

const liskFile = JSON.parse(readFileSync(LISK_DEV_VALIDATORS, 'utf8')) as { keys: Record<string, unknown>[] };
const liskEntry = liskFile.keys[0] as Record<string, unknown> & { plain: Record<string, unknown> };

describe('keys.json schema', () => {
  it("accepts lisk-sdk's dev-validators.json (empty encrypted objects, plaintext keys)", () => {
    expect(liskFile.keys).toHaveLength(103);
    expect(liskEntry.encrypted).toEqual({});
    expect(validationErrors(keysFileSchema, liskFile)).toEqual([]);
    expect(checkGeneratorKeysFile(LISK_DEV_VALIDATORS)).toBe(103);
    expect(readKeysFile(LISK_DEV_VALIDATORS).keys).toHaveLength(103);
  });

  it('lets the generator load every validator of that file as plain keys', () => {
    const env = open({ path: join(root, 'generator-db') });
    try {
      const keypairs = importGeneratorKeysFile(LISK_DEV_VALIDATORS, new GeneratorStore(env));
      expect(keypairs).toHaveLength(103);
    } finally {
      env.close();
    }
  });

  it('gives both readers the same answer', () => {
    const cases: [string, unknown][] = [
      ['a Lisk file', liskFile],
      ['a short generator key', { keys: [{ ...liskEntry, plain: { ...liskEntry.plain, generatorKey: 'abcd' } }] }],
      ['a public key of the wrong length', { keys: [{ ...liskEntry, publicKey: 'abcd' }] }],
      ['an entry without keys', { keys: [{ address: liskEntry.address }] }],
      ['only encrypted keys', { keys: [{ address: liskEntry.address, encrypted: { version: '1' } }] }],
      ['an invalid address', { keys: [{ ...liskEntry, address: 'lsk-not-an-address' }] }],
      ['no keys array', { validators: [] }],
    ];
    const answers = cases.map(([what, value]) => [what, acceptedBy(writeKeysFile(value))] as const);
    for (const [what, [atStartUp, byCommands]] of answers) expect(byCommands, what).toBe(atStartUp);
    expect(answers.filter(([, [accepted]]) => accepted).map(([what]) => what)).toEqual(['a Lisk file', 'only encrypted keys']);
  });
});
