/**
 * Ed25519 verification on the main thread, of a real transaction signature (LSK_TX_ tag, dev
 * chain ID): Basalt's verifyData (libsodium, strict checks) against node:crypto `verify` with
 * a KeyObject imported once beforehand (its fastest use). Both hash the tagged message first,
 * so both rows measure the same job.
 */
import { createPublicKey, verify as nodeVerify } from 'node:crypto';
import { MESSAGE_TAG_TRANSACTION, taggedDigest, verifyData } from '../../src/crypto/index.js';
import { loadChainConfig } from '../../src/config/lisk-config.js';
import { DEV_CONFIG_FILE } from '../lib/dev-chain.js';
import type { Measurement } from '../lib/figure.js';
import { interleavedMsPerOp } from '../lib/measure.js';
import type { Suite } from '../lib/suite.js';
import { benchKeyPair, signedTransfer } from '../lib/transfer-block.js';

export const ed25519Suite: Suite = {
  name: 'ed25519',
  summary: 'libsodium verifyData vs node:crypto verify (pre-imported KeyObject), one thread',
  async run(progress) {
    progress('ed25519: verify');
    const { chainID } = loadChainConfig(DEV_CONFIG_FILE).genesis;
    const sender = benchKeyPair('ed25519-sender');
    const tx = signedTransfer(sender, 7n, Buffer.alloc(20, 1), 1n, { chainID, tokenID: Buffer.concat([chainID, Buffer.alloc(4)]) });
    const message = tx.signingBytes();
    const [signature] = tx.signatures;
    if (signature === undefined) throw new Error('The transfer has no signature.');
    const keyObject = createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: sender.publicKey.toString('base64url') },
      format: 'jwk',
    });
    const ours = () => verifyData(MESSAGE_TAG_TRANSACTION, chainID, message, signature, sender.publicKey);
    const node = () => nodeVerify(null, taggedDigest(MESSAGE_TAG_TRANSACTION, chainID, message), keyObject, signature);
    if (!ours() || !node()) throw new Error('The benchmark signature does not verify.');

    const baseline = 'ed25519 verify node:crypto (KeyObject)';
    const [libsodium, nodeCrypto] = await interleavedMsPerOp([
      { name: 'libsodium', fn: ours },
      { name: 'node:crypto', fn: node },
    ]);
    const results: Measurement[] = [
      { name: 'ed25519 verifyData libsodium', value: libsodium! * 1000, unit: 'µs/op', baseline },
      { name: baseline, value: nodeCrypto! * 1000, unit: 'µs/op' },
    ];
    return results;
  },
};
