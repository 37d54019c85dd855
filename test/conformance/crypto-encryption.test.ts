/**
 * Conformance: crypto/encrypted_message_vectors.json.
 * v4 (EncryptedMessageObject): decrypt the object and the parsed string, parse/stringify round
 * trip, byte-exact re-encryption with the vector's salt/IV/KDF parameters, wrong password.
 * v3 (Core 3.x encryptedPassphrase): decrypt, parse, byte-exact re-encryption, wrong password.
 * The vector with the default argon2 memory (≈2 GiB, ~10 s per derivation here) runs in its own
 * test with a long timeout; it skips only the re-encryption (a fourth 2 GiB derivation that the
 * five light vectors already cover).
 */
import { describe, expect, it } from 'vitest';
import {
  ARGON2_DEFAULT_MEMORY_SIZE,
  decryptMessageWithPassword,
  decryptPassphraseV3,
  encryptMessageWithPassword,
  encryptPassphraseV3,
  parseEncryptedMessage,
  parseEncryptedPassphraseV3,
  stringifyEncryptedMessage,
  type EncryptedMessageObject,
} from '../../src/crypto/index.js';
import { DecryptionError } from '../../src/errors.js';
import { caseCounter } from '../support/conformance-tally.js';
import { hex, loadJsonFixture } from '../support/fixtures.js';

interface V4Vector {
  description: string;
  password: string;
  plaintextHex: string;
  encryptedMessage: EncryptedMessageObject;
  stringified: string;
  wrongPasswordError?: string;
}

interface V3Vector {
  description: string;
  password: string;
  plaintext: string;
  encryptedPassphraseObject: { iterations: number; cipherText: string; iv: string; salt: string; tag: string; version: string };
  encryptedPassphrase: string;
}

const FILE = 'crypto/encrypted_message_vectors.json';
const fixture = loadJsonFixture<{ v4: V4Vector[]; v3: V3Vector[] }>(FILE);
const WRONG_PASSWORD = 'definitely not the password';

function isHeavy(vector: V4Vector): boolean {
  return vector.encryptedMessage.kdf === 'argon2id' && vector.encryptedMessage.kdfparams.memorySize >= ARGON2_DEFAULT_MEMORY_SIZE;
}

async function expectWrongPasswordFails(encrypted: EncryptedMessageObject): Promise<void> {
  await expect(decryptMessageWithPassword(encrypted, WRONG_PASSWORD)).rejects.toBeInstanceOf(DecryptionError);
}

// Counted over both describe blocks: the hook is the file's.
const caseDone = caseCounter(FILE);

describe(`${FILE} v4`, () => {
  it('has 6 v4 and 4 v3 vectors, one with default argon2 parameters', () => {
    expect(fixture.v4).toHaveLength(6);
    expect(fixture.v3).toHaveLength(4);
    expect(fixture.v4.filter(isHeavy)).toHaveLength(1);
  });

  fixture.v4.forEach((vector, index) => {
    const encrypted = vector.encryptedMessage;
    const checkStringForm = () => {
      expect(parseEncryptedMessage(vector.stringified)).toEqual(encrypted);
      expect(stringifyEncryptedMessage(encrypted)).toBe(vector.stringified);
    };

    if (isHeavy(vector)) {
      it(`#${index} ${vector.description}`, { timeout: 240_000 }, async () => {
        checkStringForm();
        expect((await decryptMessageWithPassword(encrypted, vector.password)).toString('hex')).toBe(vector.plaintextHex);
        const parsed = parseEncryptedMessage(vector.stringified);
        expect((await decryptMessageWithPassword(parsed, vector.password)).toString('hex')).toBe(vector.plaintextHex);
        expect(vector.wrongPasswordError).toBeDefined();
        await expectWrongPasswordFails(encrypted);
        caseDone();
      });
      return;
    }

    it(`#${index} ${vector.description}`, { timeout: 60_000 }, async () => {
      checkStringForm();
      expect((await decryptMessageWithPassword(encrypted, vector.password)).toString('hex')).toBe(vector.plaintextHex);
      const parsed = parseEncryptedMessage(vector.stringified);
      expect((await decryptMessageWithPassword(parsed, vector.password)).toString('hex')).toBe(vector.plaintextHex);

      const again = await encryptMessageWithPassword(hex(vector.plaintextHex), vector.password, {
        kdf: encrypted.kdf,
        kdfparams: encrypted.kdfparams,
        salt: hex(encrypted.kdfparams.salt),
        iv: hex(encrypted.cipherparams.iv),
      });
      expect(again).toEqual({ ...encrypted, version: '1' });

      if (vector.wrongPasswordError !== undefined) await expectWrongPasswordFails(encrypted);
      caseDone();
    });
  });
});

describe(`${FILE} v3`, () => {
  fixture.v3.forEach((vector, index) => {
    it(`#${index} ${vector.description}`, { timeout: 60_000 }, () => {
      const expected = vector.encryptedPassphraseObject;
      expect(parseEncryptedPassphraseV3(vector.encryptedPassphrase)).toEqual({
        iterations: expected.iterations,
        cipherText: expected.cipherText,
        iv: expected.iv,
        salt: expected.salt,
        tag: expected.tag,
        version: expected.version,
      });
      expect(decryptPassphraseV3(vector.encryptedPassphrase, vector.password)).toBe(vector.plaintext);
      expect(
        encryptPassphraseV3(vector.plaintext, vector.password, {
          iterations: expected.iterations,
          salt: hex(expected.salt),
          iv: hex(expected.iv),
        }),
      ).toBe(vector.encryptedPassphrase);
      expect(() => decryptPassphraseV3(vector.encryptedPassphrase, WRONG_PASSWORD)).toThrow(DecryptionError);
      caseDone();
    });
  });
});
