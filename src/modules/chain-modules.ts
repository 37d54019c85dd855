/**
 * The one place that decides whether a chain runs as a mainchain or as a sidechain: LIP 0037
 * makes the mainchain of a network the chain whose ID ends in three zero bytes
 * (getMainchainID), so the genesis chain ID alone tells which module set lisk-sdk's
 * Application.defaultApplication would have been built with.
 */
import { getMainchainID } from './interoperability/utils.js';
import { createMainchainModules, type MainchainModules, type MainchainModulesOptions } from './mainchain.js';
import { createSidechainModules, type SidechainModules } from './sidechain.js';

export type ChainModules = MainchainModules | SidechainModules;

/** Whether `chainID` is the mainchain of its network. */
export function isMainchainID(chainID: Buffer): boolean {
  return chainID.equals(getMainchainID(chainID));
}

/**
 * The module set for `options.genesisConfig.chainID`: the mainchain's (with the legacy module
 * when asked), or the sidechain's, which never has it.
 */
export function createChainModules(options: MainchainModulesOptions): ChainModules {
  if (isMainchainID(options.genesisConfig.chainID)) return createMainchainModules(options);
  const { withLegacy: _withLegacy, ...sidechainOptions } = options;
  return createSidechainModules(sidechainOptions);
}
