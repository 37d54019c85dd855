/** recoverState (LIP 0054 state recovery; lisk-sdk mainchain/commands): registered with lisk-sdk's schema, not supported yet. */
import { stateRecoveryParamsSchema } from '../schemas.js';
import { UnsupportedInteroperabilityCommand } from './unsupported-command.js';

export class RecoverStateCommand extends UnsupportedInteroperabilityCommand {
  constructor() {
    super('recoverState', stateRecoveryParamsSchema);
  }
}
