/**
 * recoverState on the mainchain (lisk-sdk mainchain/commands/recover_state.ts) and on a sidechain
 * (lisk-sdk sidechain/commands/recover_state.ts): both are the LIP 0054 state recovery command of
 * state-recovery.ts, registered under the same name and schema.
 */
import { BaseStateRecoveryCommand } from '../state-recovery.js';

export class RecoverStateCommand extends BaseStateRecoveryCommand {}

export class SidechainRecoverStateCommand extends BaseStateRecoveryCommand {}
