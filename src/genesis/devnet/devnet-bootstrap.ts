/**
 * The devnet's bootstrap transactions: every dev validator but the legacy one registers its keys
 * and stakes on itself.
 *
 * Why they are needed:
 * - `legacy:registerKeys` (nonce 0): the genesis registers every validator banned and without a
 *   BLS key (pos `useInvalidBLSKey`, see devnet-assets.ts). Registering the dev keys of
 *   dev-validators.json gives each validator its BLS key (certificates need them) and lifts its
 *   ban, which also enters it in PoS's eligible-validators index with its genesis self-stake, so
 *   pos can elect it once the init rounds are over.
 * - `pos:stake` of baseStakeAmount on itself (nonce 1): lisk-sdk's pos genesis never writes the
 *   eligible-validators index, only commands do; this stake is the one the devnet shipped before
 *   it had banned validators, kept so that every registered validator has also staked through a
 *   command (a chain whose validators only staked at genesis elects no one after its init rounds).
 *
 * The legacy validator (spec.legacyValidatorIndex) gets neither: it is the one a newcomer
 * registers by hand with `transaction:create legacy registerKeys` (DEV_PASSPHRASES.md).
 *
 * The transactions are deterministic (fixed nonces, minimum fee, Ed25519 signatures are
 * deterministic): a node on a fresh devnet submits them to its own pool at start.
 */
import { computeMinFee } from '../../chain/min-fee.js';
import { Transaction } from '../../chain/transaction.js';
import { codec, type Schema } from '../../codec/index.js';
import { PRESET_BOOTSTRAP_FILE } from '../../config/presets.js';
import { addressFromPublicKey, MESSAGE_TAG_TRANSACTION, signData, type ValidatorKeys } from '../../crypto/index.js';
import { registerKeysParamsSchema } from '../../modules/legacy/schemas.js';
import { stakeParamsSchema } from '../../modules/pos/schemas.js';
import type { DevnetKeys } from './devnet-keys.js';
import { FormatError } from '../../errors.js';

/** lisk-sdk's default baseStakeAmount (10 LSK): stakes must be multiples of it. */
export const BOOTSTRAP_STAKE_AMOUNT = 1_000_000_000n;

interface BootstrapCommand {
  readonly module: string;
  readonly command: string;
  readonly schema: Schema;
  readonly params: object;
}

function signed(validator: ValidatorKeys, nonce: bigint, call: BootstrapCommand, chainID: Buffer, minFeePerByte: number): Transaction {
  const params = codec.encode(call.schema, call.params);
  const unsigned = { module: call.module, command: call.command, nonce, senderPublicKey: validator.publicKey, params };
  const fee = computeMinFee(unsigned, { minFeePerByte });
  const draft = new Transaction({ ...unsigned, fee, signatures: [] });
  const signature = signData(MESSAGE_TAG_TRANSACTION, chainID, draft.signingBytes(), validator.privateKey);
  return draft.withSignatures([signature]);
}

/**
 * For every validator except `legacyValidatorIndex`, in index order: its `legacy:registerKeys`
 * with the keys of dev-validators.json (nonce 0), then its self-stake of BOOTSTRAP_STAKE_AMOUNT
 * (nonce 1).
 */
export function devnetBootstrapTransactions(
  keys: DevnetKeys,
  chainID: Buffer,
  legacyValidatorIndex: number,
  minFeePerByte = 1000,
): Transaction[] {
  return keys.validators.flatMap((validator, index) => {
    if (index === legacyValidatorIndex) return [];
    const registerKeys: BootstrapCommand = {
      module: 'legacy',
      command: 'registerKeys',
      schema: registerKeysParamsSchema,
      params: { blsKey: validator.blsKey, proofOfPossession: validator.blsProofOfPossession, generatorKey: validator.generatorKey },
    };
    const stake: BootstrapCommand = {
      module: 'pos',
      command: 'stake',
      schema: stakeParamsSchema,
      params: { stakes: [{ validatorAddress: addressFromPublicKey(validator.publicKey), amount: BOOTSTRAP_STAKE_AMOUNT }] },
    };
    return [signed(validator, 0n, registerKeys, chainID, minFeePerByte), signed(validator, 1n, stake, chainID, minFeePerByte)];
  });
}

/** The file a preset ships its bootstrap transactions in (next to config.json). */
export const BOOTSTRAP_TRANSACTIONS_FILE = PRESET_BOOTSTRAP_FILE;

/** The file's content: the transactions as hex, in submission order. */
export function bootstrapTransactionsFile(transactions: readonly Transaction[]): { description: string; transactions: string[] } {
  return {
    description:
      'Devnet bootstrap, submitted to the pool of a fresh devnet node: for every dev validator but the legacy one, ' +
      'legacy:registerKeys with its dev keys (nonce 0: BLS key, unban) then pos:stake of 10 LSK on itself (nonce 1). ' +
      'See src/genesis/devnet/devnet-bootstrap.ts.',
    transactions: transactions.map((transaction) => transaction.bytes.toString('hex')),
  };
}

/** Reads a bootstrap transactions file back (throws on a malformed file). */
export function readBootstrapTransactions(json: unknown): Transaction[] {
  const list = (json as { transactions?: unknown } | null)?.transactions;
  if (!Array.isArray(list) || !list.every((item) => typeof item === 'string' && /^([0-9a-f]{2})+$/.test(item))) {
    throw new FormatError('A bootstrap transactions file must hold {"transactions": [hex, ...]}.');
  }
  return list.map((hex) => Transaction.fromBytes(Buffer.from(hex as string, 'hex')));
}
