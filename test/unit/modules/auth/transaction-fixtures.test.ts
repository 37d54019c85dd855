/**
 * The auth module against the transaction fixtures: every registerMultisignature fixture and
 * every signed transaction, decoded with src/chain/transaction.ts and verified through the module
 * over a state whose sender account matches (nonce, multisignature keys).
 * Expected behaviour: lisk-sdk auth module (verifyTransaction, registerMultisignature), LIP 0041.
 */
import { describe, expect, it } from 'vitest';
import { Transaction } from '../../../../src/chain/transaction.js';
import { codec } from '../../../../src/codec/index.js';
import { addressFromPublicKey, MESSAGE_TAG_MULTISIG_REG, signData } from '../../../../src/crypto/index.js';
import { AuthModule, type RegisterMultisignatureCommand, transactionSigningDigest } from '../../../../src/modules/auth/index.js';
import { multisigRegDataSchema } from '../../../../src/modules/auth/events.js';
import { multisigRegMsgSchema } from '../../../../src/modules/auth/schemas.js';
import { VerifyStatus, type ExecutionTransaction } from '../../../../src/modules/base/index.js';
import { recordCases } from '../../../support/conformance-tally.js';
import { hex, loadJsonFixture } from '../../../support/fixtures.js';
import { ModuleHarness, testGenesisConfig } from '../../../support/module-harness.js';
import { decodeRegistrationParams } from './support.js';

interface Member {
  privateKey: string;
  publicKey: string;
  address: string;
}

interface RegistrationCase {
  description: string;
  input: { account: Member; chainID: string; members: Record<string, Member> };
  output: { transaction: string };
}

interface SignedCase {
  description: string;
  chainID: string;
  module: string;
  command: string;
  nonce: string;
  senderPublicKey: string;
  signingBytes: string;
  signingDigest: string;
  transactionBytes: string;
  id: string;
  size: number;
  multisigAccount?: { numberOfSignatures: number; mandatoryKeys: string[]; optionalKeys: string[] };
  memberSigning?: { tag: string; message: string; memberKeysInSignatureOrder: { publicKey: string; privateKey: string }[] };
}

const REGISTRATION_FILE = 'transactions/multisignature_registration_transaction.json';
const SIGNED_FILE = 'transactions/signed_transactions.json';
const registrations = loadJsonFixture<{ testCases: RegistrationCase[] }>(REGISTRATION_FILE).testCases;
const signed = loadJsonFixture<{ testCases: SignedCase[] }>(SIGNED_FILE).testCases;

function setup() {
  const auth = new AuthModule();
  auth.init({ genesisConfig: testGenesisConfig, moduleConfig: {} });
  return { auth, command: auth.commands[0] as RegisterMultisignatureCommand, harness: new ModuleHarness() };
}

/** Runs a registration through verify, the nonce hook and execute on chain `chainID`. */
function register(transaction: ExecutionTransaction, chainID: Buffer) {
  const { auth, command, harness } = setup();
  const sender = transaction.senderAddress();
  auth.accounts.set(harness.state, sender, { nonce: transaction.nonce, numberOfSignatures: 0, mandatoryKeys: [], optionalKeys: [] });
  const params = decodeRegistrationParams(transaction.params);
  const verifyResult = auth.verifyTransaction({ ...harness.transactionVerifyContext(transaction), chainID });
  const commandResult = command.verify?.({ ...harness.commandVerifyContext(transaction, params), chainID });
  auth.beforeCommandExecute({ ...harness.transactionExecuteContext(transaction), chainID });
  let error: unknown;
  try {
    command.execute({ ...harness.commandExecuteContext(transaction, params), chainID });
  } catch (caught) {
    error = caught;
  }
  return { auth, harness, params, verifyResult, commandResult, error, sender };
}

describe(`${REGISTRATION_FILE}`, () => {
  it('has its 5 cases', () => {
    expect(registrations).toHaveLength(5);
    recordCases(REGISTRATION_FILE, registrations.length);
  });

  describe.each(registrations.map((c) => [c.description, c] as const))('%s', (_, testCase) => {
    const chainID = hex(testCase.input.chainID);
    const bytes = hex(testCase.output.transaction);
    const transaction = Transaction.fromBytes(bytes);

    it('decodes, re-encodes to the same bytes and is statically valid', () => {
      expect(transaction.bytes).toEqual(bytes);
      expect(() => transaction.validate()).not.toThrow();
      expect(transaction.module).toBe('auth');
      expect(transaction.command).toBe('registerMultisignature');
      expect(transaction.senderPublicKey.toString('hex')).toBe(testCase.input.account.publicKey);
      expect(transaction.senderAddress().toString('hex')).toBe(testCase.input.account.address);
    });

    it('passes auth verification, command verification and execution', () => {
      const { auth, harness, params, verifyResult, commandResult, error, sender } = register(transaction, chainID);
      expect(verifyResult).toEqual({ status: VerifyStatus.OK });
      expect(commandResult).toEqual({ status: VerifyStatus.OK });
      expect(error).toBeUndefined();
      // Every member of the fixture is in the group.
      const memberKeys = Object.values(testCase.input.members)
        .map((m) => m.publicKey)
        .sort();
      expect([...params.mandatoryKeys, ...params.optionalKeys].map((k) => k.toString('hex')).sort()).toEqual(memberKeys);
      expect(auth.accounts.get(harness.state, sender)).toEqual({
        nonce: transaction.nonce + 1n,
        numberOfSignatures: params.numberOfSignatures,
        mandatoryKeys: params.mandatoryKeys,
        optionalKeys: params.optionalKeys,
      });
      const events = harness.events.events();
      expect(events.map((e) => e.name)).toEqual(['multisignatureRegistration']);
      expect(events[0]?.topics).toEqual([Buffer.concat([Buffer.from([4]), transaction.id]), sender]);
      expect(events[0]?.data).toEqual(
        codec.encode(multisigRegDataSchema, {
          numberOfSignatures: params.numberOfSignatures,
          mandatoryKeys: params.mandatoryKeys,
          optionalKeys: params.optionalKeys,
        }),
      );
    });

    it('member signatures are over regMultisigMsg under LSK_RMSG_ (re-signed by the fixture keys)', () => {
      const params = decodeRegistrationParams(transaction.params);
      const message = codec.encode(multisigRegMsgSchema, {
        address: transaction.senderAddress(),
        nonce: transaction.nonce,
        numberOfSignatures: params.numberOfSignatures,
        mandatoryKeys: params.mandatoryKeys,
        optionalKeys: params.optionalKeys,
      });
      const byKey = new Map(Object.values(testCase.input.members).map((m) => [m.publicKey, m.privateKey]));
      const keys = [...params.mandatoryKeys, ...params.optionalKeys];
      keys.forEach((key, i) => {
        const privateKey = byKey.get(key.toString('hex')) as string;
        expect(signData(MESSAGE_TAG_MULTISIG_REG, chainID, message, hex(privateKey))).toEqual(params.signatures[i]);
      });
    });

    it('fails on another chain (sender signature invalid)', () => {
      const result = register(transaction, hex('04000000')).verifyResult;
      expect(result.status).toBe(VerifyStatus.FAIL);
    });
  });
});

describe(`${SIGNED_FILE}`, () => {
  it('has its 32 cases', () => {
    expect(signed).toHaveLength(32);
    recordCases(SIGNED_FILE, signed.length);
  });

  describe.each(signed.map((c) => [c.description, c] as const))('%s', (_, testCase) => {
    const chainID = hex(testCase.chainID);
    const transaction = Transaction.fromBytes(hex(testCase.transactionBytes));
    const nonce = BigInt(testCase.nonce);
    const account = testCase.multisigAccount
      ? {
          nonce,
          numberOfSignatures: testCase.multisigAccount.numberOfSignatures,
          mandatoryKeys: testCase.multisigAccount.mandatoryKeys.map(hex),
          optionalKeys: testCase.multisigAccount.optionalKeys.map(hex),
        }
      : { nonce, numberOfSignatures: 0, mandatoryKeys: [], optionalKeys: [] };

    function verifyAt(accountNonce: bigint, onChain = chainID) {
      const { auth, harness } = setup();
      auth.accounts.set(harness.state, addressFromPublicKey(transaction.senderPublicKey), { ...account, nonce: accountNonce });
      return auth.verifyTransaction({ ...harness.transactionVerifyContext(transaction), chainID: onChain });
    }

    it('decodes to the fixture bytes, ID, size and signing digest', () => {
      expect(transaction.bytes.toString('hex')).toBe(testCase.transactionBytes);
      expect(transaction.id.toString('hex')).toBe(testCase.id);
      expect(transaction.size).toBe(testCase.size);
      expect(transaction.signingBytes().toString('hex')).toBe(testCase.signingBytes);
      expect(transactionSigningDigest(transaction, chainID).toString('hex')).toBe(testCase.signingDigest);
    });

    it('verifies OK at the matching nonce, PENDING below it, FAIL above it', () => {
      expect(verifyAt(nonce)).toEqual({ status: VerifyStatus.OK });
      if (nonce > 0n) expect(verifyAt(nonce - 1n).status).toBe(VerifyStatus.PENDING);
      expect(verifyAt(nonce + 1n).status).toBe(VerifyStatus.FAIL);
    });

    it('fails on another chain', () => {
      const other = Buffer.from(chainID);
      other[3] = (other[3] as number) ^ 0xff;
      expect(verifyAt(nonce, other).status).toBe(VerifyStatus.FAIL);
    });

    if (testCase.memberSigning) {
      const memberSigning = testCase.memberSigning;
      it('registers the multisignature group (member signatures valid)', () => {
        const { verifyResult, commandResult, error, harness } = register(transaction, chainID);
        expect(verifyResult.status).toBe(VerifyStatus.OK);
        expect(commandResult?.status).toBe(VerifyStatus.OK);
        expect(error).toBeUndefined();
        expect(harness.events.events().map((e) => e.name)).toEqual(['multisignatureRegistration']);
        const params = decodeRegistrationParams(transaction.params);
        expect(
          codec
            .encode(multisigRegMsgSchema, {
              address: transaction.senderAddress(),
              nonce: transaction.nonce,
              numberOfSignatures: params.numberOfSignatures,
              mandatoryKeys: params.mandatoryKeys,
              optionalKeys: params.optionalKeys,
            })
            .toString('hex'),
        ).toBe(memberSigning.message);
        expect(memberSigning.tag).toBe(MESSAGE_TAG_MULTISIG_REG);
      });
    }

    if (testCase.multisigAccount) {
      it('fails when the account is single-signature', () => {
        const { auth, harness } = setup();
        const result = auth.verifyTransaction({ ...harness.transactionVerifyContext(transaction), chainID });
        // Default account: nonce 0 and one signature expected.
        expect(result.status).toBe(VerifyStatus.FAIL);
      });
    }
  });
});
