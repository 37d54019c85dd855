/** Events of the legacy module (lisk-core legacy/events), in registration order. */
import { objectSchema, type Schema } from '../../codec/index.js';
import { ModuleEvent, type EventQueue } from '../base/index.js';
import { ADDRESS_LENGTH, BLS_KEY_LENGTH, GENERATOR_KEY_LENGTH, LEGACY_ADDRESS_LENGTH, LEGACY_MODULE_NAME } from './constants.js';

export interface AccountReclaimedData {
  legacyAddress: Buffer;
  address: Buffer;
  amount: bigint;
}

export interface KeysRegisteredData {
  address: Buffer;
  generatorKey: Buffer;
  blsKey: Buffer;
}

export const accountReclaimedDataSchema: Schema = objectSchema('lisk/legacy/accountReclaimedEventData', {
  legacyAddress: { dataType: 'bytes', maxLength: LEGACY_ADDRESS_LENGTH, fieldNumber: 1 },
  address: { dataType: 'bytes', maxLength: ADDRESS_LENGTH, fieldNumber: 2 },
  amount: { dataType: 'uint64', fieldNumber: 3 },
});

export const keysRegisteredDataSchema: Schema = objectSchema('lisk/legacy/keysRegisteredEventData', {
  address: { dataType: 'bytes', maxLength: ADDRESS_LENGTH, fieldNumber: 1 },
  generatorKey: { dataType: 'bytes', maxLength: GENERATOR_KEY_LENGTH, fieldNumber: 2 },
  blsKey: { dataType: 'bytes', maxLength: BLS_KEY_LENGTH, fieldNumber: 3 },
});

export const accountReclaimedEvent = new ModuleEvent<AccountReclaimedData>(
  LEGACY_MODULE_NAME,
  'accountReclaimed',
  accountReclaimedDataSchema,
);

export const keysRegisteredEvent = new ModuleEvent<KeysRegisteredData>(LEGACY_MODULE_NAME, 'keysRegistered', keysRegisteredDataSchema);

/** Emits accountReclaimed with topics [legacyAddress, address] (after the stage's default topic). */
export function logAccountReclaimed(events: EventQueue, data: AccountReclaimedData): void {
  accountReclaimedEvent.emit(events, data, [data.legacyAddress, data.address]);
}

/** Emits keysRegistered with topics [address, generatorKey, blsKey] (after the stage's default topic). */
export function logKeysRegistered(events: EventQueue, data: KeysRegisteredData): void {
  keysRegisteredEvent.emit(events, data, [data.address, data.generatorKey, data.blsKey]);
}

export const legacyEvents = [accountReclaimedEvent, keysRegisteredEvent] as const;
