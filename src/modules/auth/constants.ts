/** Constants of the auth module (LIP 0041; lisk-sdk framework/src/modules/auth/constants.ts). */

export const AUTH_MODULE_NAME = 'auth';
export const REGISTER_MULTISIGNATURE_COMMAND_NAME = 'registerMultisignature';

/** Upper bound on mandatory + optional keys of a multisignature account (and the config default). */
export const MAX_NUMBER_OF_SIGNATURES = 64;

export const ADDRESS_LENGTH = 20;
export const ED25519_PUBLIC_KEY_LENGTH = 32;
export const ED25519_SIGNATURE_LENGTH = 64;
