/** Real keys and real signed transactions for the auth and fee module tests (no mocks). */
import { Transaction } from '../../../../src/chain/transaction.js';
import { codec } from '../../../../src/codec/index.js';
import {
  keyPairFromSeed,
  MESSAGE_TAG_MULTISIG_REG,
  MESSAGE_TAG_TRANSACTION,
  sha256,
  signData,
  type Ed25519KeyPair,
} from '../../../../src/crypto/index.js';
import { multisigRegMsgSchema, registerMultisignatureParamsSchema } from '../../../../src/modules/auth/schemas.js';
import type { RegisterMultisignatureParams } from '../../../../src/modules/auth/index.js';
import type { EndpointContext } from '../../../../src/modules/base/index.js';
import { silentLogger } from '../../../../src/logger.js';
import type { ModuleHarness } from '../../../support/module-harness.js';

export const CHAIN_ID = Buffer.from('04000000', 'hex');

/** A deterministic key pair per label. */
export function keyPair(label: string): Ed25519KeyPair {
  return keyPairFromSeed(sha256(Buffer.from(label, 'utf8')));
}

/** Key pairs sorted by public key, as multisignature groups require. */
export function sortedKeyPairs(...labels: string[]): Ed25519KeyPair[] {
  return labels.map(keyPair).sort((a, b) => a.publicKey.compare(b.publicKey));
}

export interface UnsignedFields {
  module?: string;
  command?: string;
  nonce?: bigint;
  fee?: bigint;
  senderPublicKey: Buffer;
  params?: Buffer;
}

export function unsignedTransaction(fields: UnsignedFields): Transaction {
  return new Transaction({
    module: fields.module ?? 'token',
    command: fields.command ?? 'transfer',
    nonce: fields.nonce ?? 0n,
    fee: fields.fee ?? 200_000n,
    senderPublicKey: fields.senderPublicKey,
    params: fields.params ?? Buffer.alloc(10, 7),
    signatures: [],
  });
}

/** Signs with each signer in order; `null` leaves an empty signature at that position. */
export function signTransaction(
  transaction: Transaction,
  signers: readonly (Ed25519KeyPair | null)[],
  chainID: Buffer = CHAIN_ID,
): Transaction {
  const bytes = transaction.signingBytes();
  return transaction.withSignatures(
    signers.map((signer) => (signer === null ? Buffer.alloc(0) : signData(MESSAGE_TAG_TRANSACTION, chainID, bytes, signer.privateKey))),
  );
}

/** A single-signature transaction of `sender`. */
export function singleSigned(sender: Ed25519KeyPair, fields: Omit<UnsignedFields, 'senderPublicKey'> = {}): Transaction {
  return signTransaction(unsignedTransaction({ ...fields, senderPublicKey: sender.publicKey }), [sender]);
}

/** Member signatures (LSK_RMSG_) of a registration by `senderAddress` at `nonce`. */
export function memberSignatures(
  senderAddress: Buffer,
  nonce: bigint,
  group: { numberOfSignatures: number; mandatory: Ed25519KeyPair[]; optional: Ed25519KeyPair[] },
  chainID: Buffer = CHAIN_ID,
): Buffer[] {
  const message = codec.encode(multisigRegMsgSchema, {
    address: senderAddress,
    nonce,
    numberOfSignatures: group.numberOfSignatures,
    mandatoryKeys: group.mandatory.map((k) => k.publicKey),
    optionalKeys: group.optional.map((k) => k.publicKey),
  });
  return [...group.mandatory, ...group.optional].map((member) => signData(MESSAGE_TAG_MULTISIG_REG, chainID, message, member.privateKey));
}

export function encodeRegistrationParams(params: RegisterMultisignatureParams): Buffer {
  return codec.encode(registerMultisignatureParamsSchema, params);
}

export function decodeRegistrationParams(bytes: Buffer): RegisterMultisignatureParams {
  return codec.decode<RegisterMultisignatureParams>(registerMultisignatureParamsSchema, bytes);
}

/** An endpoint call over the harness state (as the RPC layer builds it at the tip). */
export function endpointContext(harness: ModuleHarness, params: Record<string, unknown> = {}, chainID = CHAIN_ID): EndpointContext {
  return { state: harness.state, chainID, logger: silentLogger, header: harness.header, params };
}
