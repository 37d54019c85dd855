/**
 * The auth module's genesis asset (lisk-migrator `src/assets/auth.ts`): one entry per v3
 * account, in address order, with its nonce and its multisignature keys sorted bytewise.
 */
import type { Schema } from '../../codec/index.js';
import type { V3Account } from '../v3/v3-schemas.js';
import { compareBytes } from './account-rules.js';
import { ArrayFieldWriter } from './array-field-writer.js';
import { ASSET_ARRAY_INDENT } from './asset-layout.js';

const authDataItems = {
  type: 'object',
  required: ['address', 'authAccount'],
  properties: {
    address: { dataType: 'bytes', format: 'lisk32', fieldNumber: 1 },
    authAccount: {
      type: 'object',
      fieldNumber: 2,
      required: ['nonce', 'numberOfSignatures', 'mandatoryKeys', 'optionalKeys'],
      properties: {
        nonce: { dataType: 'uint64', fieldNumber: 1 },
        numberOfSignatures: { dataType: 'uint32', fieldNumber: 2 },
        mandatoryKeys: { type: 'array', fieldNumber: 3, items: { dataType: 'bytes' } },
        optionalKeys: { type: 'array', fieldNumber: 4, items: { dataType: 'bytes' } },
      },
    },
  },
} as const;

/**
 * The schema lisk-migrator writes with the auth asset (its own `src/schemas.ts`): the v4 auth
 * genesis schema without the key length limits. It encodes the same bytes.
 */
export const migratorAuthGenesisSchema: Schema = {
  $id: '/auth/module/genesis',
  type: 'object',
  required: ['authDataSubstore'],
  properties: { authDataSubstore: { type: 'array', fieldNumber: 1, items: authDataItems } },
};

/** Builds the auth asset from accounts given in address order. */
export class AuthAssetBuilder {
  readonly authDataSubstore = new ArrayFieldWriter(1, authDataItems, ASSET_ARRAY_INDENT);

  /** `lisk32` is the account's address in lisk32 form. */
  addAccount({ address, keys, sequence }: V3Account, lisk32: string): void {
    const mandatoryKeys = [...keys.mandatoryKeys].sort(compareBytes);
    const optionalKeys = [...keys.optionalKeys].sort(compareBytes);
    this.authDataSubstore.add(
      {
        address: lisk32,
        authAccount: {
          numberOfSignatures: keys.numberOfSignatures,
          mandatoryKeys: mandatoryKeys.map((key) => key.toString('hex')),
          optionalKeys: optionalKeys.map((key) => key.toString('hex')),
          nonce: sequence.nonce.toString(),
        },
      },
      { address, authAccount: { nonce: sequence.nonce, numberOfSignatures: keys.numberOfSignatures, mandatoryKeys, optionalKeys } },
    );
  }
}
