/**
 * Events of the pos module (LIP 0057 "Events"; lisk-sdk 6.1 pos/events/*), in lisk-sdk's
 * registration order. Topics follow lisk-sdk: the validator (or staker) address, after the
 * stage's default topic; failed stakes are emitted non-revertible so that they outlive the
 * failed command.
 */
import { objectSchema, type Schema } from '../../codec/index.js';
import { ModuleEvent, type EventQueue } from '../base/index.js';
import { POS_MODULE_NAME, StakeEventResult, TOKEN_ID_LENGTH } from './constants.js';

export interface AddressHeightData {
  address: Buffer;
  height: number;
}

export interface ValidatorRegisteredData {
  address: Buffer;
  name: string;
}

export interface ValidatorStakedData {
  senderAddress: Buffer;
  validatorAddress: Buffer;
  amount: bigint;
}

export interface CommissionChangeData {
  validatorAddress: Buffer;
  oldCommission: number;
  newCommission: number;
}

export interface RewardsAssignedData {
  stakerAddress: Buffer;
  validatorAddress: Buffer;
  tokenID: Buffer;
  amount: bigint;
}

const addressHeightSchema = (id: string): Schema =>
  objectSchema(id, {
    address: { dataType: 'bytes', fieldNumber: 1, format: 'lisk32' },
    height: { dataType: 'uint32', fieldNumber: 2 },
  });

export const validatorBannedDataSchema = addressHeightSchema('/pos/events/validatorBannedData');
export const validatorPunishedDataSchema = addressHeightSchema('/pos/events/punishValidatorData');

export const validatorRegisteredDataSchema: Schema = objectSchema('/pos/events/registerValidatorData', {
  address: { dataType: 'bytes', fieldNumber: 1, format: 'lisk32' },
  name: { dataType: 'string', fieldNumber: 2 },
});

export const validatorStakedDataSchema: Schema = objectSchema('/pos/events/validatorStakedData', {
  senderAddress: { dataType: 'bytes', fieldNumber: 1, format: 'lisk32' },
  validatorAddress: { dataType: 'bytes', fieldNumber: 2, format: 'lisk32' },
  amount: { dataType: 'sint64', fieldNumber: 3 },
  result: { dataType: 'uint32', fieldNumber: 4 },
});

export const commissionChangeDataSchema: Schema = objectSchema('/pos/events/commissionChangeData', {
  validatorAddress: { dataType: 'bytes', format: 'lisk32', fieldNumber: 1 },
  oldCommission: { dataType: 'uint32', fieldNumber: 2 },
  newCommission: { dataType: 'uint32', fieldNumber: 3 },
});

export const rewardsAssignedDataSchema: Schema = objectSchema('/pos/events/rewardsAssignedData', {
  stakerAddress: { dataType: 'bytes', format: 'lisk32', fieldNumber: 1 },
  validatorAddress: { dataType: 'bytes', format: 'lisk32', fieldNumber: 2 },
  tokenID: { dataType: 'bytes', minLength: TOKEN_ID_LENGTH, maxLength: TOKEN_ID_LENGTH, fieldNumber: 3 },
  amount: { dataType: 'uint64', fieldNumber: 4 },
});

export const validatorBannedEvent = new ModuleEvent<AddressHeightData>(POS_MODULE_NAME, 'validatorBanned', validatorBannedDataSchema);
export const validatorPunishedEvent = new ModuleEvent<AddressHeightData>(POS_MODULE_NAME, 'validatorPunished', validatorPunishedDataSchema);
export const validatorRegisteredEvent = new ModuleEvent<ValidatorRegisteredData>(
  POS_MODULE_NAME,
  'validatorRegistered',
  validatorRegisteredDataSchema,
);
export const validatorStakedEvent = new ModuleEvent<ValidatorStakedData & { result: StakeEventResult }>(
  POS_MODULE_NAME,
  'validatorStaked',
  validatorStakedDataSchema,
);
export const commissionChangeEvent = new ModuleEvent<CommissionChangeData>(POS_MODULE_NAME, 'commissionChange', commissionChangeDataSchema);
export const rewardsAssignedEvent = new ModuleEvent<RewardsAssignedData>(POS_MODULE_NAME, 'rewardsAssigned', rewardsAssignedDataSchema);

/** In registration order, as metadata lists them. */
export const posEvents = [
  validatorBannedEvent,
  validatorPunishedEvent,
  validatorRegisteredEvent,
  validatorStakedEvent,
  commissionChangeEvent,
  rewardsAssignedEvent,
] as const;

export function logValidatorBanned(events: EventQueue, data: AddressHeightData): void {
  validatorBannedEvent.emit(events, data, [data.address]);
}

export function logValidatorPunished(events: EventQueue, data: AddressHeightData): void {
  validatorPunishedEvent.emit(events, data, [data.address]);
}

export function logValidatorRegistered(events: EventQueue, data: ValidatorRegisteredData): void {
  validatorRegisteredEvent.emit(events, data, [data.address]);
}

/** A successful (up or down) stake; topics sender, validator. */
export function logValidatorStaked(events: EventQueue, data: ValidatorStakedData): void {
  validatorStakedEvent.emit(events, { ...data, result: StakeEventResult.SUCCESSFUL }, [data.senderAddress, data.validatorAddress]);
}

/** A failed stake: non-revertible, so it stays in the block after the command fails. */
export function logValidatorStakeFailed(events: EventQueue, data: ValidatorStakedData, result: StakeEventResult): void {
  validatorStakedEvent.emit(events, { ...data, result }, [data.senderAddress, data.validatorAddress], true);
}

export function logCommissionChange(events: EventQueue, data: CommissionChangeData): void {
  commissionChangeEvent.emit(events, data, [data.validatorAddress]);
}

/** Rewards paid out to a staker; the one topic is the staker. */
export function logRewardsAssigned(events: EventQueue, data: RewardsAssignedData): void {
  rewardsAssignedEvent.emit(events, data, [data.stakerAddress]);
}
