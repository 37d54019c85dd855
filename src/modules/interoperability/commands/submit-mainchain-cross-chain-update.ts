/** submitMainchainCrossChainUpdate (LIP 0053 cross-chain update from a sidechain; lisk-sdk mainchain/commands): registered with lisk-sdk's schema, not supported yet. */
import { crossChainUpdateParamsSchema } from '../schemas.js';
import { UnsupportedInteroperabilityCommand } from './unsupported-command.js';

export class SubmitMainchainCrossChainUpdateCommand extends UnsupportedInteroperabilityCommand {
  constructor() {
    super('submitMainchainCrossChainUpdate', crossChainUpdateParamsSchema);
  }
}
