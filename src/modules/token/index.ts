/**
 * The token module (LIP 0051; lisk-sdk framework/src/modules/token): balances, supplies, escrows
 * and supported tokens; the `transfer` and `transferCrossChain` commands; TokenMethod for other
 * modules. Its only block hook is initGenesisState. As an interoperable module (LIP 0045) it
 * offers the interoperability module its cross-chain hooks (cross-chain/method.ts) and the
 * `transferCrossChain` cross-chain command (cross-chain/transfer-command.ts).
 */
import type { Schema } from '../../codec/index.js';
import type { ModuleInitArgs } from '../../config/genesis-config.js';
import type { Command, EndpointHandler, GenesisContext, Module, ModuleEvent, ModuleMetadata, ModuleStore } from '../base/index.js';
import type { CrossChainCommand } from '../base/index.js';
import { moduleMetadata } from '../base/index.js';
import { TransferCrossChainCommand } from './commands/transfer-cross-chain.js';
import { TransferCommand } from './commands/transfer.js';
import { parseTokenConfig } from './config.js';
import { TOKEN_MODULE_NAME } from './constants.js';
import { TokenCrossChainMethod } from './cross-chain/method.js';
import { CrossChainTransferCommand } from './cross-chain/transfer-command.js';
import { TokenDependencySlots, type TokenDependencies } from './dependencies.js';
import { createTokenEndpoints } from './endpoint.js';
import { tokenEvents } from './events.js';
import { initTokenGenesisState } from './genesis.js';
import { TokenInternalMethod } from './internal-method.js';
import { TokenMethod } from './method.js';
import { genesisTokenAssetSchema } from './schemas.js';
import { TokenSettings } from './settings.js';
import { tokenStores } from './stores.js';

export class TokenModule implements Module {
  readonly name = TOKEN_MODULE_NAME;
  readonly stores: readonly ModuleStore<object>[] = tokenStores;
  readonly events: readonly ModuleEvent<object>[] = tokenEvents;
  readonly genesisAssetSchema: Schema = genesisTokenAssetSchema;
  readonly commands: readonly Command<unknown>[];
  readonly endpoints: Readonly<Record<string, EndpointHandler>>;
  /** What other modules call (fee, pos, dynamicReward, interoperability, ...). */
  readonly method: TokenMethod;
  /** Hooks the interoperability module calls around every cross-chain message (lisk-sdk TokenInteroperableMethod). */
  readonly crossChainMethod: TokenCrossChainMethod;
  /** What a cross-chain message to this module can name: `transferCrossChain`. */
  readonly crossChainCommands: readonly CrossChainCommand<unknown>[];

  private readonly settings = new TokenSettings();
  private readonly dependencies: TokenDependencySlots;

  /** Dependencies may also be supplied later with addDependencies (token and fee need each other). */
  constructor(dependencies: TokenDependencies = {}) {
    this.dependencies = new TokenDependencySlots(dependencies);
    const internal = new TokenInternalMethod(this.settings, this.dependencies);
    this.method = new TokenMethod(this.name, this.settings, this.dependencies, internal);
    this.commands = [
      new TransferCommand(this.method, internal),
      new TransferCrossChainCommand(this.name, this.method, internal, this.dependencies),
    ];
    this.crossChainMethod = new TokenCrossChainMethod(this.dependencies, internal);
    this.crossChainCommands = [new CrossChainTransferCommand(this.method, internal)];
    this.endpoints = createTokenEndpoints(this.settings);
  }

  /** Supplies the fee and/or interoperability methods (lisk-sdk TokenModule.addDependencies). */
  addDependencies(dependencies: TokenDependencies): void {
    this.dependencies.add(dependencies);
  }

  /** Parses `modules.token` (see config.ts) and records the chain's own ID. */
  init(args: ModuleInitArgs): void {
    this.settings.init(parseTokenConfig(args.moduleConfig), args.genesisConfig.chainID);
  }

  initGenesisState(context: GenesisContext): void {
    initTokenGenesisState(context, this.name);
  }

  /** The module's `system_getMetadata` entry (without `name`), as lisk-sdk's TokenModule.metadata(). */
  metadata(): ModuleMetadata {
    return moduleMetadata(this, [{ version: 0, data: genesisTokenAssetSchema }]);
  }
}

export { TokenMethod } from './method.js';
export { TokenInternalMethod } from './internal-method.js';
export { TokenCrossChainMethod } from './cross-chain/method.js';
export { CrossChainTransferCommand } from './cross-chain/transfer-command.js';
export { InsufficientBalanceError } from './errors.js';
export type { FeeMethod, InteroperabilityMethod, TokenDependencies } from './dependencies.js';
export { DEFAULT_TOKEN_CONFIG, parseTokenConfig, type TokenModuleConfig } from './config.js';
export * from './constants.js';
export * from './stores.js';
export * from './events.js';
export * from './schemas.js';
export * from './token-id.js';
