import type { GenesisConfig } from '../config/genesis-config.js';
import type { AuthModule } from './auth/index.js';
import { createCoreModules } from './core-modules.js';
import type { Module } from './base/index.js';
import type { DynamicRewardModule } from './dynamic-reward/index.js';
import type { FeeModule } from './fee/index.js';
import { LegacyModule } from './legacy/index.js';
import { MainchainInteroperabilityModule } from './interoperability/index.js';
import type { PosModule } from './pos/index.js';
import type { HashOnionSource, HashOnionStore, RandomModule } from './random/index.js';
import type { TokenModule } from './token/index.js';
import type { ValidatorsModule } from './validators/index.js';

export interface MainchainModulesOptions {
  readonly genesisConfig: GenesisConfig;
  /** The `modules` section of the config, by module name. */
  readonly moduleConfigs: Readonly<Record<string, Record<string, unknown>>>;
  readonly hashOnionStore?: HashOnionStore;
  readonly hashOnionSource?: HashOnionSource;
  /** Lisk Core v4's legacy module, registered last when the chain has it. */
  readonly withLegacy?: boolean;
}

export interface MainchainModules {
  /** In lisk-sdk's registration order, which is the order every hook runs in. */
  readonly list: readonly Module[];
  readonly auth: AuthModule;
  readonly validators: ValidatorsModule;
  readonly token: TokenModule;
  readonly fee: FeeModule;
  readonly interoperability: MainchainInteroperabilityModule;
  readonly pos: PosModule;
  readonly random: RandomModule;
  readonly dynamicReward: DynamicRewardModule;
  readonly legacy: LegacyModule | undefined;
}

/**
 * The module set of lisk-sdk 6.1's default mainchain application (Application.defaultApplication
 * with mainchain = true): auth, validators, token, fee, interoperability, pos, random,
 * dynamicReward — plus Lisk Core v4's legacy module when asked — wired to each other's methods
 * and initialised with their config sections.
 */
export function createMainchainModules(options: MainchainModulesOptions): MainchainModules {
  const { auth, validators, token, fee, random, pos, dynamicReward } = createCoreModules(options);
  const interoperability = new MainchainInteroperabilityModule();
  token.addDependencies({ fee: fee.method, interoperability: interoperability.method });
  fee.addDependencies({ interoperability: interoperability.method });
  interoperability.addDependencies({ token: token.method, fee: fee.method });
  // lisk-sdk's order: the token's cross-chain hooks run before the fee module's.
  interoperability.registerInteroperableModule(token);
  interoperability.registerInteroperableModule(fee);

  const legacy = options.withLegacy ? new LegacyModule({ token: token.method, validators: validators.method, pos: pos.method }) : undefined;

  const list: Module[] = [auth, validators, token, fee, interoperability, pos, random, dynamicReward];
  if (legacy) list.push(legacy);
  for (const module of list) {
    module.init?.({ genesisConfig: options.genesisConfig, moduleConfig: options.moduleConfigs[module.name] ?? {} });
  }
  return { list, auth, validators, token, fee, interoperability, pos, random, dynamicReward, legacy };
}
