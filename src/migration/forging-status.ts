/**
 * `forgingStatus.json`: what each delegate of a v3 node had signed at the snapshot, the input of
 * the `generator_setStatus` commands. lisk-migrator 2.0.1 gets it only online, from the running
 * node's `app:getForgingStatus` at the snapshot block (`src/events.ts`); Basalt can also build it
 * offline from the node's `forger.db` (`forger:previouslyForged`, the record that endpoint reads)
 * and the delegates listed in the v3 config, so an operator who stopped the node still gets it.
 */
import { encodeLisk32 } from '../crypto/lisk32.js';
import type { PreviouslyForged } from './v3/forger-db.js';

export const FORGING_STATUS_FILE_NAME = 'forgingStatus.json';

/** One delegate, keys in the order the migrator writes them. */
export interface ForgingStatusEntry {
  /** 20-byte address, hex. */
  readonly address: string;
  readonly forging: boolean;
  readonly height?: number;
  readonly maxHeightPrevoted?: number;
  readonly maxHeightPreviouslyForged?: number;
  readonly lskAddress: string;
}

/** What Lisk Core 3's `app:getForgingStatus` answers per delegate. */
export interface V3ForgingStatus {
  readonly address: string;
  readonly forging: boolean;
  readonly height?: number;
  readonly maxHeightPrevoted?: number;
  readonly maxHeightPreviouslyForged?: number;
}

function lskAddressOf(hexAddress: string): string {
  if (!/^[0-9a-f]{40}$/i.test(hexAddress)) throw new Error(`Invalid delegate address "${hexAddress}": expected 20 bytes in hex.`);
  return encodeLisk32(Buffer.from(hexAddress, 'hex'));
}

/** The node's answer with each entry's lisk32 address added (the migrator's online capture). */
export function forgingStatusFromNode(statuses: readonly V3ForgingStatus[]): ForgingStatusEntry[] {
  return statuses.map((status) => ({ ...pickStatus(status), lskAddress: lskAddressOf(status.address) }));
}

function pickStatus(status: V3ForgingStatus): Omit<ForgingStatusEntry, 'lskAddress'> {
  const entry: { -readonly [K in keyof V3ForgingStatus]: V3ForgingStatus[K] } = { address: status.address, forging: status.forging };
  if (status.height !== undefined) entry.height = status.height;
  if (status.maxHeightPrevoted !== undefined) entry.maxHeightPrevoted = status.maxHeightPrevoted;
  if (status.maxHeightPreviouslyForged !== undefined) entry.maxHeightPreviouslyForged = status.maxHeightPreviouslyForged;
  return entry;
}

/**
 * The same list built offline: one entry per configured delegate, in config order, with its
 * `forger:previouslyForged` record when it has one (a delegate that never forged on this node
 * has none; the commands file then falls back to the snapshot height). `forging` is what a v3
 * node reports right after a start with this config: true when `forging.force` enables every
 * configured delegate, false otherwise (such a node only forges after `forging:enable`, which the
 * files on disk do not record).
 */
export function forgingStatusFromForgerDb(
  previouslyForged: ReadonlyMap<string, PreviouslyForged>,
  delegateAddresses: readonly string[],
  forcedForging: boolean,
): ForgingStatusEntry[] {
  return delegateAddresses.map((address) => {
    const hex = address.toLowerCase();
    const record = previouslyForged.get(hex);
    return forgingStatusFromNode([
      { address: hex, forging: forcedForging, ...(record ? pickRecord(record) : {}) },
    ])[0] as ForgingStatusEntry;
  });
}

function pickRecord(record: PreviouslyForged): PreviouslyForged {
  return {
    height: record.height,
    maxHeightPrevoted: record.maxHeightPrevoted,
    maxHeightPreviouslyForged: record.maxHeightPreviouslyForged,
  };
}

/** The delegates of a v3 config (`forging.delegates[].address`, hex) and its `forging.force`. */
export function configuredDelegates(v3Config: unknown): { addresses: string[]; force: boolean } {
  const forging = (v3Config as { forging?: { force?: unknown; delegates?: unknown } } | undefined)?.forging;
  const delegates = Array.isArray(forging?.delegates) ? forging.delegates : [];
  const addresses = delegates
    .map((delegate) => (delegate as { address?: unknown } | null)?.address)
    .filter((address): address is string => typeof address === 'string');
  return { addresses, force: forging?.force === true };
}

/** The file's text: tab-indented like the migrator's, no final newline. */
export function renderForgingStatus(entries: readonly ForgingStatusEntry[]): string {
  return JSON.stringify(entries, null, '\t');
}
