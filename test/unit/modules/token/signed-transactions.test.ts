/**
 * The token cases of transactions/signed_transactions.json (made with lisk-transactions 6.1):
 * params decode, validate and re-encode byte for byte under the command schemas, their JSON form
 * is the fixture's, and the command's verify accepts them exactly when the sender's balance
 * covers what lisk-sdk's verify checks (amount; for transferCrossChain amount + message fee).
 */
import { describe, expect, it } from 'vitest';
import { codec, validate } from '../../../../src/codec/index.js';
import { VerifyStatus, type VerificationResult } from '../../../../src/modules/base/index.js';
import {
  InsufficientBalanceError,
  userKey,
  userStore,
  type TransferCrossChainParams,
  type TransferParams,
} from '../../../../src/modules/token/index.js';
import { loadJsonFixture } from '../../../support/fixtures.js';
import { recordCases } from '../../../support/conformance-tally.js';
import { ModuleHarness } from '../../../support/module-harness.js';
import { commandOf, createTokenAndFee, RecordingInteroperability, transactionFromHex } from './token-test-kit.js';

interface SignedCase {
  description: string;
  chainID: string;
  module: string;
  command: string;
  params: Record<string, unknown>;
  paramsBytes: string;
  transactionBytes: string;
  id: string;
}

const cases = loadJsonFixture<{ testCases: SignedCase[] }>('transactions/signed_transactions.json').testCases.filter(
  (testCase) => testCase.module === 'token',
);

describe('token cases of transactions/signed_transactions.json', () => {
  it('has the 13 token cases', () => {
    expect(cases).toHaveLength(13);
    recordCases('transactions/signed_transactions.json', cases.length);
  });

  it.each(cases.map((testCase) => [testCase.description, testCase] as const))('%s', (_label, testCase) => {
    const { token } = createTokenAndFee();
    const command = commandOf(token, testCase.command);
    const tx = transactionFromHex(testCase.transactionBytes);
    expect(tx.id.toString('hex')).toBe(testCase.id);
    expect(tx.params.toString('hex')).toBe(testCase.paramsBytes);

    // Params: decode → validate → JSON form → re-encode.
    const params = codec.decode<TransferParams | TransferCrossChainParams>(command.schema, tx.params);
    validate(command.schema, params);
    expect(codec.toJSON(command.schema, params)).toStrictEqual(testCase.params);
    expect(codec.encode(command.schema, codec.fromJSON(command.schema, testCase.params)).toString('hex')).toBe(testCase.paramsBytes);

    // Verify, on the case's own chain.
    const chainID = Buffer.from(testCase.chainID, 'hex');
    const required =
      'messageFee' in params && params.messageFeeTokenID.equals(params.tokenID) ? params.amount + params.messageFee : params.amount;
    if ('messageFee' in params) {
      token.addDependencies({
        interoperability: new RecordingInteroperability(new Map([[params.receivingChainID.toString('hex'), params.messageFeeTokenID]])),
      });
    }
    const run = (balance: bigint): VerificationResult => {
      const harness = new ModuleHarness();
      const sender = tx.senderAddress();
      userStore.set(harness.state, userKey(sender, params.tokenID), { availableBalance: balance, lockedBalances: [] });
      if ('messageFee' in params && !params.messageFeeTokenID.equals(params.tokenID)) {
        userStore.set(harness.state, userKey(sender, params.messageFeeTokenID), {
          availableBalance: params.messageFee,
          lockedBalances: [],
        });
      }
      const context = { ...harness.commandVerifyContext(tx, params), chainID };
      return command.verify?.(context) as VerificationResult;
    };
    expect(run(required)).toEqual({ status: VerifyStatus.OK });
    if (required > 0n) {
      const short = run(required - 1n);
      expect(short.status).toBe(VerifyStatus.FAIL);
      expect(short.error).toBeInstanceOf(InsufficientBalanceError);
    }
  });
});
