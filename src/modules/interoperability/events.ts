/**
 * Events of the interoperability module (lisk-sdk interoperability/events), in lisk-sdk's
 * registration order, which is the metadata order. Topic conventions are documented per event.
 */
import { objectSchema, type Schema } from '../../codec/index.js';
import { ModuleEvent } from '../base/index.js';
import { HASH_LENGTH, INTEROPERABILITY_MODULE_NAME } from './constants.js';
import { ccmSchema } from './schemas.js';
import { chainDataSchema, terminatedOutboxSchema, terminatedStateSchema } from './stores.js';
import type { ChainAccount, CrossChainMessage, TerminatedOutboxAccount, TerminatedStateAccount } from './types.js';

/** lisk-sdk emptySchema: events without data. */
export const emptySchema: Schema = { $id: '/lisk/empty', type: 'object', properties: {} };

/** The CCM embedded in an event without its own `$id` (as ccmProcessed and ccmSendSuccess do). */
const embeddedCcm = (fieldNumber: number) =>
  ({
    fieldNumber,
    type: 'object',
    required: [...(ccmSchema.required as readonly string[])],
    properties: { ...ccmSchema.properties },
  }) as const;

export interface CcmProcessedData {
  ccm: CrossChainMessage;
  result: number;
  code: number;
}

export const ccmProcessedSchema: Schema = objectSchema('/interoperability/events/ccmProcessed', {
  ccm: embeddedCcm(1),
  result: { dataType: 'uint32', fieldNumber: 2 },
  code: { dataType: 'uint32', fieldNumber: 3 },
});

export interface CcmSendSuccessData {
  ccm: CrossChainMessage;
}

export const ccmSendSuccessSchema: Schema = objectSchema('/interoperability/events/ccmSendSuccess', {
  ccm: embeddedCcm(1),
});

export interface CcmSentFailedData {
  ccm: CrossChainMessage;
  code: number;
}

export const ccmSentFailedSchema: Schema = {
  $id: '/interoperability/events/ccmSendFail',
  type: 'object',
  required: ['ccm', 'code'],
  properties: {
    ccm: { ...ccmSchema, fieldNumber: 1 },
    code: { dataType: 'uint32', fieldNumber: 2 },
  },
} as Schema;

export interface InvalidOutboxRootVerificationData {
  inboxRoot: Buffer;
  partnerChainOutboxRoot: Buffer;
}

export const invalidOutboxRootVerificationSchema: Schema = objectSchema('/interoperability/events/invalidOutboxRootVerification', {
  inboxRoot: { dataType: 'bytes', fieldNumber: 1, minLength: HASH_LENGTH, maxLength: HASH_LENGTH },
  partnerChainOutboxRoot: { dataType: 'bytes', fieldNumber: 2, minLength: HASH_LENGTH, maxLength: HASH_LENGTH },
});

const event = <T extends object>(name: string, schema: Schema) => new ModuleEvent<T>(INTEROPERABILITY_MODULE_NAME, name, schema);

/** A chain account changed; topics [chainID]. */
export const chainAccountUpdatedEvent = event<ChainAccount>('chainAccountUpdated', chainDataSchema);
/** A received CCM was processed; topics [sendingChainID, receivingChainID]. */
export const ccmProcessedEvent = event<CcmProcessedData>('ccmProcessed', ccmProcessedSchema);
/** A CCM was added to an outbox; topics [sendingChainID, receivingChainID, ccmID]. */
export const ccmSendSuccessEvent = event<CcmSendSuccessData>('ccmSendSuccess', ccmSendSuccessSchema);
/** Sending a CCM failed (non-revertible, ccm.params emptied); no topics of its own. */
export const ccmSentFailedEvent = event<CcmSentFailedData>('ccmSentFailed', ccmSentFailedSchema);
/** A mainchain registration carried an invalid signature; topics [chainID], non-revertible. */
export const invalidRegistrationSignatureEvent = event<Record<string, never>>('invalidRegistrationSignature', emptySchema);
/** A terminated state account was created; topics [chainID]. */
export const terminatedStateCreatedEvent = event<TerminatedStateAccount>('terminatedStateCreated', terminatedStateSchema);
/** A terminated outbox account was created; topics [chainID]. */
export const terminatedOutboxCreatedEvent = event<TerminatedOutboxAccount>('terminatedOutboxCreated', terminatedOutboxSchema);
/** A state-recovery or inbox-update SMT proof failed. */
export const invalidSMTVerificationEvent = event<Record<string, never>>('invalidSMTVerification', emptySchema);
/** A message-recovery RMT proof failed. */
export const invalidRMTVerificationEvent = event<Record<string, never>>('invalidRMTVerification', emptySchema);
/** A CCU certificate signature failed; topics [chainID], non-revertible. */
export const invalidCertificateSignatureEvent = event<Record<string, never>>('invalidCertificateSignature', emptySchema);
/** A CCU inbox root did not match the partner chain's outbox root; topics [chainID], non-revertible. */
export const invalidOutboxRootVerificationEvent = event<InvalidOutboxRootVerificationData>(
  'invalidOutboxRootVerification',
  invalidOutboxRootVerificationSchema,
);

export const interoperabilityEvents = [
  chainAccountUpdatedEvent,
  ccmProcessedEvent,
  ccmSendSuccessEvent,
  ccmSentFailedEvent,
  invalidRegistrationSignatureEvent,
  terminatedStateCreatedEvent,
  terminatedOutboxCreatedEvent,
  invalidSMTVerificationEvent,
  invalidRMTVerificationEvent,
  invalidCertificateSignatureEvent,
  invalidOutboxRootVerificationEvent,
] as const;
