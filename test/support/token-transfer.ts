/**
 * A signed token:transfer from a passphrase's first account, as the devnet e2e tests send one
 * through a node's pool.
 */
import { Transaction } from '../../src/chain/transaction.js';
import { codec } from '../../src/codec/index.js';
import { decodeLisk32, ed25519KeyPairFromPassphrase, MESSAGE_TAG_TRANSACTION, signData } from '../../src/crypto/index.js';
import { transferParamsSchema } from '../../src/modules/token/schemas.js';

export interface TransferRequest {
  readonly passphrase: string;
  readonly chainID: Buffer;
  readonly tokenID: Buffer;
  readonly recipient: string;
  readonly amount: bigint;
  readonly fee: bigint;
  readonly data?: string;
  readonly nonce?: bigint;
}

/** The transfer signed by account `m/44'/134'/0'` of `passphrase` for `chainID`. */
export function signedTransfer(request: TransferRequest): Transaction {
  const sender = ed25519KeyPairFromPassphrase(request.passphrase, "m/44'/134'/0'");
  const params = codec.encode(transferParamsSchema, {
    tokenID: request.tokenID,
    amount: request.amount,
    recipientAddress: decodeLisk32(request.recipient),
    data: request.data ?? '',
  });
  const unsigned = new Transaction({
    module: 'token',
    command: 'transfer',
    nonce: request.nonce ?? 0n,
    fee: request.fee,
    senderPublicKey: sender.publicKey,
    params,
    signatures: [],
  });
  return unsigned.withSignatures([signData(MESSAGE_TAG_TRANSACTION, request.chainID, unsigned.signingBytes(), sender.privateKey)]);
}
