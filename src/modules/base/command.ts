import type { Schema } from '../../codec/index.js';
import type { CommandExecuteContext, CommandVerifyContext } from './context.js';
import type { VerificationResult } from './verify-result.js';

/**
 * A transaction command (lisk-sdk BaseCommand): its params schema, an optional verify that may
 * only read state, and an execute whose thrown error makes the transaction fail (its state and
 * events rolled back, the block still valid).
 *
 * `verify` and `execute` are declared as methods, not as function-valued properties, on purpose:
 * TypeScript compares method parameters bivariantly, so a `Command<TransferParams>` is a
 * `Command` (= `Command<unknown>`) and a module lists its commands as `readonly Command[]`
 * without a cast. That widening is sound here because the state machine only ever calls a
 * command with params it decoded and validated with that same command's `schema`. Keep them
 * methods: as properties, `P` would become contravariant and every module list would need a cast.
 */
export interface Command<P = unknown> {
  readonly name: string;
  readonly schema: Schema;
  verify?(context: CommandVerifyContext<P>): VerificationResult | Promise<VerificationResult>;
  execute(context: CommandExecuteContext<P>): void | Promise<void>;
}
