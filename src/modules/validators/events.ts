/**
 * Events of the validators module (LIP 0044 "Events"; lisk-sdk validators/events/*). Both carry the
 * validator's address as their one topic, and a failed registration's event is emitted as
 * non-revertible, so that it survives the failure of the command that caused it.
 */
import { objectSchema, type Schema } from '../../codec/index.js';
import { ModuleEvent, type EventQueue } from '../base/index.js';
import { BLS_POP_LENGTH, BLS_PUBLIC_KEY_LENGTH, ED25519_PUBLIC_KEY_LENGTH, KeyRegResult, VALIDATORS_MODULE_NAME } from './constants.js';

export interface GeneratorKeyRegistrationData {
  generatorKey: Buffer;
  result: KeyRegResult;
}

export interface BlsKeyRegistrationData {
  blsKey: Buffer;
  proofOfPossession: Buffer;
  result: KeyRegResult;
}

export const generatorKeyRegistrationDataSchema: Schema = objectSchema('/validators/event/generatorKeyRegData', {
  generatorKey: {
    dataType: 'bytes',
    minLength: ED25519_PUBLIC_KEY_LENGTH,
    maxLength: ED25519_PUBLIC_KEY_LENGTH,
    fieldNumber: 1,
  },
  result: { dataType: 'uint32', fieldNumber: 2 },
});

export const blsKeyRegistrationDataSchema: Schema = objectSchema('/validators/event/blsKeyRegData', {
  blsKey: {
    dataType: 'bytes',
    minLength: BLS_PUBLIC_KEY_LENGTH,
    maxLength: BLS_PUBLIC_KEY_LENGTH,
    fieldNumber: 1,
  },
  proofOfPossession: {
    dataType: 'bytes',
    minLength: BLS_POP_LENGTH,
    maxLength: BLS_POP_LENGTH,
    fieldNumber: 2,
  },
  result: { dataType: 'uint32', fieldNumber: 3 },
});

export const generatorKeyRegistrationEvent = new ModuleEvent<GeneratorKeyRegistrationData>(
  VALIDATORS_MODULE_NAME,
  'generatorKeyRegistration',
  generatorKeyRegistrationDataSchema,
);

export const blsKeyRegistrationEvent = new ModuleEvent<BlsKeyRegistrationData>(
  VALIDATORS_MODULE_NAME,
  'blsKeyRegistration',
  blsKeyRegistrationDataSchema,
);

export const validatorsEvents = [generatorKeyRegistrationEvent, blsKeyRegistrationEvent] as const;

/** Emits generatorKeyRegistration for `validatorAddress`; failures are kept when the command reverts. */
export function logGeneratorKeyRegistration(events: EventQueue, validatorAddress: Buffer, data: GeneratorKeyRegistrationData): void {
  generatorKeyRegistrationEvent.emit(events, data, [validatorAddress], data.result !== KeyRegResult.SUCCESS);
}

/** Emits blsKeyRegistration for `validatorAddress`; failures are kept when the command reverts. */
export function logBlsKeyRegistration(events: EventQueue, validatorAddress: Buffer, data: BlsKeyRegistrationData): void {
  blsKeyRegistrationEvent.emit(events, data, [validatorAddress], data.result !== KeyRegResult.SUCCESS);
}
