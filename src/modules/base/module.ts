import type { Schema } from '../../codec/index.js';
import type { Ed25519Check } from '../../crypto/signature-verifier.js';
import type { ModuleInitArgs } from '../../config/genesis-config.js';
import type { Command } from './command.js';
import type { CrossChainCommand, CrossChainMethod } from './cross-chain.js';
import type {
  BlockAfterExecuteContext,
  BlockExecuteContext,
  BlockVerifyContext,
  GenesisContext,
  InsertAssetContext,
  SignatureCheckContext,
  TransactionExecuteContext,
  TransactionVerifyContext,
} from './context.js';
import type { EndpointHandler } from './endpoint.js';
import type { ModuleEvent } from './module-event.js';
import type { ModuleStore } from './module-store.js';
import type { VerificationResult } from './verify-result.js';

/** Module metadata as `system_getMetadata` reports it (lisk-sdk ModuleMetadata). */
export interface ModuleMetadata {
  /** Endpoint schemas are plain JSON schemas (no field numbers). */
  readonly endpoints: { name: string; request?: Record<string, unknown>; response?: Record<string, unknown> }[];
  readonly events: { name: string; data: Schema }[];
  readonly commands: { name: string; params: Schema }[];
  readonly assets: { version: number; data: Schema }[];
  readonly stores: { key: string; data?: Schema }[];
}

/**
 * A state-machine module (lisk-sdk BaseModule). Hooks run in module registration order, which is
 * the order of the application's module list. Every hook is optional; a thrown error from a block
 * hook makes the block invalid, from a transaction hook makes the transaction (and so the block)
 * invalid, except command execution, which only fails the transaction.
 */
export interface Module {
  readonly name: string;
  readonly commands: readonly Command<unknown>[];
  readonly stores: readonly ModuleStore<object>[];
  readonly events: readonly ModuleEvent<object>[];
  readonly endpoints: Readonly<Record<string, EndpointHandler>>;
  /** The schema of the module's genesis asset, when it has one. */
  readonly genesisAssetSchema?: Schema;
  /** Cross-chain hooks, for a module the interoperability module dispatches messages to (cross-chain.ts). */
  readonly crossChainMethod?: CrossChainMethod;
  /** Commands cross-chain messages can name, in lisk-sdk's registration order. */
  readonly crossChainCommands?: readonly CrossChainCommand<unknown>[];

  metadata(): ModuleMetadata;

  /** Reads the module's config section; called once, before any other hook. */
  init?(args: ModuleInitArgs): void;

  initGenesisState?(context: GenesisContext): void | Promise<void>;
  finalizeGenesisState?(context: GenesisContext): void | Promise<void>;
  insertAssets?(context: InsertAssetContext): void | Promise<void>;
  verifyAssets?(context: BlockVerifyContext): void | Promise<void>;
  verifyTransaction?(context: TransactionVerifyContext): VerificationResult | Promise<VerificationResult>;
  /**
   * The Ed25519 checks verifyTransaction would make for this transaction against this state
   * (Basalt, not lisk-sdk): the engine verifies those of a whole block in one batch off the main
   * thread and hands the verified ones to verifyTransaction, which then only checks the rest.
   */
  signatureChecks?(context: SignatureCheckContext): readonly Ed25519Check[];
  beforeCommandExecute?(context: TransactionExecuteContext): void | Promise<void>;
  afterCommandExecute?(context: TransactionExecuteContext): void | Promise<void>;
  beforeTransactionsExecute?(context: BlockExecuteContext): void | Promise<void>;
  afterTransactionsExecute?(context: BlockAfterExecuteContext): void | Promise<void>;
}

/**
 * A module's `system_getMetadata` entry (lisk-sdk BaseModule.metadata): its commands, events and
 * stores as registered, the endpoints named in `endpointNames` (every endpoint by default) with
 * their schemas, and the given assets. The RPC layer puts the members in lisk-sdk's order.
 */
export function moduleMetadata(
  module: Pick<Module, 'commands' | 'events' | 'stores' | 'endpoints'>,
  assets: ModuleMetadata['assets'],
  endpointNames: readonly string[] = Object.keys(module.endpoints),
): ModuleMetadata {
  return {
    commands: module.commands.map((command) => ({ name: command.name, params: command.schema })),
    events: module.events.map((event) => ({ name: event.name, data: event.schema })),
    stores: module.stores.map((store) => ({ key: store.prefix.toString('hex'), data: store.schema })),
    endpoints: endpointNames.map((name) => {
      const { request, response } = module.endpoints[name] as EndpointHandler;
      return { name, ...(request !== undefined && { request }), ...(response !== undefined && { response }) };
    }),
    assets,
  };
}
