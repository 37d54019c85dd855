/**
 * Rules for pending unlocks (LIP 0057 "Unlock" and "Punishment"; LIP 0024; lisk-sdk 6.1
 * pos/utils.ts): ordering, the waiting period after unstaking, the extended lock after a
 * validator is punished, and the certificate that must cover the unstake.
 */
import type { PunishmentLockingPeriods } from './config.js';
import type { UnlockingObject } from './stores.js';

/**
 * The canonical order of pending unlocks: by validator address ascending, then unstake height
 * descending, then amount descending. Sorts in place.
 */
export function sortUnlocking(unlocks: UnlockingObject[]): void {
  unlocks.sort((a, b) => {
    const byAddress = a.validatorAddress.compare(b.validatorAddress);
    if (byAddress !== 0) return byAddress;
    if (a.unstakeHeight !== b.unstakeHeight) return b.unstakeHeight - a.unstakeHeight;
    if (a.amount === b.amount) return 0;
    return b.amount > a.amount ? 1 : -1;
  });
}

export function equalUnlocking(a: UnlockingObject, b: UnlockingObject): boolean {
  return a.validatorAddress.equals(b.validatorAddress) && a.amount === b.amount && a.unstakeHeight === b.unstakeHeight;
}

/** Blocks an unstake waits before unlocking: longer for self-stakes. */
export function waitTime(stakerAddress: Buffer, validatorAddress: Buffer, periods: PunishmentLockingPeriods): number {
  return validatorAddress.equals(stakerAddress) ? periods.lockingPeriodSelfStaking : periods.lockingPeriodStaking;
}

/** Blocks a punishment of the validator keeps the unstake locked: longer for self-stakes. */
export function punishTime(stakerAddress: Buffer, validatorAddress: Buffer, periods: PunishmentLockingPeriods): number {
  return validatorAddress.equals(stakerAddress) ? periods.punishmentWindowSelfStaking : periods.punishmentWindowStaking;
}

/** Whether the unstake's waiting period is over at `height`. */
export function hasWaited(unlock: UnlockingObject, stakerAddress: Buffer, height: number, periods: PunishmentLockingPeriods): boolean {
  return height - unlock.unstakeHeight >= waitTime(stakerAddress, unlock.validatorAddress, periods);
}

/**
 * Whether the validator's last punishment still locks this unstake at `height`: it happened
 * within the punishment window and before the unstake's waiting period ended. Uses the LAST
 * entry of the heights (they are appended in order), as lisk-sdk does.
 */
export function isPunished(
  unlock: UnlockingObject,
  pomHeights: readonly number[],
  stakerAddress: Buffer,
  height: number,
  periods: PunishmentLockingPeriods,
): boolean {
  if (pomHeights.length === 0) return false;
  const lastPomHeight = pomHeights[pomHeights.length - 1] as number;
  return (
    height - lastPomHeight < punishTime(stakerAddress, unlock.validatorAddress, periods) &&
    lastPomHeight < unlock.unstakeHeight + waitTime(stakerAddress, unlock.validatorAddress, periods)
  );
}

/** Last height of the round containing `height` (lisk-sdk lastHeightOfRound). */
function lastHeightOfRound(height: number, genesisHeight: number, roundLength: number): number {
  return Math.ceil((height - genesisHeight) / roundLength) * roundLength + genesisHeight;
}

/**
 * Whether a certificate covers the end of the round two rounds after the unstake, which
 * guarantees the unstake cannot be reverted by a fork (LIP 0057 "Unlock").
 */
export function isCertificateGenerated(args: {
  unlock: UnlockingObject;
  genesisHeight: number;
  maxHeightCertified: number;
  roundLength: number;
}): boolean {
  return (
    lastHeightOfRound(args.unlock.unstakeHeight + 2 * args.roundLength, args.genesisHeight, args.roundLength) <= args.maxHeightCertified
  );
}

/**
 * Blocks left in the validator's punishment as seen by `stakerAddress` at `currentHeight`
 * (0 when not punished): the window runs from the highest misbehavior height.
 */
export function remainingPunishment(
  stakerAddress: Buffer,
  validatorAddress: Buffer,
  pomHeights: readonly number[],
  currentHeight: number,
  periods: PunishmentLockingPeriods,
): number {
  if (pomHeights.length === 0) return 0;
  const window = stakerAddress.equals(validatorAddress) ? periods.punishmentWindowSelfStaking : periods.punishmentWindowStaking;
  const remaining = Math.max(...pomHeights) + window - currentHeight;
  return Math.max(remaining, 0);
}
