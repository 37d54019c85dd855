/** Real BLS checks for tests: single signatures and aggregates of 2-5 signers, all valid. */
import { randomBytes } from 'node:crypto';
import { aggregateSignatures, blsPublicKeyFromSecretKey, blsSign, type BlsCheck } from '../../../src/crypto/index.js';

export function blsTestChecks(count: number): BlsCheck[] {
  return Array.from({ length: count }, (_, i) => {
    const message = randomBytes(32);
    if (i % 2 === 0) {
      const secretKey = randomBytes(32);
      return { kind: 'verify', publicKeys: [blsPublicKeyFromSecretKey(secretKey)], message, signature: blsSign(secretKey, message) };
    }
    const secretKeys = Array.from({ length: 2 + (i % 4) }, () => randomBytes(32));
    return {
      kind: 'fastAggregateVerify',
      publicKeys: secretKeys.map(blsPublicKeyFromSecretKey),
      message,
      signature: aggregateSignatures(secretKeys.map((sk) => blsSign(sk, message))),
    };
  });
}

/** Ways a check goes bad: another message, another check's signature, a flipped bit, a short key list. */
export function spoilBlsCheck(check: BlsCheck, how: number): BlsCheck {
  switch (how % 4) {
    case 0:
      return { ...check, message: randomBytes(32) };
    case 1:
      return { ...check, signature: (blsTestChecks(1)[0] as BlsCheck).signature };
    case 2: {
      const signature = Buffer.from(check.signature);
      signature[20] = (signature[20] as number) ^ 4;
      return { ...check, signature };
    }
    default:
      return { ...check, kind: 'fastAggregateVerify', publicKeys: [...check.publicKeys, blsPublicKeyFromSecretKey(randomBytes(32))] };
  }
}
