/** recoverState (LIP 0054 state recovery; lisk-sdk mainchain/commands): registered with lisk-sdk's schema, not supported yet. */
import { stateRecoveryParamsSchema } from '../schemas.js';
import { UnsupportedInteroperabilityCommand } from './unsupported-command.js';

export class RecoverStateCommand extends UnsupportedInteroperabilityCommand {
  constructor() {
    super('recoverState', stateRecoveryParamsSchema);
  }
}

/** The sidechain's recoverState (lisk-sdk sidechain/commands/recover_state.ts): same name and schema. */
export class SidechainRecoverStateCommand extends UnsupportedInteroperabilityCommand {
  constructor() {
    super('recoverState', stateRecoveryParamsSchema);
  }
}
