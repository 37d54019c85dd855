/**
 * The few libsodium (sodium-native) functions Basalt uses, with their types. sodium-native ships
 * no TypeScript declarations, so it is loaded through `require` and typed here, in one place.
 * libsodium is the library a Lisk node verifies with; its strict rules (canonical S, no
 * small-order keys or R) are consensus-relevant (docs/protocol/crypto.md).
 */
import { createRequire } from 'node:module';

export interface SodiumEd25519 {
  readonly crypto_sign_BYTES: number;
  readonly crypto_sign_PUBLICKEYBYTES: number;
  readonly crypto_sign_SECRETKEYBYTES: number;
  readonly crypto_sign_SEEDBYTES: number;
  crypto_sign_seed_keypair(publicKey: Buffer, secretKey: Buffer, seed: Uint8Array): void;
  crypto_sign_detached(signature: Buffer, message: Uint8Array, secretKey: Uint8Array): void;
  crypto_sign_verify_detached(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean;
}

export const sodium = createRequire(import.meta.url)('sodium-native') as SodiumEd25519;
