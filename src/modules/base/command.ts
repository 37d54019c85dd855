import type { Schema } from '../../codec/index.js';
import type { CommandExecuteContext, CommandVerifyContext } from './context.js';
import type { VerificationResult } from './verify-result.js';

/**
 * A transaction command (lisk-sdk BaseCommand): its params schema, an optional verify that may
 * only read state, and an execute whose thrown error makes the transaction fail (its state and
 * events rolled back, the block still valid).
 */
export interface Command<P = unknown> {
  readonly name: string;
  readonly schema: Schema;
  verify?(context: CommandVerifyContext<P>): VerificationResult | Promise<VerificationResult>;
  execute(context: CommandExecuteContext<P>): void | Promise<void>;
}
