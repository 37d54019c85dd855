/** recoverMessage (LIP 0054 message recovery; lisk-sdk mainchain/commands): registered with lisk-sdk's schema, not supported yet. */
import { messageRecoveryParamsSchema } from '../schemas.js';
import { UnsupportedInteroperabilityCommand } from './unsupported-command.js';

export class RecoverMessageCommand extends UnsupportedInteroperabilityCommand {
  constructor() {
    super('recoverMessage', messageRecoveryParamsSchema);
  }
}
