/**
 * The CCU transaction the relayer posts: submitMainchainCrossChainUpdate towards the mainchain,
 * submitSidechainCrossChainUpdate towards a sidechain, signed by the relayer key for the
 * receiving chain. Its fee is the configured `ccuFee` (plus the receiving chain's account
 * initialization fee when the relayer has no account there yet), raised to the minimum fee when
 * lower: 1000 beddows per byte of the signed transaction plus that initialization fee, as
 * lisk-sdk v6.1.0 elements/lisk-transactions/src/fee.ts (computeMinFee) counts it.
 */
import { Transaction } from '../../chain/transaction.js';
import { codec } from '../../codec/index.js';
import { MESSAGE_TAG_TRANSACTION, publicKeyFromPrivateKey, signData } from '../../crypto/index.js';
import { crossChainUpdateParamsSchema } from '../../modules/interoperability/schemas.js';
import type { CcuParams } from './ccu-builder.js';
import { isMainchainID } from './ccm-events.js';

const MIN_FEE_PER_BYTE = 1000n;
const SIGNATURE_LENGTH = 64;

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
  const senderPublicKey = publicKeyFromPrivateKey(input.privateKey);
  const withFee = (fee: bigint, signatures: Buffer[]) =>
    new Transaction({ module: 'interoperability', command, nonce: input.nonce, fee, senderPublicKey, params, signatures });
  // The fee's own varint may lengthen the transaction: grow the fee until the size stops changing.
  let minFee = input.additionalFee;
  for (;;) {
    const next = BigInt(withFee(minFee, [Buffer.alloc(SIGNATURE_LENGTH)]).size) * MIN_FEE_PER_BYTE + input.additionalFee;
    if (next <= minFee) break;
    minFee = next;
  }
  let fee = input.ccuFee + input.additionalFee;
  if (fee < minFee) fee = minFee;
  const unsigned = withFee(fee, []);
  return unsigned.withSignatures([signData(MESSAGE_TAG_TRANSACTION, input.receivingChainID, unsigned.signingBytes(), input.privateKey)]);
}
