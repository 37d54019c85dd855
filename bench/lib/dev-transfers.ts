/**
 * Valid, distinct token transfers for the dev chain, signed by its 103 genesis validator
 * accounts (lisk-sdk's public examples/pos-mainchain dev keys, 10,000 LSK each at genesis):
 * what txpool_postTransaction is loaded with.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { decodeLisk32 } from '../../src/crypto/index.js';
import type { Ed25519KeyPair } from '../../src/crypto/index.js';
import { signedTransfer } from './transfer-block.js';

const DEV_KEYS_FILE = fileURLToPath(new URL('../../test/fixtures/genesis/pos-mainchain-default/dev-validators.json', import.meta.url));
export const DEV_CHAIN_ID = Buffer.from('04000000', 'hex');
export const DEV_TOKEN_ID = Buffer.from('0400000000000000', 'hex');

export interface DevAccount {
  readonly address: string;
  readonly keyPair: Ed25519KeyPair;
}

export function devAccounts(): DevAccount[] {
  const { keys } = JSON.parse(readFileSync(DEV_KEYS_FILE, 'utf8')) as {
    keys: { address: string; publicKey: string; privateKey: string }[];
  };
  return keys.map((k) => ({
    address: k.address,
    keyPair: { publicKey: Buffer.from(k.publicKey, 'hex'), privateKey: Buffer.from(k.privateKey, 'hex') },
  }));
}

/**
 * `perAccount` transfers from every account, nonces counting up from its current nonce
 * (`nonceOf`), each to the next account (an existing one: no account initialization fee),
 * as hex. With the pool's defaults (64 per account, 4,096 in all) every one is accepted once.
 */
export async function devTransfersHex(perAccount: number, nonceOf: (address: string) => Promise<bigint>): Promise<string[]> {
  const accounts = devAccounts();
  const out: string[] = [];
  for (const [i, sender] of accounts.entries()) {
    const recipient = decodeLisk32(accounts[(i + 1) % accounts.length]!.address);
    const first = await nonceOf(sender.address);
    for (let n = 0; n < perAccount; n++) {
      const tx = signedTransfer(sender.keyPair, first + BigInt(n), recipient, 1000n + BigInt(n), {
        chainID: DEV_CHAIN_ID,
        tokenID: DEV_TOKEN_ID,
      });
      out.push(tx.bytes.toString('hex'));
    }
  }
  return out;
}
