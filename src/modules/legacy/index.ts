/**
 * Lisk Core v4's legacy module (lisk-core src/application/modules/legacy; docs/protocol/legacy.md):
 * the balances of pre-v4 accounts that had no public key at the v3 → v4 migration, reclaimable
 * with `reclaimLSK`, and `registerKeys`, with which a migrated validator registers its BLS and
 * generator keys and is unbanned. Lisk Core registers it after all lisk-sdk modules, so its
 * genesis hook runs after the token module's.
 */
import type { Schema } from '../../codec/index.js';
import type { ModuleInitArgs } from '../../config/genesis-config.js';
import type { Command, EndpointHandler, GenesisContext, Module, ModuleEvent, ModuleMetadata, ModuleStore } from '../base/index.js';
import { moduleMetadata } from '../base/index.js';
import { ReclaimLSKCommand } from './commands/reclaim-lsk.js';
import { RegisterKeysCommand } from './commands/register-keys.js';
import { parseLegacyConfig, type LegacyConfig } from './config.js';
import { ADDRESS_LEGACY_RESERVE, LEGACY_MODULE_NAME } from './constants.js';
import type { LegacyDependencies } from './dependencies.js';
import { legacyEndpoints } from './endpoint.js';
import { legacyEvents } from './events.js';
import { initLegacyGenesisState } from './genesis.js';
import { LegacyMethod } from './method.js';
import { genesisLegacyStoreSchema } from './schemas.js';
import { legacyStores } from './stores.js';
import { InvariantError } from '../../errors.js';

export class LegacyModule implements Module {
  readonly name = LEGACY_MODULE_NAME;
  readonly stores: readonly ModuleStore<object>[] = legacyStores;
  readonly events: readonly ModuleEvent<object>[] = legacyEvents;
  readonly genesisAssetSchema: Schema = genesisLegacyStoreSchema;
  /** lisk-core's command order: reclaimLSK, registerKeys. */
  readonly commands: readonly Command<unknown>[];
  readonly endpoints: Readonly<Record<string, EndpointHandler>> = legacyEndpoints;
  readonly method = new LegacyMethod();
  readonly legacyReserveAddress: Buffer = ADDRESS_LEGACY_RESERVE;

  private readonly reclaimLSK: ReclaimLSKCommand;
  private moduleConfig: LegacyConfig | undefined;

  constructor(private readonly deps: LegacyDependencies) {
    this.reclaimLSK = new ReclaimLSKCommand(deps.token);
    this.commands = [this.reclaimLSK, new RegisterKeysCommand({ validators: deps.validators, pos: deps.pos })];
  }

  /** The parsed config (throws before init). */
  get config(): LegacyConfig {
    if (this.moduleConfig === undefined) throw new InvariantError('The legacy module is used before init().');
    return this.moduleConfig;
  }

  /** Parses `modules.legacy`: tokenIDReclaim with its chain part replaced by the chain ID. */
  init(args: ModuleInitArgs): void {
    this.moduleConfig = parseLegacyConfig(args.moduleConfig, args.genesisConfig.chainID);
    this.reclaimLSK.init(this.moduleConfig);
  }

  /**
   * The module's `system_getMetadata` entry (without `name`), as lisk-core's LegacyModule.metadata()
   * builds it, key order included: lisk-core reports no stores for this module.
   */
  metadata(): ModuleMetadata {
    const { endpoints, commands, events, assets } = moduleMetadata(this, [{ version: 0, data: genesisLegacyStoreSchema }]);
    return { endpoints, commands, events, assets, stores: [] };
  }

  initGenesisState(context: GenesisContext): void {
    initLegacyGenesisState(context, this.config.tokenIDReclaim, this.deps.token);
  }
}

export { LegacyMethod } from './method.js';
export { ReclaimLSKCommand, type ReclaimLSKParams } from './commands/reclaim-lsk.js';
export { RegisterKeysCommand, type RegisterKeysParams } from './commands/register-keys.js';
export { parseLegacyConfig, DEFAULT_LEGACY_CONFIG, type LegacyConfig } from './config.js';
export { initLegacyGenesisState, type GenesisLegacyStore } from './genesis.js';
export { getLegacyAccount, legacyEndpoints, type LegacyAccountJSON } from './endpoint.js';
export { legacyAddressOfPublicKey } from './legacy-address.js';
export type * from './dependencies.js';
export * from './constants.js';
export * from './events.js';
export * from './schemas.js';
export * from './stores.js';
