/**
 * pos:unlock (LIP 0057 "Unlock Command"; lisk-sdk 6.1 pos/commands/unlock.ts): releases every
 * pending unlock whose waiting period is over, that no punishment of its validator holds back,
 * and whose unstake a certificate already covers. Fails when none qualifies.
 */
import type { Command, CommandExecuteContext } from '../../base/index.js';
import { punishmentLockingPeriods, type PosConfig, type PunishmentLockingPeriods } from '../config.js';
import { EMPTY_KEY, POS_MODULE_NAME } from '../constants.js';
import type { PosTokenMethod } from '../dependencies.js';
import { emptyParamsSchema } from '../schemas.js';
import { genesisDataStore, stakerStore, validatorStore, type UnlockingObject } from '../stores.js';
import { hasWaited, isCertificateGenerated, isPunished } from '../unlocking.js';
import { ExecutionError, InvariantError } from '../../../errors.js';

export class UnlockCommand implements Command<Record<string, never>> {
  readonly name = 'unlock';
  readonly schema = emptyParamsSchema;
  private config: PosConfig | undefined;
  private periods: PunishmentLockingPeriods | undefined;

  constructor(private readonly token: PosTokenMethod) {}

  init(config: PosConfig): void {
    this.config = config;
    this.periods = punishmentLockingPeriods(config);
  }

  /** Unlocks in stored order (token unlock events follow it); the others stay pending. */
  execute(context: CommandExecuteContext<Record<string, never>>): void {
    const config = this.config;
    const periods = this.periods;
    if (config === undefined || periods === undefined) throw new InvariantError('The pos module is used before init.');
    const senderAddress = context.transaction.senderAddress();
    const { height, aggregateCommit } = context.header;
    const staker = stakerStore.getOrThrow(context.state, senderAddress);
    const { height: genesisHeight } = genesisDataStore.getOrThrow(context.state, EMPTY_KEY);

    const stillPending: UnlockingObject[] = [];
    for (const unlock of staker.pendingUnlocks) {
      const { reportMisbehaviorHeights } = validatorStore.getOrThrow(context.state, unlock.validatorAddress);
      const eligible =
        hasWaited(unlock, senderAddress, height, periods) &&
        !isPunished(unlock, reportMisbehaviorHeights, senderAddress, height, periods) &&
        isCertificateGenerated({
          unlock,
          genesisHeight,
          maxHeightCertified: aggregateCommit.height,
          roundLength: config.roundLength,
        });
      if (eligible) {
        this.token.unlock(context, senderAddress, POS_MODULE_NAME, config.posTokenID, unlock.amount);
      } else {
        stillPending.push(unlock);
      }
    }
    if (stillPending.length === staker.pendingUnlocks.length) {
      throw new ExecutionError('No eligible staker data was found for unlocking');
    }
    staker.pendingUnlocks = stillPending;
    stakerStore.set(context.state, senderAddress, staker);
  }
}
