/**
 * Conformance of src/chain transactions with lisk-chain 0.6 / lisk-transactions 6.1 (LIP 0068):
 * every case of transactions/signed_transactions.json and of
 * transactions/multisignature_registration_transaction.json. Bytes round-trip, ID, size, signing
 * bytes and digest, every signature, params encoding, the JSON form, the client minimum fee and
 * static validity are all checked against the values the reference libraries produced.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { areDistinctHeadersContradicting } from '../../src/chain/contradicting-headers.js';
import { BlockHeader } from '../../src/chain/block-header.js';
import { computeMinFee } from '../../src/chain/min-fee.js';
import { Transaction } from '../../src/chain/transaction.js';
import { codec, type Schema } from '../../src/codec/index.js';
import {
  MESSAGE_TAG_BLOCK_HEADER,
  MESSAGE_TAG_MULTISIG_REG,
  MESSAGE_TAG_TRANSACTION,
  addressFromPublicKey,
  encodeLisk32,
  sha256,
  taggedDigest,
  verifyData,
} from '../../src/crypto/index.js';
import { recordCases } from '../support/conformance-tally.js';
import { hex, loadJsonFixture } from '../support/fixtures.js';

const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

interface Signer {
  key: string;
  publicKey: string;
  privateKey: string;
}

interface SignedCase {
  description: string;
  chainID: string;
  module: string;
  command: string;
  paramsSchema: string;
  params: Record<string, unknown>;
  paramsBytes: string;
  nonce: string;
  fee: string;
  senderPublicKey: string;
  senderAddress: string;
  signers: Signer[];
  signingBytes: string;
  signingDigest: string;
  signatures: string[];
  transactionBytes: string;
  id: string;
  size: number;
  minFee: string;
  additionalFee: string;
  minFeeFromSize: string;
  json: Record<string, unknown> & { params: Record<string, unknown> };
  multisigAccount?: { numberOfSignatures: number; mandatoryKeys: string[]; optionalKeys: string[] };
  memberSigning?: { tag: string; messageSchema: string; message: string; memberKeysInSignatureOrder: Signer[] };
  headersInfo?: { generatorKey: string; header1Id: string; header2Id: string; areDistinctHeadersContradicting: boolean };
}

interface ParamsSchemasFile {
  modules: Record<string, Record<string, Schema>>;
}

interface RegisterMultisignatureParams {
  numberOfSignatures: number;
  mandatoryKeys: Buffer[];
  optionalKeys: Buffer[];
  signatures: Buffer[];
}

/** `/auth/command/regMultisigMsg` (LIP 0041): what every member signs under LSK_RMSG_. */
const registrationMessageSchema: Schema = {
  $id: '/test/auth/command/regMultisigMsg',
  type: 'object',
  required: ['address', 'nonce', 'numberOfSignatures', 'mandatoryKeys', 'optionalKeys'],
  properties: {
    address: { dataType: 'bytes', fieldNumber: 1, minLength: 20, maxLength: 20 },
    nonce: { dataType: 'uint64', fieldNumber: 2 },
    numberOfSignatures: { dataType: 'uint32', fieldNumber: 3 },
    mandatoryKeys: { type: 'array', fieldNumber: 4, items: { dataType: 'bytes', minLength: 32, maxLength: 32 } },
    optionalKeys: { type: 'array', fieldNumber: 5, items: { dataType: 'bytes', minLength: 32, maxLength: 32 } },
  },
};

const SIGNED_FILE = 'transactions/signed_transactions.json';
const REGISTRATION_FILE = 'transactions/multisignature_registration_transaction.json';
const paramsSchemas = loadJsonFixture<ParamsSchemasFile>('transactions/command_params_schemas.json').modules;

function paramsSchemaOf(module: string, command: string): Schema {
  const schema = paramsSchemas[module]?.[command];
  if (!schema) throw new Error(`No params schema for ${module}:${command} in command_params_schemas.json`);
  return schema;
}

/** Runs one `it` per case and records how many ran once the file is done. */
function forEachCase<T extends { description: string }>(fixture: string, cases: T[], run: (testCase: T) => void): void {
  let ran = 0;
  cases.forEach((testCase, i) => {
    it(`#${i} ${testCase.description}`, () => {
      run(testCase);
      ran += 1;
    });
  });
  afterAll(() => recordCases(fixture, ran));
}

/** Checks the LSK_RMSG_ member signatures of a registerMultisignature transaction's params. */
function expectMemberSignaturesValid(tx: Transaction, chainID: Buffer, params: RegisterMultisignatureParams): Buffer {
  const message = codec.encode(registrationMessageSchema, {
    address: tx.senderAddress(),
    nonce: tx.nonce,
    numberOfSignatures: params.numberOfSignatures,
    mandatoryKeys: params.mandatoryKeys,
    optionalKeys: params.optionalKeys,
  });
  const keys = [...params.mandatoryKeys, ...params.optionalKeys];
  expect(params.signatures).toHaveLength(keys.length);
  keys.forEach((key, i) => {
    expect(verifyData(MESSAGE_TAG_MULTISIG_REG, chainID, message, params.signatures[i] as Buffer, key)).toBe(true);
  });
  return message;
}

describe(SIGNED_FILE, () => {
  const cases = loadJsonFixture<{ testCases: SignedCase[] }>(SIGNED_FILE).testCases;

  it('holds 32 cases', () => {
    expect(cases).toHaveLength(32);
  });

  forEachCase(SIGNED_FILE, cases, (testCase) => {
    const chainID = hex(testCase.chainID);
    const bytes = hex(testCase.transactionBytes);

    // Decoding and re-encoding give the reference bytes; ID, size and sender are derived from them.
    const tx = Transaction.fromBytes(bytes);
    expect(toHex(tx.bytes)).toBe(testCase.transactionBytes);
    expect(toHex(tx.id)).toBe(testCase.id);
    expect(toHex(sha256(bytes))).toBe(testCase.id);
    expect(tx.size).toBe(testCase.size);
    expect(bytes.length).toBe(testCase.size);
    expect(tx.module).toBe(testCase.module);
    expect(tx.command).toBe(testCase.command);
    expect(tx.nonce).toBe(BigInt(testCase.nonce));
    expect(tx.fee).toBe(BigInt(testCase.fee));
    expect(toHex(tx.senderPublicKey)).toBe(testCase.senderPublicKey);
    expect(encodeLisk32(tx.senderAddress())).toBe(testCase.senderAddress);
    expect(tx.signatures.map(toHex)).toEqual(testCase.signatures);

    // Signing bytes and the digest every signer signs: sha256("LSK_TX_" ‖ chainID ‖ signingBytes).
    const signingBytes = tx.signingBytes();
    expect(toHex(signingBytes)).toBe(testCase.signingBytes);
    expect(toHex(tx.withSignatures([]).bytes)).toBe(testCase.signingBytes);
    const digest = sha256(Buffer.concat([Buffer.from(MESSAGE_TAG_TRANSACTION, 'ascii'), chainID, signingBytes]));
    expect(toHex(digest)).toBe(testCase.signingDigest);
    expect(toHex(taggedDigest(MESSAGE_TAG_TRANSACTION, chainID, signingBytes))).toBe(testCase.signingDigest);

    // Every signature verifies for its signer: the sender, or key i of a multisignature account.
    const { multisigAccount } = testCase;
    if (multisigAccount) {
      const keys = [...multisigAccount.mandatoryKeys, ...multisigAccount.optionalKeys];
      expect(tx.signatures).toHaveLength(keys.length);
      let present = 0;
      tx.signatures.forEach((signature, i) => {
        if (signature.length === 0) return;
        present += 1;
        expect(verifyData(MESSAGE_TAG_TRANSACTION, chainID, signingBytes, signature, hex(keys[i] as string))).toBe(true);
      });
      expect(present).toBe(multisigAccount.numberOfSignatures);
      for (const signer of testCase.signers) {
        const position = keys.indexOf(signer.publicKey);
        expect(position).toBeGreaterThanOrEqual(0);
        expect(verifyData(MESSAGE_TAG_TRANSACTION, chainID, signingBytes, tx.signatures[position] as Buffer, hex(signer.publicKey))).toBe(
          true,
        );
      }
    } else {
      expect(tx.signatures).toHaveLength(1);
      expect(testCase.signers.map((signer) => signer.publicKey)).toEqual([testCase.senderPublicKey]);
      expect(verifyData(MESSAGE_TAG_TRANSACTION, chainID, signingBytes, tx.signatures[0] as Buffer, tx.senderPublicKey)).toBe(true);
      // A signature does not verify under another chain ID.
      const otherChain = Buffer.from(chainID);
      otherChain[3] ^= 0xff;
      expect(verifyData(MESSAGE_TAG_TRANSACTION, otherChain, signingBytes, tx.signatures[0] as Buffer, tx.senderPublicKey)).toBe(false);
    }

    // Params: the command's schema encodes the JSON params to exactly the params bytes.
    const paramsSchema = paramsSchemaOf(testCase.module, testCase.command);
    expect(paramsSchema.$id).toBe(testCase.paramsSchema);
    expect(toHex(tx.params)).toBe(testCase.paramsBytes);
    expect(toHex(codec.encode(paramsSchema, codec.fromJSON(paramsSchema, testCase.params)))).toBe(testCase.paramsBytes);
    const decodedParams = codec.decode(paramsSchema, tx.params);
    expect(codec.toJSON(paramsSchema, decodedParams)).toEqual(testCase.params);

    // JSON: the fixture shows params decoded (and keys in schema order, as lisk-transactions
    // writes them); the values are otherwise those of Transaction.toJSON(). The key order of the
    // node's JSON is checked against real RPC answers in chain-blocks.test.ts.
    const json = tx.toJSON();
    expect({ ...json, params: testCase.params }).toEqual(testCase.json);
    expect(json.params).toBe(testCase.paramsBytes);
    expect(toHex(Transaction.fromJSON(json).bytes)).toBe(testCase.transactionBytes);

    // Fees: the client rule (lisk-transactions computeMinFee) and the node rule (1000 × size).
    const emptySignatures = tx.signatures.filter((signature) => signature.length === 0).length;
    const feeOptions = { numberOfSignatures: tx.signatures.length - emptySignatures, numberOfEmptySignatures: emptySignatures };
    expect(computeMinFee(tx, feeOptions).toString()).toBe(testCase.minFee);
    expect((1000n * BigInt(tx.size)).toString()).toBe(testCase.minFeeFromSize);
    expect(tx.fee).toBeGreaterThanOrEqual(BigInt(testCase.minFeeFromSize));
    const additionalFee = BigInt(testCase.additionalFee);
    const feeWithExtras = computeMinFee(tx, { ...feeOptions, additionalFee });
    expect(feeWithExtras - additionalFee).toBeGreaterThanOrEqual(BigInt(testCase.minFee));
    if (!/fee above the minimum|fee 200000/.test(testCase.description)) expect(feeWithExtras).toBe(tx.fee);

    expect(() => tx.validate()).not.toThrow();

    // registerMultisignature: the member signatures of the params (LSK_RMSG_).
    if (testCase.memberSigning) {
      const params = decodedParams as unknown as RegisterMultisignatureParams;
      const message = expectMemberSignaturesValid(tx, chainID, params);
      expect(toHex(message)).toBe(testCase.memberSigning.message);
      expect(testCase.memberSigning.memberKeysInSignatureOrder.map((member) => member.publicKey)).toEqual(
        [...params.mandatoryKeys, ...params.optionalKeys].map(toHex),
      );
    }

    // reportMisbehavior: the two headers in the params are signed and contradicting (docs/protocol/bft.md).
    if (testCase.headersInfo) {
      const { header1, header2 } = decodedParams as { header1: Buffer; header2: Buffer };
      const first = BlockHeader.fromBytes(header1);
      const second = BlockHeader.fromBytes(header2);
      expect(toHex(first.bytes)).toBe(toHex(header1));
      expect(toHex(second.bytes)).toBe(toHex(header2));
      expect(toHex(first.id)).toBe(testCase.headersInfo.header1Id);
      expect(toHex(second.id)).toBe(testCase.headersInfo.header2Id);
      const generatorKey = hex(testCase.headersInfo.generatorKey);
      for (const header of [first, second]) {
        expect(header.isSignatureValid(generatorKey, chainID)).toBe(true);
        expect(verifyData(MESSAGE_TAG_BLOCK_HEADER, chainID, header.signingBytes(), header.signature, generatorKey)).toBe(true);
      }
      // A validator's address comes from its account key, not its generator key: both headers name it.
      expect(first.generatorAddress.equals(second.generatorAddress)).toBe(true);
      expect(first.generatorAddress.equals(addressFromPublicKey(generatorKey))).toBe(false);
      expect(areDistinctHeadersContradicting(first, second)).toBe(testCase.headersInfo.areDistinctHeadersContradicting);
    }
  });
});

interface RegistrationCase {
  description: string;
  input: {
    account: { privateKey: string; publicKey: string; address: string };
    chainID: string;
    members: Record<string, { publicKey: string }>;
  };
  output: { transaction: string };
}

describe(REGISTRATION_FILE, () => {
  const cases = loadJsonFixture<{ testCases: RegistrationCase[] }>(REGISTRATION_FILE).testCases;
  const paramsSchema = paramsSchemaOf('auth', 'registerMultisignature');

  it('holds 5 cases', () => {
    expect(cases).toHaveLength(5);
  });

  forEachCase(REGISTRATION_FILE, cases, ({ input, output }) => {
    const chainID = hex(input.chainID);
    const bytes = hex(output.transaction);
    const tx = Transaction.fromBytes(bytes);

    expect(toHex(tx.bytes)).toBe(output.transaction);
    expect(toHex(tx.id)).toBe(toHex(sha256(bytes)));
    expect(tx.module).toBe('auth');
    expect(tx.command).toBe('registerMultisignature');
    expect(toHex(tx.senderPublicKey)).toBe(input.account.publicKey);
    expect(toHex(tx.senderAddress())).toBe(input.account.address);

    // The sender signs the transaction alone (it is a single-signature account until executed).
    expect(tx.signatures).toHaveLength(1);
    expect(verifyData(MESSAGE_TAG_TRANSACTION, chainID, tx.signingBytes(), tx.signatures[0] as Buffer, tx.senderPublicKey)).toBe(true);
    expect(() => tx.validate()).not.toThrow();

    // Members' LSK_RMSG_ signatures, one per key in mandatory ‖ optional order.
    const params = codec.decode<RegisterMultisignatureParams>(paramsSchema, tx.params);
    expect(toHex(codec.encode(paramsSchema, params))).toBe(toHex(tx.params));
    expectMemberSignaturesValid(tx, chainID, params);
    const memberKeys = new Set(Object.values(input.members).map((member) => member.publicKey));
    for (const key of [...params.mandatoryKeys, ...params.optionalKeys]) expect(memberKeys.has(toHex(key))).toBe(true);
  });
});
