/**
 * The reader of an operator's Lisk Core 1.x–3.x config (docs/protocol/legacy-forging-api.md): the
 * three layouts, defaults, and errors that name the place but never the secret.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encryptPassphraseV3 } from '../../../src/crypto/passphrase-v3.js';
import { LegacyConfigError, parseLegacyConfig, readLegacyConfig } from '../../../src/legacy-api/legacy-config.js';

// The keys.md example encryptedPassphrase (password "password" → "some passphrase").
const ENCRYPTED =
  'iterations=1000000&cipherText=86206bab954e7c4a4be30ffe6a56dd&iv=95f5611522278829623079cb&salt=e3c1f8580b6c1b41b610eb24ca61c52f&tag=681a67787312999aa824559a804ec398&version=1';
const PK = 'ab'.repeat(32);
const dir = mkdtempSync(join(tmpdir(), 'basalt-legacy-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('parseLegacyConfig', () => {
  it('reads a 1.x config: forging.delegates, forging.access.whiteList, api.access', () => {
    const config = parseLegacyConfig({
      forging: {
        delegates: [{ publicKey: PK.toUpperCase(), encryptedPassphrase: ENCRYPTED }],
        access: { whiteList: ['127.0.0.1', '10.0.0.1'] },
      },
      api: { access: { public: true, whiteList: [] } },
    });
    expect(config.delegates).toEqual([{ publicKey: PK, encryptedPassphrase: ENCRYPTED }]);
    expect(config.forgingWhiteList).toEqual(['127.0.0.1', '10.0.0.1']);
    expect(config.apiAccess).toEqual({ public: true, whiteList: [] });
  });

  it('reads a 2.x config: modules.chain.forging and modules.http_api', () => {
    const config = parseLegacyConfig({
      modules: {
        chain: { forging: { delegates: [{ publicKey: PK, encryptedPassphrase: ENCRYPTED }] } },
        http_api: { access: { public: false, whiteList: ['10.0.0.0/8'] }, forging: { access: { whiteList: ['10.1.1.1'] } } },
      },
    });
    expect(config.delegates).toHaveLength(1);
    expect(config.apiAccess).toEqual({ public: false, whiteList: ['10.0.0.0/8'] });
    expect(config.forgingWhiteList).toEqual(['10.1.1.1']);
  });

  it('reads a 3.x entry with a hex address and a hash onion; defaults the whitelists to localhost', () => {
    const hashOnion = { count: 1000, distance: 100, hashes: ['aa'.repeat(16), 'bb'.repeat(16)] };
    const config = parseLegacyConfig({ forging: { delegates: [{ address: 'CD'.repeat(20), encryptedPassphrase: ENCRYPTED, hashOnion }] } });
    expect(config.delegates).toEqual([{ address: 'cd'.repeat(20), encryptedPassphrase: ENCRYPTED, hashOnion }]);
    expect(config.forgingWhiteList).toEqual(['127.0.0.1']);
    expect(config.apiAccess).toEqual({ public: false, whiteList: ['127.0.0.1'] });
  });

  it('keeps defaultPassword only for forced forging with delegates (forced forging)', () => {
    const delegates = [{ publicKey: PK, encryptedPassphrase: ENCRYPTED }];
    expect(parseLegacyConfig({ forging: { force: true, defaultPassword: 'pw123', delegates } }).defaultPassword).toBe('pw123');
    expect(
      parseLegacyConfig({ modules: { chain: { forging: { force: true, defaultPassword: 'pw123', delegates } } } }).defaultPassword,
    ).toBe('pw123');
    expect(parseLegacyConfig({ forging: { force: false, defaultPassword: 'pw123', delegates } }).defaultPassword).toBeUndefined();
    expect(parseLegacyConfig({ forging: { force: true, defaultPassword: 'pw123', delegates: [] } }).defaultPassword).toBeUndefined();
  });

  it('has no delegates when none are configured', () => {
    expect(parseLegacyConfig({}).delegates).toEqual([]);
  });

  it('refuses bad entries with the path, never the value', () => {
    const bad = (delegate: unknown): string => {
      try {
        parseLegacyConfig({ forging: { delegates: [delegate] } }, 'cfg');
      } catch (error) {
        expect(error).toBeInstanceOf(LegacyConfigError);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(bad({ encryptedPassphrase: ENCRYPTED })).toBe('cfg: .forging.delegates[0] needs a publicKey or an address.');
    expect(bad({ publicKey: 'abc', encryptedPassphrase: ENCRYPTED })).toContain('.forging.delegates[0].publicKey must be 64 hex');
    expect(bad({ address: 'abc', encryptedPassphrase: ENCRYPTED })).toContain('.address must be 40 hex');
    expect(bad({ publicKey: PK })).toContain('.encryptedPassphrase must be a string');
    const secret = 'cipherText=secretsecret&version=1';
    const message = bad({ publicKey: PK, encryptedPassphrase: secret });
    expect(message).toContain('is not a Lisk Core encryptedPassphrase');
    expect(message).not.toContain('secretsecret');
    expect(bad({ address: 'cd'.repeat(20), encryptedPassphrase: ENCRYPTED, hashOnion: { count: 0, distance: 1, hashes: [] } })).toContain(
      '.hashOnion.count must be an integer',
    );
    expect(() => parseLegacyConfig({ forging: { delegates: {} } }, 'cfg')).toThrow('cfg: .forging.delegates must be an array.');
    expect(() => parseLegacyConfig([], 'cfg')).toThrow(LegacyConfigError);
  });
});

describe('readLegacyConfig', () => {
  it('reads a file written with encryptPassphraseV3', () => {
    const file = join(dir, 'ok.json');
    const encrypted = encryptPassphraseV3('a passphrase', 'password', { iterations: 10 });
    writeFileSync(file, JSON.stringify({ forging: { delegates: [{ publicKey: PK, encryptedPassphrase: encrypted }] } }));
    expect(readLegacyConfig(file).delegates[0]?.encryptedPassphrase).toBe(encrypted);
  });

  it('names a missing file and a non-JSON file without quoting its text', () => {
    expect(() => readLegacyConfig(join(dir, 'missing.json'))).toThrow(/Cannot read the legacy forging config .*missing\.json: ENOENT/);
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{"forging": {"delegates": [{"encryptedPassphrase": "topsecret" ');
    let message = '';
    try {
      readLegacyConfig(file);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(`The legacy forging config ${file} is not valid JSON.`);
  });
});
