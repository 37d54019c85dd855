/**
 * The interoperability module of a mainchain (LIPs 0043, 0045, 0049, 0053, 0054; lisk-sdk
 * framework/src/modules/interoperability with mainchain/). Implemented: the stores, events,
 * genesis asset, sidechain registration, the methods (including `send`), the endpoints, the
 * cross-chain update with the processing of its messages (ccu/, ccm/), which are dispatched to
 * the modules registered with `registerInteroperableModule`, and the LIP 0054 recovery and
 * liveness termination commands.
 */
import type { Schema } from '../../codec/index.js';
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
} from '../base/index.js';
import { CrossChainRegistry } from './ccm/registry.js';
import { mainchainOwnCrossChainCommands } from './ccm/own-commands.js';
import { InteroperabilityInternalMethod } from './internal-method.js';
import { moduleMetadata } from '../base/index.js';
import { InitializeMessageRecoveryCommand } from './commands/initialize-message-recovery.js';
import { RecoverMessageCommand } from './commands/recover-message.js';
import { RecoverStateCommand } from './commands/recover-state.js';
import { RegisterSidechainCommand } from './commands/register-sidechain.js';
import { SubmitMainchainCrossChainUpdateCommand } from './commands/submit-mainchain-cross-chain-update.js';
import { TerminateSidechainForLivenessCommand } from './commands/terminate-sidechain-for-liveness.js';
import { INTEROPERABILITY_MODULE_NAME } from './constants.js';
import type { InteroperabilityDependencies } from './dependencies.js';
import { createInteroperabilityEndpoints } from './endpoint.js';
import { interoperabilityEvents } from './events.js';
import {
  decodeGenesisInteroperability,
  verifyGenesisEscrowAccounts,
  verifyMainchainGenesis,
  writeMainchainGenesisState,
} from './genesis.js';
import { InteroperabilityMethod } from './method.js';
import { genesisInteroperabilitySchema } from './schemas.js';
import { interoperabilityStores } from './stores.js';
import { GenesisStateError, InvariantError } from '../../errors.js';

export class InteroperabilityModule implements Module {
  readonly name = INTEROPERABILITY_MODULE_NAME;
  readonly commands: readonly Command<unknown>[];
  readonly stores: readonly ModuleStore<object>[] = interoperabilityStores;
  readonly events: readonly ModuleEvent<object>[] = interoperabilityEvents;
  readonly endpoints: Readonly<Record<string, EndpointHandler>> = createInteroperabilityEndpoints();
  readonly genesisAssetSchema: Schema = genesisInteroperabilitySchema;
  readonly method: InteroperabilityMethod;
  /** The cross-chain commands a message to this module can name (lisk-sdk `crossChainCommand`, in its order). */
  readonly crossChainCommands: readonly CrossChainCommand<unknown>[] = mainchainOwnCrossChainCommands();
  /** Where the messages of a cross-chain update are dispatched (see registerInteroperableModule). */
  readonly crossChainRegistry: CrossChainRegistry;
  readonly internalMethod: InteroperabilityInternalMethod;

  private deps: InteroperabilityDependencies | undefined;

  /**
   * Token and interoperability call each other, so the dependencies may also be given later with
   * `addDependencies` (they are read when first used, never at construction).
   */
  constructor(deps?: InteroperabilityDependencies) {
    this.deps = deps;
    const dependencies = (): InteroperabilityDependencies => this.dependencies;
    const token = () => this.dependencies.token;
    this.method = new InteroperabilityMethod(token);
    this.internalMethod = new InteroperabilityInternalMethod(token);
    this.crossChainRegistry = new CrossChainRegistry(INTEROPERABILITY_MODULE_NAME, this.crossChainCommands);
    const crossChainUpdate = { registry: this.crossChainRegistry, internal: this.internalMethod, method: this.method, token };
    // lisk-sdk's registration order, which is the metadata order.
    this.commands = [
      new SubmitMainchainCrossChainUpdateCommand(crossChainUpdate),
      new InitializeMessageRecoveryCommand(),
      new RecoverMessageCommand(this.crossChainRegistry),
      new RegisterSidechainCommand(dependencies),
      new RecoverStateCommand(this.crossChainRegistry),
      new TerminateSidechainForLivenessCommand(this.method),
    ];
  }

  addDependencies(deps: InteroperabilityDependencies): void {
    this.deps = deps;
  }

  /**
   * Makes `module`'s cross-chain hooks run for every message of a cross-chain update and its
   * cross-chain commands reachable (lisk-sdk BaseInteroperabilityModule.registerInteroperableModule).
   * Hooks run in registration order.
   */
  registerInteroperableModule(module: InteroperableModule): void {
    this.crossChainRegistry.register(module);
  }

  private get dependencies(): InteroperabilityDependencies {
    if (this.deps === undefined) throw new InvariantError('The interoperability module has no token/fee dependencies yet.');
    return this.deps;
  }

  /** lisk-sdk's metadata of the module (without `name`). */
  metadata(): ModuleMetadata {
    return moduleMetadata(this, [{ version: 0, data: genesisInteroperabilitySchema }]);
  }

  /**
   * LIP 0045 mainchain genesis: without an interoperability asset nothing is written; otherwise
   * the asset is checked and the own chain account, chains and registered names are stored.
   */
  initGenesisState(context: GenesisContext): void {
    const asset = context.assets.getAsset(INTEROPERABILITY_MODULE_NAME);
    if (asset === undefined) return;
    const genesis = decodeGenesisInteroperability(asset);
    verifyMainchainGenesis(genesis, { chainID: context.chainID, timestamp: context.header.timestamp });
    writeMainchainGenesisState(context, genesis, context.chainID);
  }

  /** LIP 0045: channels paying fees in a native token need their escrow account (created by token's genesis). */
  finalizeGenesisState(context: GenesisContext): void {
    const asset = context.assets.getAsset(INTEROPERABILITY_MODULE_NAME);
    // lisk-sdk decodes the asset unconditionally here, so a genesis block without one fails.
    if (asset === undefined) throw new GenesisStateError('The genesis block has no interoperability asset.');
    const genesis = decodeGenesisInteroperability(asset);
    verifyGenesisEscrowAccounts(context, genesis, this.dependencies.token);
  }
}

/** The module is the mainchain variant (lisk-sdk MainchainInteroperabilityModule). */
export { InteroperabilityModule as MainchainInteroperabilityModule };
export { InteroperabilityMethod } from './method.js';
export { RegisterSidechainCommand } from './commands/register-sidechain.js';
export { SubmitMainchainCrossChainUpdateCommand } from './commands/submit-mainchain-cross-chain-update.js';
export { SubmitSidechainCrossChainUpdateCommand } from './commands/submit-sidechain-cross-chain-update.js';
export { CrossChainUpdateCommand, CrossChainUpdatePanicError, type CrossChainUpdateDependencies } from './ccu/cross-chain-update.js';
export {
  certificateSchema,
  certificateSignatureCheck,
  decodeCertificate,
  unsignedCertificateSchema,
  type Certificate,
  type CertificateSignatureChecks,
} from './ccu/certificate.js';
export type { CrossChainUpdateParams } from './ccu/params.js';
export { CrossChainRegistry } from './ccm/registry.js';
export { RegistrationCrossChainCommand } from './ccm/registration.js';
export { ChannelTerminatedCrossChainCommand } from './ccm/channel-terminated.js';
export { SidechainTerminatedCrossChainCommand, sidechainTerminatedCCMParamsSchema } from './ccm/sidechain-terminated.js';
export { CcmProcessedCode, CcmProcessedResult, CcmStatusCode } from './ccm/codes.js';
export { mainchainOwnCrossChainCommands, sidechainOwnCrossChainCommands } from './ccm/own-commands.js';
export { InteroperabilityInternalMethod } from './internal-method.js';
export type * from './dependencies.js';
export type * from './types.js';
export * from './constants.js';
export * from './events.js';
export * from './schemas.js';
export * from './stores.js';
export { computeValidatorsHash, getMainchainID, getTokenIDLSK, isValidChainName } from './utils.js';
export { ccmID, validateCcmFormat } from './send.js';
export { isLive } from './liveness.js';
