/**
 * `auth:registerMultisignature`: every verify rule in lisk-sdk's order, execute with its events.
 * Expected behaviour: lisk-sdk framework/src/modules/auth/commands/register_multisignature.ts,
 * events/multisignature_registration.ts and events/invalid_signature.ts, LIP 0041.
 */
import { describe, expect, it } from 'vitest';
import { codec } from '../../../../src/codec/index.js';
import { addressFromPublicKey, type Ed25519KeyPair } from '../../../../src/crypto/index.js';
import { AuthModule, type RegisterMultisignatureCommand, type RegisterMultisignatureParams } from '../../../../src/modules/auth/index.js';
import { invalidSigDataSchema, multisigRegDataSchema } from '../../../../src/modules/auth/events.js';
import { VerifyStatus } from '../../../../src/modules/base/index.js';
import { ModuleHarness, testGenesisConfig } from '../../../support/module-harness.js';
import { encodeRegistrationParams, keyPair, memberSignatures, singleSigned, sortedKeyPairs } from './support.js';

const sender = keyPair('registrant');
const senderAddress = addressFromPublicKey(sender.publicKey);
const [m1, m2] = sortedKeyPairs('rm1', 'rm2') as [Ed25519KeyPair, Ed25519KeyPair];
const [o1, o2] = sortedKeyPairs('ro1', 'ro2') as [Ed25519KeyPair, Ed25519KeyPair];
const dummySignature = Buffer.alloc(64, 1);

function setup(moduleConfig: Record<string, unknown> = {}) {
  const auth = new AuthModule();
  auth.init({ genesisConfig: testGenesisConfig, moduleConfig });
  const command = auth.commands[0] as RegisterMultisignatureCommand;
  return { auth, command, harness: new ModuleHarness() };
}

function params(overrides: Partial<RegisterMultisignatureParams> = {}): RegisterMultisignatureParams {
  const base = {
    numberOfSignatures: 3,
    mandatoryKeys: [m1.publicKey, m2.publicKey],
    optionalKeys: [o1.publicKey, o2.publicKey],
  };
  const merged = { ...base, signatures: [dummySignature, dummySignature, dummySignature, dummySignature], ...overrides };
  return merged;
}

function keys(count: number): Buffer[] {
  return Array.from({ length: count }, (_, i) => keyPair(`member-${i}`).publicKey).sort(Buffer.compare);
}

describe('registerMultisignature verify', () => {
  const { command, harness } = setup();
  const verify = (p: RegisterMultisignatureParams) =>
    command.verify?.(harness.commandVerifyContext(singleSigned(sender, { module: 'auth', command: 'registerMultisignature' }), p));

  it('accepts a well-formed group', () => {
    expect(verify(params())).toEqual({ status: VerifyStatus.OK });
  });

  const failures: [string, Partial<RegisterMultisignatureParams>, string][] = [
    ['duplicate mandatory keys', { mandatoryKeys: [m1.publicKey, m1.publicKey] }, 'MandatoryKeys contains duplicate public keys.'],
    ['duplicate optional keys', { optionalKeys: [o1.publicKey, o1.publicKey] }, 'OptionalKeys contains duplicate public keys.'],
    [
      'more signatures required than keys',
      { numberOfSignatures: 5 },
      'The numberOfSignatures is bigger than the count of Mandatory and Optional keys.',
    ],
    [
      'no keys at all (numberOfSignatures 0 reaches this rule)',
      { numberOfSignatures: 0, mandatoryKeys: [], optionalKeys: [], signatures: [] },
      'The count of Mandatory and Optional keys should be between 1 and 64.',
    ],
    [
      '65 keys',
      {
        numberOfSignatures: 64,
        mandatoryKeys: keys(65).slice(0, 1),
        optionalKeys: keys(65).slice(1),
        signatures: Array(65).fill(dummySignature),
      },
      'The count of Mandatory and Optional keys should be between 1 and 64.',
    ],
    [
      'fewer required signatures than mandatory keys',
      { numberOfSignatures: 1 },
      'The numberOfSignatures needs to be equal or bigger than the number of Mandatory keys.',
    ],
    [
      'a key both mandatory and optional',
      { optionalKeys: [m1.publicKey, o2.publicKey].sort(Buffer.compare) },
      'Invalid combination of Mandatory and Optional keys. Repeated keys across Mandatory and Optional were found.',
    ],
    [
      'one signature missing',
      { signatures: [dummySignature, dummySignature, dummySignature] },
      'The number of mandatory and optional keys should match the number of signatures',
    ],
    ['unsorted mandatory keys', { mandatoryKeys: [m2.publicKey, m1.publicKey] }, 'Mandatory keys should be sorted lexicographically.'],
    ['unsorted optional keys', { optionalKeys: [o2.publicKey, o1.publicKey] }, 'Optional keys should be sorted lexicographically.'],
  ];

  it.each(failures)('fails: %s', (_, overrides, message) => {
    const result = verify(params(overrides));
    expect(result?.status).toBe(VerifyStatus.FAIL);
    expect(result?.error?.message).toBe(message);
  });

  it('checks duplicates before counts and counts before order (first broken rule wins)', () => {
    // Duplicate mandatory keys AND too many required signatures AND unsorted: duplicates reported.
    expect(verify(params({ mandatoryKeys: [m2.publicKey, m2.publicKey], numberOfSignatures: 9 }))?.error?.message).toBe(
      'MandatoryKeys contains duplicate public keys.',
    );
    // Signature count mismatch AND unsorted mandatory keys: the count is reported.
    expect(verify(params({ mandatoryKeys: [m2.publicKey, m1.publicKey], signatures: [dummySignature] }))?.error?.message).toBe(
      'The number of mandatory and optional keys should match the number of signatures',
    );
  });

  it('uses the configured maxNumberOfSignatures', () => {
    const small = setup({ maxNumberOfSignatures: 3 });
    const result = small.command.verify?.(
      small.harness.commandVerifyContext(singleSigned(sender, { module: 'auth', command: 'registerMultisignature' }), params()),
    );
    expect(result?.error?.message).toBe('The count of Mandatory and Optional keys should be between 1 and 3.');
  });
});

describe('registerMultisignature execute', () => {
  const group = { numberOfSignatures: 3, mandatory: [m1, m2], optional: [o1, o2] };

  function run(signatures: Buffer[], nonce = 4n) {
    const { auth, command, harness } = setup();
    auth.accounts.set(harness.state, senderAddress, { nonce, numberOfSignatures: 0, mandatoryKeys: [], optionalKeys: [] });
    const p = params({ signatures });
    const tx = singleSigned(sender, {
      module: 'auth',
      command: 'registerMultisignature',
      nonce,
      params: encodeRegistrationParams(p),
    });
    // As the state machine does: nonce hook, then the command inside a snapshot.
    auth.beforeCommandExecute(harness.transactionExecuteContext(tx));
    const stateSnapshot = harness.state.snapshot();
    const eventSnapshot = harness.events.snapshot();
    let error: unknown;
    try {
      command.execute(harness.commandExecuteContext(tx, p));
    } catch (caught) {
      error = caught;
      harness.state.restore(stateSnapshot);
      harness.events.restore(eventSnapshot);
    }
    return { auth, harness, tx, error };
  }

  it('stores the group and emits multisignatureRegistration (topics 04‖txID, sender)', () => {
    const { auth, harness, tx, error } = run(memberSignatures(senderAddress, 4n, group));
    expect(error).toBeUndefined();
    expect(auth.accounts.get(harness.state, senderAddress)).toEqual({
      nonce: 5n,
      numberOfSignatures: 3,
      mandatoryKeys: [m1.publicKey, m2.publicKey],
      optionalKeys: [o1.publicKey, o2.publicKey],
    });
    const events = harness.events.events();
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event?.module).toBe('auth');
    expect(event?.name).toBe('multisignatureRegistration');
    expect(event?.topics).toEqual([Buffer.concat([Buffer.from([4]), tx.id]), senderAddress]);
    expect(event?.data).toEqual(
      codec.encode(multisigRegDataSchema, {
        numberOfSignatures: 3,
        mandatoryKeys: [m1.publicKey, m2.publicKey],
        optionalKeys: [o1.publicKey, o2.publicKey],
      }),
    );
  });

  it('fails on the first invalid member signature with a non-revertible invalidSignature event', () => {
    const signatures = memberSignatures(senderAddress, 4n, group);
    // Member signatures signed for another nonce are invalid; corrupt positions 1 and 3.
    const wrong = memberSignatures(senderAddress, 5n, group);
    signatures[1] = wrong[1] as Buffer;
    signatures[3] = wrong[3] as Buffer;
    const { auth, harness, tx, error } = run(signatures);
    expect((error as Error).message).toBe(`Invalid signature for public key ${m2.publicKey.toString('hex')}.`);
    // The command's writes are gone, the nonce increment (before the snapshot) stays.
    expect(auth.accounts.get(harness.state, senderAddress)).toEqual({
      nonce: 5n,
      numberOfSignatures: 0,
      mandatoryKeys: [],
      optionalKeys: [],
    });
    const events = harness.events.events();
    expect(events).toHaveLength(1);
    expect(events[0]?.name).toBe('invalidSignature');
    expect(events[0]?.topics).toEqual([Buffer.concat([Buffer.from([4]), tx.id]), senderAddress]);
    expect(events[0]?.data).toEqual(
      codec.encode(invalidSigDataSchema, {
        numberOfSignatures: 3,
        mandatoryKeys: [m1.publicKey, m2.publicKey],
        optionalKeys: [o1.publicKey, o2.publicKey],
        failingPublicKey: m2.publicKey,
        failingSignature: signatures[1],
      }),
    );
  });

  it('signs over the transaction nonce, the sender address and the chain', () => {
    const otherChain = memberSignatures(senderAddress, 4n, group, Buffer.from('04000001', 'hex'));
    expect((run(otherChain).error as Error).message).toBe(`Invalid signature for public key ${m1.publicKey.toString('hex')}.`);
    const otherSender = memberSignatures(Buffer.alloc(20, 9), 4n, group);
    expect((run(otherSender).error as Error).message).toBe(`Invalid signature for public key ${m1.publicKey.toString('hex')}.`);
  });

  it('checks optional members too', () => {
    const signatures = memberSignatures(senderAddress, 4n, group);
    signatures[3] = dummySignature;
    const { error, harness } = run(signatures);
    expect((error as Error).message).toBe(`Invalid signature for public key ${o2.publicKey.toString('hex')}.`);
    expect(harness.events.events()[0]?.name).toBe('invalidSignature');
  });
});
