/**
 * Auth transaction verification and the nonce hook with real ed25519 signatures.
 * Expected behaviour: lisk-sdk framework/src/modules/auth/module.ts (verifyTransaction,
 * beforeCommandExecute) and auth/utils.ts (verifyNonce, verifySignatures), LIP 0041.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { addressFromPublicKey, signData, MESSAGE_TAG_TRANSACTION } from '../../../../src/crypto/index.js';
import { AuthModule, InvalidNonceError, planTransactionSignatures, type AuthAccount } from '../../../../src/modules/auth/index.js';
import { VerifyStatus } from '../../../../src/modules/base/index.js';
import { ModuleHarness, testGenesisConfig } from '../../../support/module-harness.js';
import { CHAIN_ID, keyPair, signTransaction, singleSigned, sortedKeyPairs, unsignedTransaction } from './support.js';

const sender = keyPair('sender');
const senderAddress = addressFromPublicKey(sender.publicKey);

function setup(): { auth: AuthModule; harness: ModuleHarness } {
  const auth = new AuthModule();
  auth.init({ genesisConfig: testGenesisConfig, moduleConfig: {} });
  return { auth, harness: new ModuleHarness() };
}

function setAccount(auth: AuthModule, harness: ModuleHarness, account: AuthAccount, address = senderAddress): void {
  auth.accounts.set(harness.state, address, account);
}

describe('auth verifyTransaction: single-signature accounts', () => {
  let auth: AuthModule;
  let harness: ModuleHarness;
  beforeEach(() => ({ auth, harness } = setup()));

  it('accepts the next nonce of a new account (default account, nonce 0)', () => {
    const result = auth.verifyTransaction(harness.transactionVerifyContext(singleSigned(sender)));
    expect(result).toEqual({ status: VerifyStatus.OK });
  });

  it('answers PENDING for a future nonce with a valid signature', () => {
    const result = auth.verifyTransaction(harness.transactionVerifyContext(singleSigned(sender, { nonce: 5n })));
    expect(result.status).toBe(VerifyStatus.PENDING);
    expect(result.error).toBeUndefined();
  });

  it('fails a spent nonce with InvalidNonceError (before looking at signatures)', () => {
    setAccount(auth, harness, { nonce: 3n, numberOfSignatures: 0, mandatoryKeys: [], optionalKeys: [] });
    // Even an unsigned transaction: the nonce check comes first.
    const tx = unsignedTransaction({ senderPublicKey: sender.publicKey, nonce: 2n });
    const result = auth.verifyTransaction(harness.transactionVerifyContext(tx));
    expect(result.status).toBe(VerifyStatus.FAIL);
    expect(result.error).toBeInstanceOf(InvalidNonceError);
    const error = result.error as InvalidNonceError;
    expect(error.code).toBe('ERR_INVALID_NONCE');
    expect(error.actual).toBe('2');
    expect(error.expected).toBe('3');
    expect(error.message).toBe(`Transaction with id:${tx.id.toString('hex')} nonce is lower than account nonce.`);
  });

  it('accepts the nonce equal to the stored one', () => {
    setAccount(auth, harness, { nonce: 3n, numberOfSignatures: 0, mandatoryKeys: [], optionalKeys: [] });
    expect(auth.verifyTransaction(harness.transactionVerifyContext(singleSigned(sender, { nonce: 3n }))).status).toBe(VerifyStatus.OK);
  });

  it('fails a PENDING-nonce transaction whose signature is invalid', () => {
    const other = keyPair('other');
    const tx = signTransaction(unsignedTransaction({ senderPublicKey: sender.publicKey, nonce: 9n }), [other]);
    const result = auth.verifyTransaction(harness.transactionVerifyContext(tx));
    expect(result.status).toBe(VerifyStatus.FAIL);
    expect(result.error?.message).toBe(
      `Failed to validate signature '${tx.signatures[0]?.toString('hex')}' for transaction with id '${tx.id.toString('hex')}'`,
    );
  });

  it('fails a signature made for another chain', () => {
    const tx = signTransaction(unsignedTransaction({ senderPublicKey: sender.publicKey }), [sender], Buffer.from('04000001', 'hex'));
    expect(auth.verifyTransaction(harness.transactionVerifyContext(tx)).status).toBe(VerifyStatus.FAIL);
  });

  it('fails a signature over other bytes (fee changed after signing)', () => {
    const signed = singleSigned(sender);
    const tampered = unsignedTransaction({ senderPublicKey: sender.publicKey, fee: 200_001n }).withSignatures(signed.signatures);
    expect(auth.verifyTransaction(harness.transactionVerifyContext(tampered)).status).toBe(VerifyStatus.FAIL);
  });

  it('fails with two signatures or with an empty one', () => {
    const two = signTransaction(unsignedTransaction({ senderPublicKey: sender.publicKey }), [sender, sender]);
    const result = auth.verifyTransaction(harness.transactionVerifyContext(two));
    expect(result.status).toBe(VerifyStatus.FAIL);
    expect(result.error?.message).toBe(
      'Transactions from a single signature account should have exactly one signature. Found 2 signatures.',
    );
    const empty = signTransaction(unsignedTransaction({ senderPublicKey: sender.publicKey }), [null]);
    const emptyResult = auth.verifyTransaction(harness.transactionVerifyContext(empty));
    expect(emptyResult.status).toBe(VerifyStatus.FAIL);
    expect(emptyResult.error?.message).toBe(`Failed to validate signature '' for transaction with id '${empty.id.toString('hex')}'`);
  });

  it('fails a transaction without signatures', () => {
    const none = unsignedTransaction({ senderPublicKey: sender.publicKey });
    expect(auth.verifyTransaction(harness.transactionVerifyContext(none)).error?.message).toBe(
      'Transactions from a single signature account should have exactly one signature. Found 0 signatures.',
    );
  });

  it('rejects a malleated signature (S + L) as libsodium does', () => {
    const tx = singleSigned(sender);
    const signature = Buffer.from(tx.signatures[0] as Buffer);
    // Add the group order L to S (little-endian, bytes 32..63).
    const L = 2n ** 252n + 27742317777372353535851937790883648493n;
    let s = 0n;
    for (let i = 63; i >= 32; i -= 1) s = (s << 8n) | BigInt(signature[i] as number);
    s += L;
    for (let i = 32; i < 64; i += 1) {
      signature[i] = Number(s & 0xffn);
      s >>= 8n;
    }
    const malleated = tx.withSignatures([signature]);
    expect(auth.verifyTransaction(harness.transactionVerifyContext(malleated)).status).toBe(VerifyStatus.FAIL);
  });
});

describe('auth verifyTransaction: multisignature accounts', () => {
  // 2 mandatory + 2 optional keys, 3 signatures required.
  const [m1, m2] = sortedKeyPairs('m1', 'm2') as [typeof sender, typeof sender];
  const [o1, o2] = sortedKeyPairs('o1', 'o2') as [typeof sender, typeof sender];
  const account: AuthAccount = {
    nonce: 7n,
    numberOfSignatures: 3,
    mandatoryKeys: [m1.publicKey, m2.publicKey],
    optionalKeys: [o1.publicKey, o2.publicKey],
  };
  let auth: AuthModule;
  let harness: ModuleHarness;
  beforeEach(() => {
    ({ auth, harness } = setup());
    setAccount(auth, harness, account);
  });
  const tx = (nonce = 7n) => unsignedTransaction({ senderPublicKey: sender.publicKey, nonce });
  const verify = (t: ReturnType<typeof tx>) => auth.verifyTransaction(harness.transactionVerifyContext(t));
  const countMessage = (t: ReturnType<typeof tx>) =>
    `Transaction signatures does not match required number of signatures: '3' for transaction with id '${t.id.toString('hex')}'`;

  it('accepts both mandatory signatures plus either optional one', () => {
    expect(verify(signTransaction(tx(), [m1, m2, o1, null])).status).toBe(VerifyStatus.OK);
    expect(verify(signTransaction(tx(), [m1, m2, null, o2])).status).toBe(VerifyStatus.OK);
  });

  it('ignores the sender key: the sender signing alone is not enough', () => {
    const t = signTransaction(tx(), [sender]);
    expect(verify(t).error?.message).toBe(countMessage(t));
  });

  it('answers PENDING for a future nonce with valid signatures', () => {
    expect(verify(signTransaction(tx(8n), [m1, m2, o1, null])).status).toBe(VerifyStatus.PENDING);
  });

  it('fails too many non-empty signatures', () => {
    const t = signTransaction(tx(), [m1, m2, o1, o2]);
    expect(verify(t).error?.message).toBe(countMessage(t));
  });

  it('fails too few non-empty signatures', () => {
    const t = signTransaction(tx(), [m1, m2, null, null]);
    expect(verify(t).error?.message).toBe(countMessage(t));
  });

  it('fails a signature list shorter or longer than the key list', () => {
    const short = signTransaction(tx(), [m1, m2, o1]);
    expect(verify(short).error?.message).toBe(countMessage(short));
    const long = signTransaction(tx(), [m1, m2, o1, null, null]);
    expect(verify(long).error?.message).toBe(countMessage(long));
  });

  it('fails an empty signature at a mandatory position', () => {
    const t = signTransaction(tx(), [m1, null, o1, o2]);
    const result = verify(t);
    expect(result.status).toBe(VerifyStatus.FAIL);
    expect(result.error?.message).toBe('Missing signature for a mandatory key.');
  });

  it('reports an invalid signature before a later missing mandatory one (lisk-sdk order)', () => {
    // Three-mandatory account so that position 1 can be empty while the count still matches.
    const [a, b, c] = sortedKeyPairs('a', 'b', 'c') as [typeof sender, typeof sender, typeof sender];
    setAccount(auth, harness, {
      nonce: 7n,
      numberOfSignatures: 2,
      mandatoryKeys: [a.publicKey, b.publicKey, c.publicKey],
      optionalKeys: [],
    });
    const wrongFirst = signTransaction(tx(), [c, null, c]);
    expect(verify(wrongFirst).error?.message).toBe(
      `Failed to validate signature '${wrongFirst.signatures[0]?.toString('hex')}' for transaction with id '${wrongFirst.id.toString('hex')}'`,
    );
    const rightFirst = signTransaction(tx(), [a, null, c]);
    expect(verify(rightFirst).error?.message).toBe('Missing signature for a mandatory key.');
  });

  it('fails a signature by the wrong member or at a swapped position', () => {
    const swapped = signTransaction(tx(), [m2, m1, o1, null]);
    expect(verify(swapped).error?.message).toBe(
      `Failed to validate signature '${swapped.signatures[0]?.toString('hex')}' for transaction with id '${swapped.id.toString('hex')}'`,
    );
    const wrongOptional = signTransaction(tx(), [m1, m2, o2, null]);
    expect(verify(wrongOptional).error?.message).toContain(
      `Failed to validate signature '${wrongOptional.signatures[2]?.toString('hex')}'`,
    );
  });

  it('fails member signatures made over another chain', () => {
    const t = signTransaction(tx(), [m1, m2, o1, null], Buffer.from('00000000', 'hex'));
    expect(verify(t).status).toBe(VerifyStatus.FAIL);
  });

  it('plans one check per non-empty signature, in key order', () => {
    const t = signTransaction(tx(), [m1, m2, null, o2]);
    const plan = planTransactionSignatures(t, account);
    expect(plan.failure).toBeUndefined();
    expect(plan.checks.map((c) => c.publicKey)).toEqual([m1.publicKey, m2.publicKey, o2.publicKey]);
    expect(plan.checks.map((c) => c.signature)).toEqual([t.signatures[0], t.signatures[1], t.signatures[3]]);
  });
});

describe('auth beforeCommandExecute', () => {
  it('creates the default account with nonce 1 for a new sender', () => {
    const { auth, harness } = setup();
    const tx = singleSigned(sender);
    auth.beforeCommandExecute(harness.transactionExecuteContext(tx));
    expect(auth.accounts.get(harness.state, senderAddress)).toEqual({
      nonce: 1n,
      numberOfSignatures: 0,
      mandatoryKeys: [],
      optionalKeys: [],
    });
    // The stored bytes: nonce 1, numberOfSignatures 0, no keys.
    expect(harness.state.get(auth.accounts.stateKey(senderAddress))?.toString('hex')).toBe('08011000');
    expect(auth.accounts.prefix.toString('hex')).toBe('3df49c3c0000');
  });

  it('increments the nonce and keeps the multisignature keys', () => {
    const { auth, harness } = setup();
    const [k1, k2] = sortedKeyPairs('k1', 'k2') as [typeof sender, typeof sender];
    const account = { nonce: 41n, numberOfSignatures: 1, mandatoryKeys: [k1.publicKey], optionalKeys: [k2.publicKey] };
    setAccount(auth, harness, account);
    auth.beforeCommandExecute(harness.transactionExecuteContext(singleSigned(sender, { nonce: 41n })));
    expect(auth.accounts.get(harness.state, senderAddress)).toEqual({ ...account, nonce: 42n });
    expect(harness.events.events()).toEqual([]);
  });

  it('verifies the next transaction against the incremented nonce', () => {
    const { auth, harness } = setup();
    auth.beforeCommandExecute(harness.transactionExecuteContext(singleSigned(sender)));
    expect(auth.verifyTransaction(harness.transactionVerifyContext(singleSigned(sender))).status).toBe(VerifyStatus.FAIL);
    expect(auth.verifyTransaction(harness.transactionVerifyContext(singleSigned(sender, { nonce: 1n }))).status).toBe(VerifyStatus.OK);
  });
});

describe('auth method', () => {
  it('getAuthAccount returns the stored or the default account', () => {
    const { auth, harness } = setup();
    expect(auth.method.getAuthAccount(harness, senderAddress)).toEqual({
      nonce: 0n,
      numberOfSignatures: 0,
      mandatoryKeys: [],
      optionalKeys: [],
    });
    setAccount(auth, harness, { nonce: 2n, numberOfSignatures: 0, mandatoryKeys: [], optionalKeys: [] });
    expect(auth.method.getAuthAccount(harness, senderAddress).nonce).toBe(2n);
  });

  it('signs as the fixtures do (sanity: signData over the signing bytes)', () => {
    const tx = singleSigned(sender);
    expect(tx.signatures[0]).toEqual(signData(MESSAGE_TAG_TRANSACTION, CHAIN_ID, tx.signingBytes(), sender.privateKey));
  });
});
