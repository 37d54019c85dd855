/**
 * Lisk's fork choice rule (LIP 0014 "Applying blocks according to fork choice rule", as lisk-sdk
 * 6.1's consensus applies it): what a node does with a block it receives, given its current tip.
 * Pure functions over headers; the caller supplies the time a block was received.
 */

/** The header fields the rule reads. */
export interface ForkChoiceHeader {
  readonly id: Buffer;
  readonly height: number;
  readonly previousBlockID: Buffer;
  readonly generatorAddress: Buffer;
  readonly maxHeightPrevoted: number;
  readonly timestamp: number;
}

/**
 * A header with the Unix second it reached the node. Undefined for a block the node generated,
 * replayed or synced: LIP 0014 counts such a block as received within its slot.
 */
export interface TimedHeader extends ForkChoiceHeader {
  readonly receivedAt?: number;
}

/** Maps a timestamp to its slot (the Bft class fits: floor(timestamp / blockTime)). */
export interface SlotClock {
  slotNumber(timestamp: number): number;
}

/** The outcomes, numbered as lisk-sdk numbers them (LIP 0014 cases 1-5, then "discard"). */
export enum ForkStatus {
  IDENTICAL_BLOCK = 1,
  VALID_BLOCK = 2,
  DOUBLE_FORGING = 3,
  TIE_BREAK = 4,
  DIFFERENT_CHAIN = 5,
  DISCARD = 6,
}

/** Case 2: the block extends the tip. */
export function isValidBlock(tip: ForkChoiceHeader, received: ForkChoiceHeader): boolean {
  return received.height === tip.height + 1 && received.previousBlockID.equals(tip.id);
}

/** Case 1: the tip itself, received again. */
export function isIdenticalBlock(tip: ForkChoiceHeader, received: ForkChoiceHeader): boolean {
  return tip.id.equals(received.id);
}

/** A competitor of the tip: same height, same parent, same prevoted height. */
export function isDuplicateBlock(tip: ForkChoiceHeader, received: ForkChoiceHeader): boolean {
  return (
    tip.height === received.height &&
    tip.maxHeightPrevoted === received.maxHeightPrevoted &&
    tip.previousBlockID.equals(received.previousBlockID)
  );
}

/** Case 3: a competitor of the tip by the tip's own generator; the tip (received first) stands. */
export function isDoubleForging(tip: ForkChoiceHeader, received: ForkChoiceHeader): boolean {
  return isDuplicateBlock(tip, received) && tip.generatorAddress.equals(received.generatorAddress);
}

/** Whether a block reached the node within its own slot; an unknown time counts as in time. */
export function isReceivedInSlot(clock: SlotClock, header: TimedHeader): boolean {
  if (header.receivedAt === undefined) return true;
  return clock.slotNumber(header.receivedAt) === clock.slotNumber(header.timestamp);
}

/**
 * Case 4: a competitor of the tip from a later slot that arrived in its slot, while the tip did
 * not arrive in its own: the competitor wins. (When both or neither arrived in time, the block
 * received first, the tip, stays.) lisk-sdk reads the received block's time from the clock when
 * it is missing; here the caller must give it.
 */
export function isTieBreak(clock: SlotClock, tip: TimedHeader, received: ForkChoiceHeader & { readonly receivedAt: number }): boolean {
  return (
    isDuplicateBlock(tip, received) &&
    clock.slotNumber(tip.timestamp) < clock.slotNumber(received.timestamp) &&
    !isReceivedInSlot(clock, tip) &&
    isReceivedInSlot(clock, received)
  );
}

/**
 * Case 5: the block belongs to a chain with priority (a higher prevoted height, or as high and
 * longer): the node should sync to it. A tip with no prevoted height counts as 0, as in lisk-sdk.
 */
export function isDifferentChain(
  tip: Pick<ForkChoiceHeader, 'height' | 'maxHeightPrevoted'>,
  received: Pick<ForkChoiceHeader, 'height' | 'maxHeightPrevoted'>,
): boolean {
  const tipPrevoted = tip.maxHeightPrevoted || 0;
  return tipPrevoted < received.maxHeightPrevoted || (tipPrevoted === received.maxHeightPrevoted && tip.height < received.height);
}

/**
 * The fork choice rule (LIP 0014; lisk-sdk 6.1 fork_choice_rule forkChoice): the checks run in
 * lisk-sdk's order, case 2 before case 1, and anything else is discarded.
 */
export function forkChoice(clock: SlotClock, tip: TimedHeader, received: ForkChoiceHeader & { readonly receivedAt: number }): ForkStatus {
  if (isValidBlock(tip, received)) return ForkStatus.VALID_BLOCK;
  if (isIdenticalBlock(tip, received)) return ForkStatus.IDENTICAL_BLOCK;
  if (isDoubleForging(tip, received)) return ForkStatus.DOUBLE_FORGING;
  if (isTieBreak(clock, tip, received)) return ForkStatus.TIE_BREAK;
  if (isDifferentChain(tip, received)) return ForkStatus.DIFFERENT_CHAIN;
  return ForkStatus.DISCARD;
}
