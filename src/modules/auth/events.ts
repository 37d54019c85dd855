/**
 * Events of the auth module (LIP 0041 "Events"; lisk-sdk auth/events/*), in registration order:
 * multisignatureRegistration, invalidSignature. Both carry the sender address as their topic.
 */
import { objectSchema, type Schema } from '../../codec/index.js';
import { ModuleEvent } from '../base/index.js';
import { AUTH_MODULE_NAME, ED25519_PUBLIC_KEY_LENGTH, ED25519_SIGNATURE_LENGTH } from './constants.js';

export interface MultisignatureRegistrationData {
  numberOfSignatures: number;
  mandatoryKeys: Buffer[];
  optionalKeys: Buffer[];
}

export interface InvalidSignatureData extends MultisignatureRegistrationData {
  failingPublicKey: Buffer;
  failingSignature: Buffer;
}

const publicKeyArray = (fieldNumber: number) =>
  ({
    type: 'array',
    items: { dataType: 'bytes', minLength: ED25519_PUBLIC_KEY_LENGTH, maxLength: ED25519_PUBLIC_KEY_LENGTH },
    fieldNumber,
  }) as const;

export const multisigRegDataSchema: Schema = objectSchema('/auth/events/multisigRegData', {
  numberOfSignatures: { dataType: 'uint32', fieldNumber: 1 },
  mandatoryKeys: publicKeyArray(2),
  optionalKeys: publicKeyArray(3),
});

export const invalidSigDataSchema: Schema = objectSchema('/auth/events/invalidSigData', {
  numberOfSignatures: { dataType: 'uint32', fieldNumber: 1 },
  mandatoryKeys: publicKeyArray(2),
  optionalKeys: publicKeyArray(3),
  failingPublicKey: {
    dataType: 'bytes',
    minLength: ED25519_PUBLIC_KEY_LENGTH,
    maxLength: ED25519_PUBLIC_KEY_LENGTH,
    fieldNumber: 4,
  },
  failingSignature: {
    dataType: 'bytes',
    minLength: ED25519_SIGNATURE_LENGTH,
    maxLength: ED25519_SIGNATURE_LENGTH,
    fieldNumber: 5,
  },
});

/** Emitted when a registration succeeds; topic: the sender address. */
export const multisignatureRegistrationEvent = new ModuleEvent<MultisignatureRegistrationData>(
  AUTH_MODULE_NAME,
  'multisignatureRegistration',
  multisigRegDataSchema,
);

/**
 * Emitted when a member signature of a registration is invalid; topic: the sender address.
 * Non-revertible: it must survive the command failure it explains.
 */
export const invalidSignatureEvent = new ModuleEvent<InvalidSignatureData>(AUTH_MODULE_NAME, 'invalidSignature', invalidSigDataSchema);

export const AUTH_EVENTS = [multisignatureRegistrationEvent, invalidSignatureEvent] as const;
