/**
 * BIP-39 seed from a mnemonic (LIP 0066): PBKDF2-HMAC-SHA512 over the NFKD
 * mnemonic, salt "mnemonic" ‖ NFKD(password), 2048 iterations, 64 bytes.
 *
 * The mnemonic is NOT checked against the BIP-39 wordlist or its checksum: Lisk's tooling
 * accepts any passphrase string here (keys:create does not validate), and Basalt carries no
 * wordlist dependency. Callers that want validation must do it themselves.
 */
import { pbkdf2Sync } from 'node:crypto';

export const BIP39_SEED_LENGTH = 64;
const BIP39_ITERATIONS = 2048;

/** The 64-byte BIP-39 seed of `mnemonic` (with an optional BIP-39 password, default ""). */
export function mnemonicToSeed(mnemonic: string, password = ''): Buffer {
  return pbkdf2Sync(
    Buffer.from(mnemonic.normalize('NFKD'), 'utf8'),
    Buffer.from(`mnemonic${password.normalize('NFKD')}`, 'utf8'),
    BIP39_ITERATIONS,
    BIP39_SEED_LENGTH,
    'sha512',
  );
}
