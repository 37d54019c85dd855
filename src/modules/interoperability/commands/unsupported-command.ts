/**
 * Mainchain commands whose cross-chain logic Basalt does not implement yet. They are registered
 * under lisk-sdk's names with lisk-sdk's params schemas (so metadata, schemas and decoding match),
 * but a transaction using one is refused at verification and fails if ever executed.
 */
import type { Schema } from '../../../codec/index.js';
import { verifyFail, type Command, type VerificationResult } from '../../base/index.js';
import { ExecutionError } from '../../../errors.js';

export class UnsupportedInteroperabilityCommand implements Command<unknown> {
  constructor(
    readonly name: string,
    readonly schema: Schema,
  ) {}

  private get message(): string {
    return `The interoperability command ${this.name} is not supported yet by this node.`;
  }

  verify(): VerificationResult {
    return verifyFail(this.message);
  }

  execute(): void {
    throw new ExecutionError(this.message);
  }
}
