/**
 * Module config checks at start-up: the modules' own parsers (the code that runs when the node
 * starts), so a bad module value is refused before the data directory is touched. They live in
 * the runtime, not in config/, because they need the modules and the config room stays below
 * them; `prepareNodeConfig` takes them as its `checkChainConfig` option.
 */
import type { Block } from '../chain/block.js';
import { ConfigError } from '../config/config-error.js';
import type { ChainConfig } from '../config/lisk-config.js';
import { ValidationError } from '../errors.js';
import { createChainModules } from '../modules/chain-modules.js';
import { parsePosConfig } from '../modules/pos/config.js';

/**
 * Runs every module's config check (the same code that runs at start), so a bad module value is
 * refused before the data directory is touched; returns warnings for oddities lisk-sdk allows.
 */
export function checkModuleConfigs(chainConfig: ChainConfig, genesisBlock: Block): string[] {
  const { genesis, modules } = chainConfig;
  try {
    const withLegacy = genesisBlock.assets.getAsset('legacy') !== undefined || 'legacy' in modules;
    createChainModules({ genesisConfig: genesis, moduleConfigs: modules, withLegacy });
  } catch (error) {
    if (error instanceof ValidationError) throw new ConfigError(`Invalid config:\n  ${error.errors.join('\n  ')}`);
    throw new ConfigError(`Invalid module config: ${(error as Error).message}`);
  }
  const { roundLength } = parsePosConfig(modules.pos ?? {}, genesis);
  return roundLength === genesis.bftBatchSize
    ? []
    : [`.genesis.bftBatchSize is ${genesis.bftBatchSize} but the PoS round length is ${roundLength}; Lisk chains use the round length.`];
}
