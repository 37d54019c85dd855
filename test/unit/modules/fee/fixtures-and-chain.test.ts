/**
 * The fee module against real data: the minimum-fee and balance checks of every signed
 * transaction fixture, and the fee handling of every transaction of chains/dev (lock, unlock,
 * burn and generatorFeeProcessed, emitted by the real token module and ours) compared with
 * events.ndjson. Expected behaviour: lisk-sdk fee/module.ts, LIP 0048.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Block } from '../../../../src/chain/block.js';
import { Transaction } from '../../../../src/chain/transaction.js';
import { VerifyStatus } from '../../../../src/modules/base/index.js';
import { recordCases } from '../../../support/conformance-tally.js';
import { fixturePath, hex, loadJsonFixture } from '../../../support/fixtures.js';
import { fund, setupFee } from './support.js';

interface SignedCase {
  description: string;
  chainID: string;
  transactionBytes: string;
  fee: string;
  size: number;
  minFeeFromSize: string;
}

const SIGNED_FILE = 'transactions/signed_transactions.json';
const signed = loadJsonFixture<{ testCases: SignedCase[] }>(SIGNED_FILE).testCases;

describe(`fee over ${SIGNED_FILE}`, () => {
  it('has its 32 cases', () => {
    expect(signed).toHaveLength(32);
    recordCases(SIGNED_FILE, signed.length);
  });

  it.each(signed.map((c) => [c.description, c] as const))('%s', (_, testCase) => {
    const chainID = hex(testCase.chainID);
    const transaction = Transaction.fromBytes(hex(testCase.transactionBytes));
    expect(transaction.size).toBe(testCase.size);
    expect(transaction.fee).toBe(BigInt(testCase.fee));
    const setup = setupFee({ chainID });
    // Default fee token: the chain's native token chainID ‖ 00000000.
    expect(setup.tokenID.toString('hex')).toBe(`${testCase.chainID}00000000`);
    const verify = () => setup.fee.verifyTransaction({ ...setup.harness.transactionVerifyContext(transaction), chainID });

    expect(verify().error?.message).toBe('Insufficient balance.');
    fund(setup, transaction.senderAddress(), transaction.fee - 1n);
    expect(verify().error?.message).toBe('Insufficient balance.');
    fund(setup, transaction.senderAddress(), transaction.fee);
    expect(verify()).toEqual({ status: VerifyStatus.OK });

    // minFeeFromSize is the fee module's minimum: 1000 beddows per byte of the signed bytes.
    const strict = setupFee({ chainID, feeConfig: { minFeePerByte: Number(transaction.fee / BigInt(transaction.size)) + 1 } });
    fund(strict, transaction.senderAddress(), transaction.fee);
    const minimum = BigInt(testCase.minFeeFromSize);
    expect(minimum).toBe(1000n * BigInt(transaction.size));
    expect(transaction.fee >= minimum).toBe(true);
    expect(strict.fee.verifyTransaction({ ...strict.harness.transactionVerifyContext(transaction), chainID }).error?.message).toMatch(
      /^Insufficient transaction fee\. Minimum required fee is \d+\.$/,
    );
  });
});

interface RecordedEvent {
  module: string;
  name: string;
  data: string;
  topics: string[];
}

describe('fee over chains/dev', () => {
  it("reproduces the fee's events of all 49 transactions (with the real token module)", () => {
    const recordedByTopic = new Map<string, RecordedEvent[]>();
    for (const line of readFileSync(fixturePath('chains/dev/events.ndjson'), 'utf8').split('\n')) {
      if (!line) continue;
      for (const event of (JSON.parse(line) as { events: RecordedEvent[] }).events) {
        const topic = event.topics[0] as string;
        if (!topic.startsWith('04')) continue;
        recordedByTopic.set(topic, [...(recordedByTopic.get(topic) ?? []), event]);
      }
    }

    let checked = 0;
    for (const line of readFileSync(fixturePath('chains/dev/blocks.ndjson'), 'utf8').split('\n')) {
      if (!line) continue;
      const block = Block.fromBytes(Buffer.from((JSON.parse(line) as { blockHex: string }).blockHex, 'hex'));
      for (const transaction of block.transactions) {
        const setup = setupFee({ header: { height: block.header.height, generatorAddress: block.header.generatorAddress } });
        fund(setup, transaction.senderAddress(), transaction.fee);
        expect(setup.fee.verifyTransaction(setup.harness.transactionVerifyContext(transaction)).status).toBe(VerifyStatus.OK);
        const context = setup.harness.transactionExecuteContext(transaction);
        setup.fee.beforeCommandExecute(context);
        setup.fee.afterCommandExecute(context);
        const ours = setup.harness.events.events().map((event) => ({
          module: event.module,
          name: event.name,
          data: event.data.toString('hex'),
          topics: event.topics.map((topic) => topic.toString('hex')),
        }));

        const recorded = (recordedByTopic.get(`04${transaction.id.toString('hex')}`) ?? []).map(({ module, name, data, topics }) => ({
          module,
          name,
          data,
          topics,
        }));
        expect(recorded.at(-1)?.name).toBe('commandExecutionResult');
        // The fee's lock opens the transaction; unlock, burn and generatorFeeProcessed close it.
        expect(ours).toEqual([recorded[0], ...recorded.slice(-4, -1)]);
        checked += 1;
      }
    }
    expect(checked).toBe(49);
    recordCases('chains/dev/events.ndjson', checked);
  });
});
