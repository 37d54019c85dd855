/**
 * The CCU transaction the relayer posts: submitMainchainCrossChainUpdate towards the mainchain,
 * submitSidechainCrossChainUpdate towards a sidechain, signed by the relayer key for the
 * receiving chain. Its fee is the configured `ccuFee` (plus the receiving chain's account
 * initialization fee when the relayer has no account there yet), raised to the minimum fee when
 * lower: 1000 beddows per byte of the signed transaction plus that initialization fee
 * (computeMinFee, as lisk-sdk's relayer asks lisk-transactions for it).
 */
import { computeMinFee } from '../../chain/min-fee.js';
import { Transaction } from '../../chain/transaction.js';
import { codec } from '../../codec/index.js';
import { MESSAGE_TAG_TRANSACTION, publicKeyFromPrivateKey, signData } from '../../crypto/index.js';
import { crossChainUpdateParamsSchema } from '../../modules/interoperability/schemas.js';
import type { CcuParams } from './ccu-builder.js';
import { isMainchainID } from './ccm-events.js';

export interface CcuTransactionInput {
  readonly params: CcuParams;
  readonly receivingChainID: Buffer;
  /** The relayer account's nonce on the receiving chain. */
  readonly nonce: bigint;
  readonly ccuFee: bigint;
  /** The receiving chain's user account initialization fee when the relayer has no account there, else 0. */
  readonly additionalFee: bigint;
  /** 64-byte Ed25519 private key of the relayer. */
  readonly privateKey: Buffer;
}

export function signedCcuTransaction(input: CcuTransactionInput): Transaction {
  const command = isMainchainID(input.receivingChainID) ? 'submitMainchainCrossChainUpdate' : 'submitSidechainCrossChainUpdate';
  const params = codec.encode(crossChainUpdateParamsSchema, input.params);
  const fields = {
    module: 'interoperability',
    command,
    nonce: input.nonce,
    senderPublicKey: publicKeyFromPrivateKey(input.privateKey),
    params,
  };
  const minFee = computeMinFee(fields, { additionalFee: input.additionalFee });
  let fee = input.ccuFee + input.additionalFee;
  if (fee < minFee) fee = minFee;
  const unsigned = new Transaction({ ...fields, fee, signatures: [] });
  return unsigned.withSignatures([signData(MESSAGE_TAG_TRANSACTION, input.receivingChainID, unsigned.signingBytes(), input.privateKey)]);
}
