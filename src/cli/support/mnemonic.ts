/**
 * BIP-39 mnemonics for passphrase:create (lisk-commander passphrase/create.ts): 256 bits of entropy, an
 * 8-bit SHA-256 checksum, 24 words of 11 bits each from the English wordlist, which comes from
 * @scure/bip39 (checked against the standard list's hash at first use).
 */
import { createHash, randomBytes } from 'node:crypto';
import { wordlist as english } from '@scure/bip39/wordlists/english.js';

const WORDLIST_SIZE = 2048;
/** SHA-256 of BIP-39's english.txt (each word followed by "\n"), to refuse any other list. */
const ENGLISH_WORDLIST_SHA256 = '2f5eed53a4727b4bf8880d8f3f199efc90e58503646d9ff8eff3a2ed3b24dbda';

/** The BIP-39 English wordlist. */
export function loadEnglishWordlist(): string[] {
  const words = [...english];
  if (
    words.length !== WORDLIST_SIZE ||
    createHash('sha256')
      .update(`${words.join('\n')}\n`)
      .digest('hex') !== ENGLISH_WORDLIST_SHA256
  ) {
    throw new Error('The BIP-39 English wordlist is not the standard one.');
  }
  return words;
}

/** The BIP-39 mnemonic of `entropy` (16-32 bytes, a multiple of 4). */
export function entropyToMnemonic(entropy: Uint8Array, wordlist: readonly string[]): string {
  if (entropy.length < 16 || entropy.length > 32 || entropy.length % 4 !== 0)
    throw new Error('Entropy must be 16 to 32 bytes, a multiple of 4.');
  const checksumBits = entropy.length / 4;
  const checksum = createHash('sha256').update(entropy).digest()[0] as number;
  // Bits as a big integer: entropy ‖ first checksumBits bits of the hash.
  let value = BigInt(`0x${Buffer.from(entropy).toString('hex')}`);
  value = (value << BigInt(checksumBits)) | BigInt(checksum >> (8 - checksumBits));
  const wordCount = ((entropy.length * 8 + checksumBits) / 11) | 0;
  const words: string[] = new Array<string>(wordCount);
  for (let i = wordCount - 1; i >= 0; i -= 1) {
    words[i] = wordlist[Number(value & 0x7ffn)] as string;
    value >>= 11n;
  }
  return words.join(' ');
}

/** A fresh 24-word mnemonic (256-bit entropy, as lisk-core passphrase:create). */
export function generateMnemonic(wordlist: readonly string[] = loadEnglishWordlist()): string {
  return entropyToMnemonic(randomBytes(32), wordlist);
}
