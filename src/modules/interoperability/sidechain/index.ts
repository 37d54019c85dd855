/**
 * The interoperability module of a sidechain (LIPs 0043, 0045; lisk-sdk
 * framework/src/modules/interoperability/sidechain/module.ts with base_interoperability_module.ts).
 * Same name, stores and events as the mainchain's module; its own genesis rules, methods,
 * endpoints and commands: registerMainchain, submitSidechainCrossChainUpdate,
 * initializeStateRecovery and recoverState, in lisk-sdk's order.
 */
import type { Schema } from '../../../codec/index.js';
import type {
  Command,
  CrossChainCommand,
  EndpointHandler,
  GenesisContext,
  InteroperableModule,
  Module,
  ModuleEvent,
  ModuleMetadata,
  ModuleStore,
} from '../../base/index.js';
import { moduleMetadata } from '../../base/index.js';
import { CrossChainRegistry } from '../ccm/registry.js';
import { sidechainOwnCrossChainCommands } from '../ccm/own-commands.js';
import { InteroperabilityInternalMethod } from '../internal-method.js';
import { InitializeStateRecoveryCommand } from '../commands/initialize-state-recovery.js';
import { SidechainRecoverStateCommand } from '../commands/recover-state.js';
import { RegisterMainchainCommand, type RegisterMainchainValidatorsMethod } from '../commands/register-mainchain.js';
import { SubmitSidechainCrossChainUpdateCommand } from '../commands/submit-sidechain-cross-chain-update.js';
import { INTEROPERABILITY_MODULE_NAME } from '../constants.js';
import { createInteroperabilityEndpoints } from '../endpoint.js';
import type { InteroperabilityTokenMethod } from '../dependencies.js';
import { interoperabilityEvents } from '../events.js';
import { finalizeGenesisInteroperability, readGenesisInteroperability, writeGenesisChainState } from '../genesis.js';
import { genesisInteroperabilitySchema } from '../schemas.js';
import { interoperabilityStores } from '../stores.js';
import { verifySidechainGenesis } from './genesis.js';
import { SidechainInteroperabilityMethod } from './method.js';

/** What the sidechain module calls on other modules (lisk-sdk SidechainInteroperabilityModule.addDependencies). */
export interface SidechainInteroperabilityDependencies {
  readonly validators: RegisterMainchainValidatorsMethod;
  readonly token: InteroperabilityTokenMethod;
}

export class SidechainInteroperabilityModule implements Module {
  readonly name = INTEROPERABILITY_MODULE_NAME;
  readonly commands: readonly Command<unknown>[];
  readonly stores: readonly ModuleStore<object>[] = interoperabilityStores;
  readonly events: readonly ModuleEvent<object>[] = interoperabilityEvents;
  readonly endpoints: Readonly<Record<string, EndpointHandler>> = createInteroperabilityEndpoints('sidechain');
  readonly genesisAssetSchema: Schema = genesisInteroperabilitySchema;
  readonly method: SidechainInteroperabilityMethod;
  /**
   * The module's own cross-chain commands; lisk-sdk registers two on a sidechain, registration and
   * channelTerminated (sidechain/cc_commands), which the cross-chain update processing supplies.
   */
  readonly crossChainCommands: CrossChainCommand<unknown>[] = sidechainOwnCrossChainCommands();
  readonly crossChainRegistry = new CrossChainRegistry(INTEROPERABILITY_MODULE_NAME, this.crossChainCommands);

  /**
   * Unlike the mainchain module, which token's methods need before it has its own dependencies,
   * this one is built after validators and token, so it takes them at once.
   */
  constructor(private readonly deps: SidechainInteroperabilityDependencies) {
    this.method = new SidechainInteroperabilityMethod(() => deps.token);
    this.commands = [
      new RegisterMainchainCommand(deps.validators),
      new SubmitSidechainCrossChainUpdateCommand({
        registry: this.crossChainRegistry,
        internal: new InteroperabilityInternalMethod(() => deps.token),
        method: this.method,
        token: () => deps.token,
      }),
      new InitializeStateRecoveryCommand(),
      new SidechainRecoverStateCommand(this.crossChainRegistry),
    ];
  }

  /** lisk-sdk registerInteroperableModule: a module whose cross-chain commands and hooks messages may reach. */
  registerInteroperableModule(module: InteroperableModule): void {
    this.crossChainRegistry.register(module);
  }

  /** lisk-sdk's metadata of the module (without `name`). */
  metadata(): ModuleMetadata {
    return moduleMetadata(this, [{ version: 0, data: genesisInteroperabilitySchema }]);
  }

  /**
   * LIP 0045 sidechain genesis: without an interoperability asset nothing is written; otherwise
   * the asset is checked and the own chain account (when named), the mainchain's entries and the
   * terminated accounts are stored. A sidechain keeps no registered names.
   */
  initGenesisState(context: GenesisContext): void {
    const genesis = readGenesisInteroperability(context);
    if (genesis === undefined) return;
    verifySidechainGenesis(genesis, { chainID: context.chainID, timestamp: context.header.timestamp });
    writeGenesisChainState(context, genesis, context.chainID);
  }

  /** LIP 0045: a channel paying fees in a native token needs its escrow account (as on the mainchain). */
  finalizeGenesisState(context: GenesisContext): void {
    finalizeGenesisInteroperability(context, this.deps.token);
  }
}

export { SidechainInteroperabilityMethod } from './method.js';
export { verifySidechainGenesis } from './genesis.js';
export {
  RegisterMainchainCommand,
  mainchainRegistrationParamsSchema,
  registrationSignatureMessageSchema,
  type MainchainRegistrationParams,
} from '../commands/register-mainchain.js';
