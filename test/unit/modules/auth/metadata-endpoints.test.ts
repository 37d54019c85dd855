/**
 * Auth metadata (equal to the real node's `system_getMetadata` entry, chains/dev/metadata.json),
 * config and endpoints. Expected behaviour: lisk-sdk auth/module.ts metadata(), auth/endpoint.ts.
 */
import { describe, expect, it } from 'vitest';
import { addressFromPublicKey, encodeLisk32 } from '../../../../src/crypto/index.js';
import { InvalidParamsError, ValidationError } from '../../../../src/errors.js';
import { AuthModule } from '../../../../src/modules/auth/index.js';
import { multisigRegMsgSchema } from '../../../../src/modules/auth/schemas.js';
import { loadJsonFixture } from '../../../support/fixtures.js';
import { ModuleHarness, testGenesisConfig } from '../../../support/module-harness.js';
import { endpointContext, keyPair, signTransaction, singleSigned, sortedKeyPairs, unsignedTransaction } from './support.js';

const devMetadata = loadJsonFixture<{ modules: ({ name: string } & Record<string, unknown>)[] }>('chains/dev/metadata.json');

function setup() {
  const auth = new AuthModule();
  auth.init({ genesisConfig: testGenesisConfig, moduleConfig: {} });
  return { auth, harness: new ModuleHarness() };
}

function call(auth: AuthModule, harness: ModuleHarness, name: string, params: Record<string, unknown> = {}): unknown {
  const handler = auth.endpoints[name];
  if (!handler) throw new Error(`no endpoint ${name}`);
  return handler.handle(endpointContext(harness, params));
}

describe('auth metadata', () => {
  it('equals the auth entry of chains/dev/metadata.json, key order included', () => {
    const { name, ...expected } = devMetadata.modules.find((m) => m.name === 'auth') as { name: string };
    const { auth } = setup();
    expect(name).toBe(auth.name);
    expect(auth.metadata()).toEqual(expected);
    // Same JSON text per part: schemas are served as JSON, so their key order matters too.
    const actual = auth.metadata() as unknown as Record<string, unknown>;
    for (const part of ['commands', 'events', 'stores', 'endpoints', 'assets']) {
      expect(JSON.stringify(actual[part])).toBe(JSON.stringify((expected as Record<string, unknown>)[part]));
    }
  });
});

describe('auth config', () => {
  it('defaults maxNumberOfSignatures to 64 and rejects non-integers', () => {
    const auth = new AuthModule();
    expect(() => auth.init({ genesisConfig: testGenesisConfig, moduleConfig: { maxNumberOfSignatures: 'many' } })).toThrow(ValidationError);
    expect(() => auth.init({ genesisConfig: testGenesisConfig, moduleConfig: { maxNumberOfSignatures: 1.5 } })).toThrow(
      '.modules.auth.maxNumberOfSignatures',
    );
    expect(() => auth.init({ genesisConfig: testGenesisConfig, moduleConfig: { maxNumberOfSignatures: 10 } })).not.toThrow();
  });
});

describe('auth endpoints', () => {
  const sender = keyPair('endpoint-sender');
  const senderAddress = addressFromPublicKey(sender.publicKey);

  it('getAuthAccount answers the stored or default account in JSON form', () => {
    const { auth, harness } = setup();
    const lisk32 = encodeLisk32(senderAddress);
    expect(call(auth, harness, 'getAuthAccount', { address: lisk32 })).toEqual({
      nonce: '0',
      numberOfSignatures: 0,
      mandatoryKeys: [],
      optionalKeys: [],
    });
    const [k1, k2] = sortedKeyPairs('e1', 'e2').map((k) => k.publicKey) as [Buffer, Buffer];
    auth.accounts.set(harness.state, senderAddress, { nonce: 12n, numberOfSignatures: 1, mandatoryKeys: [k1], optionalKeys: [k2] });
    expect(call(auth, harness, 'getAuthAccount', { address: lisk32 })).toEqual({
      nonce: '12',
      numberOfSignatures: 1,
      mandatoryKeys: [k1.toString('hex')],
      optionalKeys: [k2.toString('hex')],
    });
  });

  it('getAuthAccount rejects a bad address', () => {
    const { auth, harness } = setup();
    expect(() => call(auth, harness, 'getAuthAccount', { address: 42 })).toThrow(new InvalidParamsError('Invalid address format.'));
    expect(() => call(auth, harness, 'getAuthAccount', { address: 'lskzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz' })).toThrow(
      InvalidParamsError,
    );
  });

  it('isValidSignature answers verified true/false against the sender account', () => {
    const { auth, harness } = setup();
    const good = singleSigned(sender, { nonce: 3n });
    expect(call(auth, harness, 'isValidSignature', { transaction: good.bytes.toString('hex') })).toEqual({ verified: true });
    const bad = signTransaction(unsignedTransaction({ senderPublicKey: sender.publicKey }), [keyPair('x')]);
    expect(call(auth, harness, 'isValidSignature', { transaction: bad.bytes.toString('hex') })).toEqual({ verified: false });
    // Once the account is multisignature, the sender's own signature is no longer enough.
    const [m] = sortedKeyPairs('em');
    auth.accounts.set(harness.state, senderAddress, { nonce: 0n, numberOfSignatures: 1, mandatoryKeys: [m!.publicKey], optionalKeys: [] });
    expect(call(auth, harness, 'isValidSignature', { transaction: good.bytes.toString('hex') })).toEqual({ verified: false });
    const byMember = signTransaction(unsignedTransaction({ senderPublicKey: sender.publicKey }), [m!]);
    expect(call(auth, harness, 'isValidSignature', { transaction: byMember.bytes.toString('hex') })).toEqual({ verified: true });
  });

  it('isValidNonce is true only for the exact next nonce', () => {
    const { auth, harness } = setup();
    auth.accounts.set(harness.state, senderAddress, { nonce: 2n, numberOfSignatures: 0, mandatoryKeys: [], optionalKeys: [] });
    const verdict = (nonce: bigint) =>
      call(auth, harness, 'isValidNonce', { transaction: singleSigned(sender, { nonce }).bytes.toString('hex') });
    expect(verdict(1n)).toEqual({ verified: false });
    expect(verdict(2n)).toEqual({ verified: true });
    expect(verdict(3n)).toEqual({ verified: false });
  });

  it('isValidNonce / isValidSignature reject non-hex, undecodable and statically invalid transactions', () => {
    const { auth, harness } = setup();
    for (const name of ['isValidNonce', 'isValidSignature']) {
      expect(() => call(auth, harness, name, { transaction: 'xyz' })).toThrow(
        new InvalidParamsError('Transaction parameter must be a string.'),
      );
      expect(() => call(auth, harness, name, { transaction: 'abc' })).toThrow('Transaction parameter must be a string.');
      expect(() => call(auth, harness, name, { transaction: 'ffff' })).toThrow(InvalidParamsError);
      const unsigned = unsignedTransaction({ senderPublicKey: sender.publicKey });
      expect(() => call(auth, harness, name, { transaction: unsigned.bytes.toString('hex') })).toThrow(InvalidParamsError);
    }
  });

  it('getMultiSigRegMsgSchema and getMultiSigRegMsgTag', () => {
    const { auth, harness } = setup();
    expect(call(auth, harness, 'getMultiSigRegMsgSchema')).toEqual({ schema: multisigRegMsgSchema });
    expect(call(auth, harness, 'getMultiSigRegMsgTag')).toEqual({ tag: 'LSK_RMSG_' });
  });

  it('sortMultisignatureGroup sorts each list by public key and concatenates the signatures', () => {
    const { auth, harness } = setup();
    const key = (c: string) => c.repeat(64);
    const sig = (c: string) => c.repeat(128);
    const answer = call(auth, harness, 'sortMultisignatureGroup', {
      mandatory: [
        { publicKey: key('c'), signature: sig('3') },
        { publicKey: key('a'), signature: sig('1') },
      ],
      optional: [
        { publicKey: key('f'), signature: '' },
        { publicKey: key('b'), signature: sig('2') },
      ],
    });
    expect(answer).toEqual({
      mandatoryKeys: [key('a'), key('c')],
      optionalKeys: [key('b'), key('f')],
      signatures: [sig('1'), sig('3'), sig('2'), ''],
    });
  });

  it('sortMultisignatureGroup validates its request like lisk-sdk', () => {
    const { auth, harness } = setup();
    const pair = { publicKey: 'a'.repeat(64), signature: 'b'.repeat(128) };
    expect(() => call(auth, harness, 'sortMultisignatureGroup', { mandatory: [], optional: [] })).toThrow(InvalidParamsError);
    expect(() => call(auth, harness, 'sortMultisignatureGroup', { mandatory: [pair] })).toThrow(InvalidParamsError);
    expect(() => call(auth, harness, 'sortMultisignatureGroup', { mandatory: [{ ...pair, signature: '' }], optional: [] })).toThrow(
      InvalidParamsError,
    );
    expect(() => call(auth, harness, 'sortMultisignatureGroup', { mandatory: [{ ...pair, publicKey: 'a' }], optional: [] })).toThrow(
      InvalidParamsError,
    );
    expect(call(auth, harness, 'sortMultisignatureGroup', { mandatory: [pair], optional: [] })).toEqual({
      mandatoryKeys: [pair.publicKey],
      optionalKeys: [],
      signatures: [pair.signature],
    });
  });
});
