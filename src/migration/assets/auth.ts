/**
 * The auth module's genesis asset (lisk-migrator `src/assets/auth.ts`): one entry per v3
 * account, in address order, with its nonce and its multisignature keys sorted bytewise.
 */
import { encodeLisk32Address, type Schema } from '../../codec/index.js';
import { compareBytes, type MigrationState } from './migration-state.js';

export interface AuthAssetData {
  readonly authDataSubstore: readonly {
    readonly address: string;
    readonly authAccount: {
      readonly numberOfSignatures: number;
      readonly mandatoryKeys: readonly string[];
      readonly optionalKeys: readonly string[];
      readonly nonce: string;
    };
  }[];
}

/**
 * The schema lisk-migrator writes with the auth asset (its own `src/schemas.ts`): the v4 auth
 * genesis schema without the key length limits. It encodes the same bytes.
 */
export const migratorAuthGenesisSchema: Schema = {
  $id: '/auth/module/genesis',
  type: 'object',
  required: ['authDataSubstore'],
  properties: {
    authDataSubstore: {
      type: 'array',
      fieldNumber: 1,
      items: {
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
      },
    },
  },
};

const sortedHex = (keys: readonly Buffer[]): string[] => [...keys].sort(compareBytes).map((key) => key.toString('hex'));

export function createAuthAsset(state: MigrationState): AuthAssetData {
  return {
    authDataSubstore: state.accounts.map(({ address, keys, sequence }) => ({
      address: encodeLisk32Address(address),
      authAccount: {
        numberOfSignatures: keys.numberOfSignatures,
        mandatoryKeys: sortedHex(keys.mandatoryKeys),
        optionalKeys: sortedHex(keys.optionalKeys),
        nonce: sequence.nonce.toString(),
      },
    })),
  };
}
