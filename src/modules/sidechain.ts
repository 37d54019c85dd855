import type { AuthModule } from './auth/index.js';
import type { Module } from './base/index.js';
import { createCoreModules } from './core-modules.js';
import type { DynamicRewardModule } from './dynamic-reward/index.js';
import type { FeeModule } from './fee/index.js';
import { SidechainInteroperabilityModule } from './interoperability/sidechain/index.js';
import type { MainchainModulesOptions } from './mainchain.js';
import type { PosModule } from './pos/index.js';
import type { RandomModule } from './random/index.js';
import type { TokenModule } from './token/index.js';
import type { ValidatorsModule } from './validators/index.js';

/** Options of a sidechain's module set: those of the mainchain's, which has the legacy module only. */
export type SidechainModulesOptions = Omit<MainchainModulesOptions, 'withLegacy'>;

export interface SidechainModules {
  /** In lisk-sdk's registration order, which is the order every hook runs in. */
  readonly list: readonly Module[];
  readonly auth: AuthModule;
  readonly validators: ValidatorsModule;
  readonly token: TokenModule;
  readonly fee: FeeModule;
  readonly interoperability: SidechainInteroperabilityModule;
  readonly pos: PosModule;
  readonly random: RandomModule;
  readonly dynamicReward: DynamicRewardModule;
  /** A sidechain never has Lisk Core's legacy module. */
  readonly legacy: undefined;
}

/**
 * The module set of lisk-sdk 6.1's default sidechain application (Application.defaultApplication
 * with mainchain = false): the mainchain's modules in the same order (LIP 0063) with the same
 * rewards module, the sidechain interoperability module in place of the mainchain's, wired to
 * each other's methods and initialised with their config sections.
 */
export function createSidechainModules(options: SidechainModulesOptions): SidechainModules {
  const { auth, validators, token, fee, random, pos, dynamicReward } = createCoreModules(options);
  const interoperability = new SidechainInteroperabilityModule({ validators: validators.method, token: token.method });
  token.addDependencies({ fee: fee.method, interoperability: interoperability.method });
  fee.addDependencies({ interoperability: interoperability.method });
  // lisk-sdk registers token, then fee, as the modules cross-chain messages reach.
  interoperability.registerInteroperableModule(token);
  interoperability.registerInteroperableModule(fee);

  const list: Module[] = [auth, validators, token, fee, interoperability, pos, random, dynamicReward];
  for (const module of list) {
    module.init?.({ genesisConfig: options.genesisConfig, moduleConfig: options.moduleConfigs[module.name] ?? {} });
  }
  return { list, auth, validators, token, fee, interoperability, pos, random, dynamicReward, legacy: undefined };
}
