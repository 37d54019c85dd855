/**
 * The password-encryption settings of keys:create, keys:encrypt and passphrase:encrypt: Lisk's
 * defaults (argon2id, 1 iteration, parallelism 4, 2 097 023 KiB ≈ 2 GiB; docs/protocol/keys.md),
 * always, except under a TEST-ONLY environment variable that lowers the argon2id memory so that
 * tests do not need 2 GiB and 15 s per encryption. The encrypted object records the memory it was
 * made with, so any node decrypts it; it is just far weaker against password guessing.
 */
import type { EncryptMessageOptions } from '../../crypto/index.js';

/** TEST ONLY: argon2id memory in KiB (at least 32). Never set it for real keys. */
export const TEST_ARGON2_MEMORY_ENV = 'BASALT_TEST_ONLY_ARGON2_MEMORY_KIB';

/** Options for encryptMessageWithPassword; warns on `warn` when the test setting is in force. */
export function encryptionOptions(warn: NodeJS.WritableStream, env: NodeJS.ProcessEnv = process.env): EncryptMessageOptions {
  const value = env[TEST_ARGON2_MEMORY_ENV];
  if (value === undefined || value === '') return {};
  const memorySize = Number(value);
  if (!Number.isSafeInteger(memorySize) || memorySize < 32 || memorySize > 0xffff_ffff) {
    throw new Error(`${TEST_ARGON2_MEMORY_ENV} must be a whole number of KiB from 32 to 4294967295.`);
  }
  warn.write(
    `WARNING: ${TEST_ARGON2_MEMORY_ENV} is set: encrypting with argon2id memory ${memorySize} KiB instead of Lisk's 2097023 KiB. ` +
      'This is for tests only; such encryption is weak.\n',
  );
  return { kdfparams: { memorySize } };
}
