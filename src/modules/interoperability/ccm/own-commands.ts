/**
 * The interoperability module's own cross-chain commands per chain kind, in lisk-sdk's order
 * (mainchain/module.ts and sidechain/module.ts `crossChainCommand`).
 */
import type { CrossChainCommand } from '../../base/index.js';
import { ChannelTerminatedCrossChainCommand } from './channel-terminated.js';
import { RegistrationCrossChainCommand } from './registration.js';

/** registration and channelTerminated. */
export function mainchainOwnCrossChainCommands(): CrossChainCommand<unknown>[] {
  return [new RegistrationCrossChainCommand(), new ChannelTerminatedCrossChainCommand()];
}

/**
 * The same two: lisk-sdk 6.1's sidechain module does not register its sidechainTerminated
 * command, so a sidechainTerminated message reaching a sidechain fails as an unsupported
 * cross-chain command (and bounces or is discarded) instead of recording the terminated chain.
 */
export function sidechainOwnCrossChainCommands(): CrossChainCommand<unknown>[] {
  return mainchainOwnCrossChainCommands();
}
