/** submitSidechainCrossChainUpdate (LIP 0053; lisk-sdk sidechain/commands): registered with lisk-sdk's schema, not supported yet. */
import { crossChainUpdateParamsSchema } from '../schemas.js';
import { UnsupportedInteroperabilityCommand } from './unsupported-command.js';

export class SubmitSidechainCrossChainUpdateCommand extends UnsupportedInteroperabilityCommand {
  constructor() {
    super('submitSidechainCrossChainUpdate', crossChainUpdateParamsSchema);
  }
}
