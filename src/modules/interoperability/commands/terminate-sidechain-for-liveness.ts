/** terminateSidechainForLiveness (LIP 0054 liveness termination; lisk-sdk mainchain/commands): registered with lisk-sdk's schema, not supported yet. */
import { terminateSidechainForLivenessParamsSchema } from '../schemas.js';
import { UnsupportedInteroperabilityCommand } from './unsupported-command.js';

export class TerminateSidechainForLivenessCommand extends UnsupportedInteroperabilityCommand {
  constructor() {
    super('terminateSidechainForLiveness', terminateSidechainForLivenessParamsSchema);
  }
}
