/**
 * Events of the fee module (LIP 0048 "Events"; lisk-sdk fee/events/*), in registration order:
 * generatorFeeProcessed, relayerFeeProcessed, insufficientFee.
 */
import { objectSchema, type Schema } from '../../codec/index.js';
import { ModuleEvent } from '../base/index.js';
import { FEE_MODULE_NAME, HASH_LENGTH } from './constants.js';

export interface GeneratorFeeProcessedData {
  senderAddress: Buffer;
  generatorAddress: Buffer;
  burntAmount: bigint;
  generatorAmount: bigint;
}

export interface RelayerFeeProcessedData {
  ccmID: Buffer;
  relayerAddress: Buffer;
  burntAmount: bigint;
  relayerAmount: bigint;
}

export const generatorFeeProcessedSchema: Schema = objectSchema('/fee/events/generatorFeeProcessed', {
  senderAddress: { dataType: 'bytes', format: 'lisk32', fieldNumber: 1 },
  generatorAddress: { dataType: 'bytes', format: 'lisk32', fieldNumber: 2 },
  burntAmount: { dataType: 'uint64', fieldNumber: 3 },
  generatorAmount: { dataType: 'uint64', fieldNumber: 4 },
});

export const relayerFeeProcessedSchema: Schema = objectSchema('/fee/events/relayerFeeProcessed', {
  ccmID: { dataType: 'bytes', minLength: HASH_LENGTH, maxLength: HASH_LENGTH, fieldNumber: 1 },
  relayerAddress: { dataType: 'bytes', format: 'lisk32', fieldNumber: 2 },
  burntAmount: { dataType: 'uint64', fieldNumber: 3 },
  relayerAmount: { dataType: 'uint64', fieldNumber: 4 },
});

/** lisk-codec's emptySchema: events without data use it (their data is zero bytes). */
export const emptySchema: Schema = { $id: '/lisk/empty', type: 'object', properties: {} };

/** After every transaction; topics: sender, generator. */
export const generatorFeeProcessedEvent = new ModuleEvent<GeneratorFeeProcessedData>(
  FEE_MODULE_NAME,
  'generatorFeeProcessed',
  generatorFeeProcessedSchema,
);

/** After every cross-chain message (interoperability); topic: relayer. */
export const relayerFeeProcessedEvent = new ModuleEvent<RelayerFeeProcessedData>(
  FEE_MODULE_NAME,
  'relayerFeeProcessed',
  relayerFeeProcessedSchema,
);

/** A command asked for more than the available fee; non-revertible, no topics of its own. */
export const insufficientFeeEvent = new ModuleEvent<Record<string, never>>(FEE_MODULE_NAME, 'insufficientFee', emptySchema);

export const FEE_EVENTS = [generatorFeeProcessedEvent, relayerFeeProcessedEvent, insufficientFeeEvent] as const;
