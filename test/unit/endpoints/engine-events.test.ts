/**
 * Event payload builders (lisk-sdk shapes and key order). The metrics are tested in
 * test/unit/metrics/.
 */
import { describe, expect, it } from 'vitest';
import {
  blockHeaderEventPayload,
  newTransactionEventPayload,
  transactionAnnouncementPayload,
  validatorsChangedPayload,
} from '../../../src/rpc/endpoints/engine-events.js';
import { devLines } from './support.js';

describe('event payloads', () => {
  const [, , withTransactions] = devLines(3);
  const block = withTransactions!.block;

  it('chain_newBlock and its siblings carry {blockHeader} as the header JSON, pre-serialized', () => {
    const payload = blockHeaderEventPayload(block.header);
    expect(payload.json).toBe(JSON.stringify({ blockHeader: withTransactions!.blockJson.header }));
  });

  it('txpool_newTransaction carries {transaction}; network_newTransaction {transactionIDs}', () => {
    const transaction = block.transactions[0]!;
    expect(newTransactionEventPayload(transaction).json).toBe(JSON.stringify({ transaction: withTransactions!.blockJson.transactions[0] }));
    expect(transactionAnnouncementPayload([transaction.id])).toEqual({ transactionIDs: [transaction.id.toString('hex')] });
  });

  it('chain_validatorsChanged uses lisk-sdk member names, including preCommitThreshold', () => {
    const payload = validatorsChangedPayload(68n, 69n, [
      { address: Buffer.alloc(20, 0), bftWeight: 1n, generatorKey: Buffer.alloc(32, 1), blsKey: Buffer.alloc(48, 2) },
    ]);
    expect(JSON.stringify(payload)).toBe(
      JSON.stringify({
        nextValidators: [
          {
            address: 'lskzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz5fw596',
            blsKey: '02'.repeat(48),
            generatorKey: '01'.repeat(32),
            bftWeight: '1',
          },
        ],
        preCommitThreshold: '68',
        certificateThreshold: '69',
      }),
    );
  });
});
