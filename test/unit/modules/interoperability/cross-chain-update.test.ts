/**
 * submitMainchainCrossChainUpdate on the real CCUs of the lisk-sdk 6.1 interop mainchain, each on
 * the module state before its block: the events lisk-sdk recorded, its verification checks in its
 * order with its messages, and the failures of tampered CCUs with lisk-sdk's events.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eventToJSON, type EventJSON } from '../../../../src/chain/event.js';
import type { Transaction } from '../../../../src/chain/transaction.js';
import { codec } from '../../../../src/codec/index.js';
import { type Command, VerifyStatus, type VerificationResult } from '../../../../src/modules/base/index.js';
import {
  type Certificate,
  certificateSchema,
  chainAccountStore,
  type CrossChainUpdateParams,
  decodeCertificate,
  LIVENESS_LIMIT,
} from '../../../../src/modules/interoperability/index.js';
import { verifyPartnerChainOutboxRoot } from '../../../../src/modules/interoperability/ccu/inbox-update.js';
import type { MemoryState } from '../../../../src/state/memory-state.js';
import { ModuleHarness } from '../../../support/module-harness.js';
import { ccuAt, interopBlock, mainchainStatesBefore, recordedEvents } from '../../../support/interop-mainchain.js';

const SIDECHAIN_ID = Buffer.from('04000001', 'hex');
/** Heights whose pre-block state the tests use: the first CCU (8), the one after it, the first with a message (10), the chain ACTIVE (11). */
const HEIGHTS = [8, 9, 10, 11] as const;

let states: Map<number, MemoryState>;
let command: Command<CrossChainUpdateParams>;

beforeAll(async () => {
  ({ states, command } = await mainchainStatesBefore(HEIGHTS));
}, 60_000);

/** A harness on the state before block `height`, with that block's header (or overrides). */
function harnessBefore(height: number, header: { timestamp?: number } = {}): ModuleHarness {
  const block = interopBlock(height);
  return new ModuleHarness({ base: states.get(height) as MemoryState, header: { ...block.header, ...header } });
}

function verify(harness: ModuleHarness, transaction: Transaction, params: CrossChainUpdateParams): VerificationResult {
  return command.verify?.(harness.commandVerifyContext(transaction, params)) as VerificationResult;
}

async function execute(harness: ModuleHarness, transaction: Transaction, params: CrossChainUpdateParams): Promise<void> {
  await command.execute(harness.commandExecuteContext(transaction, params));
}

function emitted(harness: ModuleHarness) {
  return harness.events.events().map((event) => withoutIndex(eventToJSON(event)));
}

/** An event without its position and height (the harness numbers only the command's events). */
function withoutIndex({ module, name, data, topics }: EventJSON) {
  return { module, name, data, topics };
}

function withCertificate(params: CrossChainUpdateParams, change: Partial<Certificate>): CrossChainUpdateParams {
  const certificate = { ...decodeCertificate(params.certificate), ...change };
  return { ...params, certificate: codec.encode(certificateSchema, certificate) };
}

describe('submitMainchainCrossChainUpdate on the interop mainchain', () => {
  it('accepts the first CCU (REGISTERED chain, certificate 1) with the chainAccountUpdated event lisk-sdk recorded', async () => {
    const harness = harnessBefore(8);
    const { transaction, params } = ccuAt(8);
    expect(verify(harness, transaction, params).status).toBe(VerifyStatus.OK);
    await execute(harness, transaction, params);
    // Index 0 and 2.. of the recorded block are the fee module's transaction hooks, not the command.
    expect(emitted(harness)).toEqual([withoutIndex(recordedEvents(8)[1] as EventJSON)]);
    const account = chainAccountStore.getOrThrow(harness.state, SIDECHAIN_ID);
    expect(account.lastCertificate.height).toBe(1);
    expect(account.status).toBe(0);
  });

  it('processes the registration message of height 10: the chain becomes ACTIVE, with the events in lisk-sdk order', async () => {
    const harness = harnessBefore(10);
    const { transaction, params } = ccuAt(10);
    expect(params.inboxUpdate.crossChainMessages).toHaveLength(1);
    expect(verify(harness, transaction, params).status).toBe(VerifyStatus.OK);
    await execute(harness, transaction, params);
    const events = emitted(harness);
    // beforeCCCExecution (token), chainAccountUpdated + ccmProcessed (05‖ccmID), relayerFeeProcessed, chainAccountUpdated.
    expect(events).toEqual(
      recordedEvents(10)
        .slice(1, 1 + events.length)
        .map(withoutIndex),
    );
    expect(events.map((event) => event.name)).toEqual([
      'beforeCCCExecution',
      'chainAccountUpdated',
      'ccmProcessed',
      'relayerFeeProcessed',
      'chainAccountUpdated',
    ]);
    expect(chainAccountStore.getOrThrow(harness.state, SIDECHAIN_ID).status).toBe(1);
  });

  describe('verification, in lisk-sdk order', () => {
    const refused = (
      height: number,
      change: (params: CrossChainUpdateParams) => CrossChainUpdateParams,
      header: { timestamp?: number } = {},
    ) => {
      const { transaction, params } = ccuAt(height);
      const result = verify(harnessBefore(height, header), transaction, change(params));
      expect(result.status).toBe(VerifyStatus.FAIL);
      return result.error?.message;
    };
    const emptyInbox = {
      crossChainMessages: [],
      messageWitnessHashes: [],
      outboxRootWitness: { bitmap: Buffer.alloc(0), siblingHashes: [] },
    };

    it('refuses the own chain as sending chain', () => {
      expect(refused(8, (p) => ({ ...p, sendingChainID: Buffer.from('04000000', 'hex') }))).toBe(
        'The sending chain cannot be the same as the receiving chain.',
      );
    });

    it('refuses a CCU without certificate and without inbox update', () => {
      expect(refused(8, (p) => ({ ...p, certificate: Buffer.alloc(0), inboxUpdate: emptyInbox }))).toBe(
        'A cross-chain update must contain a non-empty certificate and/or a non-empty inbox update.',
      );
    });

    it('refuses an unknown sending chain', () => {
      expect(refused(8, (p) => ({ ...p, sendingChainID: Buffer.from('04000099', 'hex') }))).toBe('The sending chain is not registered.');
    });

    it('refuses a CCU of an ACTIVE chain whose last certificate is older than the liveness limit', () => {
      const lastCertificate = chainAccountStore.getOrThrow(states.get(11) as MemoryState, SIDECHAIN_ID).lastCertificate;
      expect(refused(11, (p) => p, { timestamp: lastCertificate.timestamp + LIVENESS_LIMIT + 1 })).toBe('The sending chain is not live.');
    });

    it('refuses a CCU of a REGISTERED chain without certificate', () => {
      const { params: withMessage } = ccuAt(10);
      expect(refused(8, (p) => ({ ...p, certificate: Buffer.alloc(0), inboxUpdate: withMessage.inboxUpdate }))).toBe(
        'Cross-chain updates from chains with status 0 must contain a non-empty certificate.',
      );
    });

    it('refuses a stale certificate (height not above the last certificate)', () => {
      const { transaction, params } = ccuAt(8);
      const result = verify(harnessBefore(9), transaction, params);
      expect(result.error?.message).toBe('Certificate height is not greater than last certificate height.');
    });

    it('refuses a certificate not older than the block', () => {
      const { params } = ccuAt(8);
      const { timestamp } = decodeCertificate(params.certificate);
      expect(refused(8, (p) => p, { timestamp })).toBe(
        'Certificate timestamp is not smaller than timestamp of the block including the CCU.',
      );
    });

    it('refuses a changed validators hash without a validators update', () => {
      expect(refused(8, (p) => withCertificate(p, { validatorsHash: Buffer.alloc(32, 7) }))).toBe(
        'Certifying an update to the validators hash requires an active validators update.',
      );
    });

    it('checks a new certificate threshold as a validators update', () => {
      expect(refused(8, (p) => ({ ...p, certificateThreshold: p.certificateThreshold + 1n }))).toBe(
        'Invalid bftWeightsUpdateBitmap. Expected length 1.',
      );
    });

    it('refuses an inbox update without outbox root witness next to a certificate', () => {
      expect(
        refused(10, (p) => ({
          ...p,
          inboxUpdate: { ...p.inboxUpdate, outboxRootWitness: { bitmap: Buffer.alloc(0), siblingHashes: [] } },
        })),
      ).toBe('The outbox root witness must be non-empty to authenticate the new partnerChainOutboxRoot.');
    });

    it('refuses the first messages of a REGISTERED chain under a certificate older than half the liveness limit', () => {
      const { params } = ccuAt(10);
      const { timestamp } = decodeCertificate(params.certificate);
      expect(refused(10, (p) => p, { timestamp: timestamp + LIVENESS_LIMIT / 2 + 1 })).toBe(
        `The first CCU with a non-empty inbox update cannot contain a certificate older than ${LIVENESS_LIMIT / 2} seconds.`,
      );
    });
  });

  describe('execution of tampered CCUs', () => {
    /** Executes, then rolls back as the state machine does for a failed command, returning the error and the events left. */
    async function failedExecution(height: number, change: (params: CrossChainUpdateParams) => CrossChainUpdateParams) {
      const harness = harnessBefore(height);
      const { transaction, params } = ccuAt(height);
      const tampered = change(params);
      expect(verify(harness, transaction, tampered).status).toBe(VerifyStatus.OK);
      const events = harness.events.snapshot();
      const state = harness.state.snapshot();
      let message: string | undefined;
      try {
        await execute(harness, transaction, tampered);
      } catch (error) {
        message = (error as Error).message;
        harness.events.restore(events);
        harness.state.restore(state);
      }
      return { message, events: emitted(harness), harness, txTopic: `04${transaction.id.toString('hex')}` };
    }

    it('fails a certificate whose signed content changed, leaving the non-revertible invalidCertificateSignature event', async () => {
      const { message, events, harness, txTopic } = await failedExecution(8, (p) => withCertificate(p, { stateRoot: Buffer.alloc(32, 1) }));
      expect(message).toBe('Certificate is not a valid aggregate signature.');
      expect(events).toEqual([
        { module: 'interoperability', name: 'invalidCertificateSignature', data: '', topics: [txTopic, '04000001'] },
      ]);
      expect(harness.state.changes()).toEqual([]);
    });

    it('fails a certificate with a signature that is not a point, the same way', async () => {
      const { message, events } = await failedExecution(8, (p) => withCertificate(p, { signature: Buffer.alloc(96, 0xab) }));
      expect(message).toBe('Certificate is not a valid aggregate signature.');
      expect(events.map((event) => event.name)).toEqual(['invalidCertificateSignature']);
    });

    it('fails an aggregation bitmap below the certificate threshold', async () => {
      const { message } = await failedExecution(8, (p) => withCertificate(p, { aggregationBits: Buffer.from([1]) }));
      expect(message).toBe('Certificate is not a valid aggregate signature.');
    });

    it('fails a wrong outbox root witness with invalidSMTVerification (revertible, so dropped with the transaction)', async () => {
      const harness = harnessBefore(10);
      const { transaction, params } = ccuAt(10);
      const { siblingHashes, bitmap } = params.inboxUpdate.outboxRootWitness;
      const tampered = {
        ...params,
        inboxUpdate: {
          ...params.inboxUpdate,
          outboxRootWitness: { bitmap, siblingHashes: [Buffer.alloc(32, 9), ...siblingHashes.slice(1)] },
        },
      };
      await expect(execute(harness, transaction, tampered)).rejects.toThrow('Invalid inclusion proof for inbox update.');
      expect(emitted(harness)).toEqual([
        { module: 'interoperability', name: 'invalidSMTVerification', data: '', topics: [`04${transaction.id.toString('hex')}`] },
      ]);
      const { events } = await failedExecution(10, () => tampered);
      expect(events).toEqual([]);
    });

    it('fails a message that is not the one certified (the implied outbox root is not proven)', async () => {
      const { message } = await failedExecution(10, (p) => ({
        ...p,
        inboxUpdate: {
          ...p.inboxUpdate,
          crossChainMessages: [Buffer.concat([p.inboxUpdate.crossChainMessages[0] as Buffer, Buffer.from([0])])],
        },
      }));
      expect(message).toBe('Invalid inclusion proof for inbox update.');
    });

    it('fails any CCU without certificate at execution, as lisk-sdk 6.1 decodes the empty certificate', async () => {
      const harness = harnessBefore(11);
      const { transaction, params } = ccuAt(11);
      const { params: withMessage } = ccuAt(10);
      const tampered = {
        ...params,
        certificate: Buffer.alloc(0),
        inboxUpdate: { ...withMessage.inboxUpdate, outboxRootWitness: { bitmap: Buffer.alloc(0), siblingHashes: [] } },
      };
      await expect(execute(harness, transaction, tampered)).rejects.toThrow();
      expect(emitted(harness)).toEqual([]);
    });

    it('reports an inbox that does not complete to the stored partner outbox root with invalidOutboxRootVerification (non-revertible)', () => {
      const harness = harnessBefore(11);
      const { transaction, params } = ccuAt(10);
      const ctx = harness.commandExecuteContext(transaction, params);
      const noCertificate = { ...params, certificate: Buffer.alloc(0) };
      expect(() => verifyPartnerChainOutboxRoot(ctx, noCertificate)).toThrow('Inbox root does not match partner chain outbox root.');
      const [event] = harness.events.events();
      expect(event?.name).toBe('invalidOutboxRootVerification');
      expect(event?.topics.map((topic) => topic.toString('hex'))).toEqual([`04${transaction.id.toString('hex')}`, '04000001']);
      const snapshot = 0;
      harness.events.restore(snapshot);
      expect(harness.events.events().map((kept) => kept.name)).toEqual(['invalidOutboxRootVerification']);
    });
  });
});
