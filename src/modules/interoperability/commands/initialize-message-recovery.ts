/** initializeMessageRecovery (LIP 0054 message recovery initialization; lisk-sdk mainchain/commands): registered with lisk-sdk's schema, not supported yet. */
import { messageRecoveryInitializationParamsSchema } from '../schemas.js';
import { UnsupportedInteroperabilityCommand } from './unsupported-command.js';

export class InitializeMessageRecoveryCommand extends UnsupportedInteroperabilityCommand {
  constructor() {
    super('initializeMessageRecovery', messageRecoveryInitializationParamsSchema);
  }
}
