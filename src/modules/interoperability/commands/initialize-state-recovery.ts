/** initializeStateRecovery (LIP 0054; lisk-sdk sidechain/commands): registered with lisk-sdk's schema, not supported yet. */
import { objectSchema, type Schema } from '../../../codec/index.js';
import { UnsupportedInteroperabilityCommand } from './unsupported-command.js';

/** lisk-sdk stateRecoveryInitParamsSchema. */
export const stateRecoveryInitParamsSchema: Schema = objectSchema('/modules/interoperability/mainchain/stateRecoveryInitialization', {
  chainID: { dataType: 'bytes', fieldNumber: 1, minLength: 4, maxLength: 4 },
  sidechainAccount: { dataType: 'bytes', fieldNumber: 2 },
  bitmap: { dataType: 'bytes', fieldNumber: 3 },
  siblingHashes: { type: 'array', fieldNumber: 4, items: { dataType: 'bytes', minLength: 32, maxLength: 32 } },
});

export class InitializeStateRecoveryCommand extends UnsupportedInteroperabilityCommand {
  constructor() {
    super('initializeStateRecovery', stateRecoveryInitParamsSchema);
  }
}
