/**
 * The devnet's bootstrap transactions: one self-stake per dev validator.
 *
 * Why they are needed: PoS elects validators from its eligible-validators index, and lisk-sdk's
 * pos genesis (initGenesisState / finalizeGenesisState) never writes that index; only commands
 * (stake, registerValidator, ...) do. A chain whose validators only staked at genesis therefore
 * has no one to elect once its init rounds are over, and its validator set shrinks round after
 * round to a single validator (Lisk Core's own devnet behaves the same way). One stake of
 * baseStakeAmount from each dev validator to itself, in the first blocks, puts every validator
 * in the index with its full weight, so the devnet keeps its 7 active + 2 standby validators.
 *
 * The transactions are deterministic (nonce 0, minimum fee, Ed25519 signatures are
 * deterministic): a node on a fresh devnet can submit them to its own pool at start.
 */
import { computeMinFee } from '../../chain/min-fee.js';
import { Transaction } from '../../chain/transaction.js';
import { codec } from '../../codec/index.js';
import { PRESET_BOOTSTRAP_FILE } from '../../config/presets.js';
import { addressFromPublicKey, MESSAGE_TAG_TRANSACTION, signData } from '../../crypto/index.js';
import { stakeParamsSchema } from '../../modules/pos/schemas.js';
import type { DevnetKeys } from './devnet-keys.js';

/** lisk-sdk's default baseStakeAmount (10 LSK): stakes must be multiples of it. */
export const BOOTSTRAP_STAKE_AMOUNT = 1_000_000_000n;

/** One signed `pos:stake` per validator, staking BOOTSTRAP_STAKE_AMOUNT on itself. */
export function devnetBootstrapTransactions(keys: DevnetKeys, chainID: Buffer, minFeePerByte = 1000): Transaction[] {
  return keys.validators.map(validator => {
    const params = codec.encode(stakeParamsSchema, {
      stakes: [{ validatorAddress: addressFromPublicKey(validator.publicKey), amount: BOOTSTRAP_STAKE_AMOUNT }],
    });
    const unsigned = { module: 'pos', command: 'stake', nonce: 0n, senderPublicKey: validator.publicKey, params };
    const fee = computeMinFee(unsigned, { minFeePerByte });
    const draft = new Transaction({ ...unsigned, fee, signatures: [] });
    const signature = signData(MESSAGE_TAG_TRANSACTION, chainID, draft.signingBytes(), validator.privateKey);
    return draft.withSignatures([signature]);
  });
}

/** The file a preset ships its bootstrap transactions in (next to config.json). */
export const BOOTSTRAP_TRANSACTIONS_FILE = PRESET_BOOTSTRAP_FILE;

/** The file's content: the transactions as hex, in submission order. */
export function bootstrapTransactionsFile(transactions: readonly Transaction[]): { description: string; transactions: string[] } {
  return {
    description:
      'Devnet bootstrap: one pos:stake per dev validator (nonce 0), to be submitted to the pool of a fresh devnet node. ' +
      'Genesis stakes do not make validators eligible for election; these stakes do (see src/genesis/devnet/devnet-bootstrap.ts).',
    transactions: transactions.map(transaction => transaction.bytes.toString('hex')),
  };
}

/** Reads a bootstrap transactions file back (throws on a malformed file). */
export function readBootstrapTransactions(json: unknown): Transaction[] {
  const list = (json as { transactions?: unknown } | null)?.transactions;
  if (!Array.isArray(list) || !list.every(item => typeof item === 'string' && /^([0-9a-f]{2})+$/.test(item))) {
    throw new Error('A bootstrap transactions file must hold {"transactions": [hex, ...]}.');
  }
  return list.map(hex => Transaction.fromBytes(Buffer.from(hex as string, 'hex')));
}
