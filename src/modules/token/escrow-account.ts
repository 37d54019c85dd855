/**
 * Escrow accounts as lisk-sdk's EscrowStore reads and changes them: a missing account reads as an
 * amount of 0, and writing back creates it (so a deduction of 0 still creates the entry).
 */
import type { StateReader, StateWriter } from '../../state/state-view.js';
import { escrowKey, escrowStore, type EscrowEntry } from './stores.js';

/** The escrow account of `tokenID` for `chainID`, or an empty one (lisk-sdk EscrowStore.getOrDefault). */
export function escrowOrEmpty(state: StateReader, chainID: Buffer, tokenID: Buffer): EscrowEntry {
  return escrowStore.get(state, escrowKey(chainID, tokenID)) ?? { amount: 0n };
}

/** Adds to an escrow account, creating it when missing (lisk-sdk EscrowStore.addAmount). */
export function addEscrowAmount(context: { state: StateWriter }, chainID: Buffer, tokenID: Buffer, amount: bigint): void {
  const entry = escrowOrEmpty(context.state, chainID, tokenID);
  entry.amount += amount;
  escrowStore.set(context.state, escrowKey(chainID, tokenID), entry);
}
