/**
 * Transaction signature rules (LIP 0041 "Transaction verification";
 * lisk-sdk auth/utils.ts verifySignatures). This is the hottest code of block processing: the
 * signing digest H("LSK_TX_" ‖ chainID ‖ signingBytes) is computed once per transaction and
 * every signature is checked against it directly (libsodium strict verification).
 */
import { MESSAGE_TAG_TRANSACTION, sha256, verifyDigest, type Ed25519Check, type VerifiedSignatures } from '../../crypto/index.js';
import type { ExecutionTransaction } from '../base/index.js';
import type { AuthAccount } from './stores.js';

/** One Ed25519 check over the transaction's signing digest. */
export interface SignatureCheck {
  readonly publicKey: Buffer;
  readonly signature: Buffer;
}

/**
 * What verifying a transaction's signatures amounts to, in lisk-sdk's order: run `checks` in
 * order (the first invalid one is the error); if they all pass and `failure` is set, that is the
 * error. A batch verifier (worker pool) can run the checks of many transactions at once and
 * still report exactly the error lisk-sdk would.
 */
export interface SignaturePlan {
  readonly checks: readonly SignatureCheck[];
  readonly failure?: string;
}

/** The signature checks `account` demands of `transaction` (no cryptography yet). */
export function planTransactionSignatures(transaction: ExecutionTransaction, account: AuthAccount): SignaturePlan {
  const { signatures } = transaction;
  if (account.numberOfSignatures === 0) {
    if (signatures.length !== 1) {
      return {
        checks: [],
        failure: `Transactions from a single signature account should have exactly one signature. Found ${signatures.length} signatures.`,
      };
    }
    return { checks: [{ publicKey: transaction.senderPublicKey, signature: signatures[0] as Buffer }] };
  }

  const mandatoryCount = account.mandatoryKeys.length;
  const keyCount = mandatoryCount + account.optionalKeys.length;
  let nonEmpty = 0;
  for (const signature of signatures) if (signature.length !== 0) nonEmpty += 1;
  if (nonEmpty !== account.numberOfSignatures || signatures.length !== keyCount) {
    return {
      checks: [],
      failure: `Transaction signatures does not match required number of signatures: '${account.numberOfSignatures}' for transaction with id '${transaction.id.toString('hex')}'`,
    };
  }

  const checks: SignatureCheck[] = [];
  for (let i = 0; i < keyCount; i += 1) {
    const signature = signatures[i] as Buffer;
    const publicKey = (i < mandatoryCount ? account.mandatoryKeys[i] : account.optionalKeys[i - mandatoryCount]) as Buffer;
    if (signature.length !== 0) {
      checks.push({ publicKey, signature });
    } else if (i < mandatoryCount) {
      // An empty optional signature is fine; an empty mandatory one ends the verification here.
      return { checks, failure: 'Missing signature for a mandatory key.' };
    }
  }
  return { checks };
}

const TRANSACTION_TAG = Buffer.from(MESSAGE_TAG_TRANSACTION, 'utf8');

/**
 * The last digest computed per transaction object. A block's transactions are planned for the
 * batch verifier and then verified one by one, so each digest is asked for at least twice;
 * transactions are immutable, so a digest stays right for as long as its chain ID is the same.
 */
const signingDigests = new WeakMap<ExecutionTransaction, { readonly chainID: Buffer; readonly digest: Buffer }>();

/**
 * The signing digest every signer of `transaction` signs on chain `chainID` (LIP 0068):
 * H(tag ‖ chainID ‖ signing bytes), hashed in one call (the native SHA-256 when it is loaded).
 */
export function transactionSigningDigest(transaction: ExecutionTransaction, chainID: Buffer): Buffer {
  const kept = signingDigests.get(transaction);
  if (kept?.chainID.equals(chainID)) return kept.digest;
  const digest = sha256(Buffer.concat([TRANSACTION_TAG, chainID, transaction.signingBytes()]));
  signingDigests.set(transaction, { chainID: Buffer.from(chainID), digest });
  return digest;
}

/** lisk-sdk's message for a signature that does not verify. */
export function invalidSignatureMessage(signature: Buffer, transactionID: Buffer): string {
  return `Failed to validate signature '${signature.toString('hex')}' for transaction with id '${transactionID.toString('hex')}'`;
}

/**
 * Verifies the signatures of `transaction` for the sender's `account`; returns the reason it
 * fails (lisk-sdk's message), or undefined when every required signature is valid. Checks found
 * in `verified` (a batch verified them already) are not made again; the order, and so the error
 * reported, stays lisk-sdk's.
 */
export function checkTransactionSignatures(
  transaction: ExecutionTransaction,
  chainID: Buffer,
  account: AuthAccount,
  verified?: VerifiedSignatures,
): string | undefined {
  const plan = planTransactionSignatures(transaction, account);
  if (plan.checks.length > 0) {
    const digest = transactionSigningDigest(transaction, chainID);
    for (const { publicKey, signature } of plan.checks) {
      const check = { digest, signature, publicKey };
      if (verified?.has(check) !== true && !verifyDigest(digest, signature, publicKey)) {
        return invalidSignatureMessage(signature, transaction.id);
      }
    }
  }
  return plan.failure;
}

/** The Ed25519 checks checkTransactionSignatures makes, as a batch verifier takes them. */
export function transactionSignatureChecks(transaction: ExecutionTransaction, chainID: Buffer, account: AuthAccount): Ed25519Check[] {
  const { checks } = planTransactionSignatures(transaction, account);
  if (checks.length === 0) return [];
  const digest = transactionSigningDigest(transaction, chainID);
  return checks.map(({ publicKey, signature }) => ({ digest, signature, publicKey }));
}
