/**
 * State recovery (LIP 0054 "State recovery command"; lisk-sdk
 * framework/src/modules/interoperability/base_state_recovery.ts): store entries of a terminated
 * chain are proven against its terminated state root and handed to the `recover` hook of the
 * module that owns them. The mainchain and the sidechain register the same command
 * (commands/recover-state.ts), and the other recovery commands use the SMT check below.
 */
import { sha256 } from '../../crypto/sha256.js';
import { calculateRoot, STATE_KEY_LENGTH, verifyInclusionProof, type SmtQuery } from '../../merkle/smt/index.js';
import {
  computeStorePrefix,
  VERIFY_OK,
  verifyFail,
  type Command,
  type CommandExecuteContext,
  type CommandVerifyContext,
  type CrossChainCommand,
  type CrossChainMethod,
  type VerificationResult,
} from '../base/index.js';
import { HASH_LENGTH } from './constants.js';
import { invalidSMTVerificationEvent } from './events.js';
import { stateRecoveryParamsSchema } from './schemas.js';
import { terminatedStateStore } from './stores.js';
import { allDistinct } from './utils.js';
import { ExecutionError } from '../../errors.js';

/**
 * The interoperability module's registry of interoperable modules (registerInteroperableModule),
 * as the recovery commands read it: lisk-sdk's two maps keyed by module name, in registration
 * order. `methods` holds the registered modules' hooks (never the interoperability module's own);
 * `commands` their cross-chain commands, the interoperability module's own included. The commands
 * keep a reference, so modules registered after construction are seen.
 */
export interface InteroperableModuleRegistry {
  readonly methods: ReadonlyMap<string, CrossChainMethod>;
  readonly commands: ReadonlyMap<string, readonly CrossChainCommand<unknown>[]>;
}

/** lisk-sdk RECOVERED_STORE_VALUE: what a recovered entry becomes in the terminated state tree (no known pre-image). */
export const RECOVERED_STORE_VALUE: Buffer = Buffer.alloc(HASH_LENGTH, 0);

export interface StateRecoveryStoreEntry {
  substorePrefix: Buffer;
  storeKey: Buffer;
  storeValue: Buffer;
  bitmap: Buffer;
}

/** Params of recoverState (lisk-sdk StateRecoveryParams). */
export interface StateRecoveryParams {
  chainID: Buffer;
  module: string;
  storeEntries: StateRecoveryStoreEntry[];
  siblingHashes: Buffer[];
}

/**
 * Whether `queries` (state keys with the hash of their value) are all included in the state tree
 * of `root`: lisk-db `SparseMerkleTree#verifyInclusionProof` with the state tree's 38-byte keys.
 */
export function verifyStateInclusion(root: Buffer, queries: readonly SmtQuery[], siblingHashes: readonly Buffer[]): boolean {
  return verifyInclusionProof(
    queries.map((query) => query.key),
    { siblingHashes, queries },
    root,
    STATE_KEY_LENGTH,
  );
}

/** lisk-sdk BaseStateRecoveryCommand: the `recoverState` command of both chain kinds. */
export class BaseStateRecoveryCommand implements Command<StateRecoveryParams> {
  readonly name = 'recoverState';
  readonly schema = stateRecoveryParamsSchema;

  constructor(private readonly registry: InteroperableModuleRegistry) {}

  /** Cheap checks only; the proof is checked in execute, where the fee is already paid. */
  verify(context: CommandVerifyContext<StateRecoveryParams>): VerificationResult {
    const { chainID, storeEntries, module } = context.params;

    const terminatedState = terminatedStateStore.get(context.state, chainID);
    if (terminatedState === undefined) return verifyFail('The terminated state does not exist.');
    if (!terminatedState.initialized) return verifyFail('The terminated state is not initialized.');

    const method = this.registry.methods.get(module);
    if (method === undefined) return verifyFail('Module is not registered on the chain.');
    // Modules without a recover hook (interoperability, auth, ...) hold nothing recoverable.
    if (method.recover === undefined) return verifyFail("Module is not recoverable, as it doesn't have a recover method.");

    // Within one module, substore prefix and store key identify an entry.
    const entryKeys = storeEntries.map((entry) => Buffer.concat([entry.substorePrefix, entry.storeKey]));
    if (!allDistinct(entryKeys)) return verifyFail('Recoverable store keys are not pairwise distinct.');
    return VERIFY_OK;
  }

  /**
   * Proves every entry in the terminated state root, lets the module recover each one, then
   * replaces the recovered entries' values by RECOVERED_STORE_VALUE in that root so that no entry
   * can be recovered twice.
   */
  async execute(context: CommandExecuteContext<StateRecoveryParams>): Promise<void> {
    const { chainID, storeEntries, module, siblingHashes } = context.params;
    const storePrefix = computeStorePrefix(module);
    const stateKeyOf = (entry: StateRecoveryStoreEntry): Buffer =>
      Buffer.concat([storePrefix, entry.substorePrefix, sha256(entry.storeKey)]);

    const terminatedState = terminatedStateStore.getOrThrow(context.state, chainID);
    const proven = storeEntries.map((entry) => ({ key: stateKeyOf(entry), value: sha256(entry.storeValue), bitmap: entry.bitmap }));
    if (!verifyStateInclusion(terminatedState.stateRoot, proven, siblingHashes)) {
      invalidSMTVerificationEvent.emit(context.events, {});
      throw new ExecutionError('State recovery proof of inclusion is not valid.');
    }

    const method = this.registry.methods.get(module);
    const recovered: SmtQuery[] = [];
    for (const entry of storeEntries) {
      try {
        // verify made sure the hook exists; a module unregistered since then fails like a throwing hook.
        if (method?.recover === undefined) throw new ExecutionError(`Module ${module} has no recover method.`);
        await method.recover({
          ...context,
          module,
          terminatedChainID: chainID,
          substorePrefix: entry.substorePrefix,
          storeKey: entry.storeKey,
          storeValue: entry.storeValue,
        });
      } catch {
        throw new ExecutionError(`Recovery failed for module: ${module}`);
      }
      recovered.push({ key: stateKeyOf(entry), value: RECOVERED_STORE_VALUE, bitmap: entry.bitmap });
    }

    const stateRoot = calculateRoot({ queries: recovered, siblingHashes });
    terminatedStateStore.set(context.state, chainID, { ...terminatedState, stateRoot });
  }
}
