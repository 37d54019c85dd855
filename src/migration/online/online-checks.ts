/**
 * Online mode's checks of the running Lisk Core 3 node, in lisk-migrator 2.0.1's order and with
 * its messages (`src/index.ts` `run`): the backup height equals the snapshot height, the snapshot
 * height is a multiple of the round length, a known network when the v4 node is to be started,
 * and a Lisk Core version of 3.1.0 or later.
 *
 * Lisk Core 3.0.x has neither the `backup` setting nor its field in node info, and the migrator
 * then fails with a TypeError. Basalt names the missing field instead, and `--unsafe-skip-v3-checks`
 * skips exactly the two checks such a node cannot pass (backup height, version), saying so for
 * each; a node that does report a backup height is still held to it.
 */
import { MigrationError } from '../migration-error.js';
import { v3NetworkById, type V3Network } from './v3-networks.js';

export const ROUND_LENGTH = 103;
export const MIN_SUPPORTED_LISK_CORE_VERSION = '3.1.0';

/** The fields of Lisk Core 3's `app:getNodeInfo` read here (all optional: never trusted). */
export interface V3NodeInfo {
  readonly version?: unknown;
  readonly networkIdentifier?: unknown;
  readonly height?: unknown;
  readonly finalizedHeight?: unknown;
  readonly backup?: { readonly height?: unknown } | null;
}

export interface V3CheckOptions {
  readonly snapshotHeight: number;
  readonly autoStart: boolean;
  readonly unsafeSkipV3Checks: boolean;
}

export interface V3CheckResult {
  /** The network by the node's identifier; undefined for a network the migrator does not know. */
  readonly network: V3Network | undefined;
  readonly networkIdentifier: string;
  /** True when the node reports a backup height equal to the snapshot height (its checkpoint exists). */
  readonly hasBackup: boolean;
  /** One line per check skipped under `--unsafe-skip-v3-checks`. */
  readonly skipped: readonly string[];
}

const SEMVER = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

/** Semantic version order of `version` against `minimum` (prereleases sort before their release); undefined when not semver. */
export function compareVersion(version: string, minimum: string): number | undefined {
  const a = SEMVER.exec(version.trim());
  const b = SEMVER.exec(minimum);
  if (!a || !b) return undefined;
  for (let index = 1; index <= 3; index += 1) {
    const difference = Number(a[index]) - Number(b[index]);
    if (difference !== 0) return Math.sign(difference);
  }
  if (a[4] !== undefined && b[4] === undefined) return -1;
  if (a[4] === undefined && b[4] !== undefined) return 1;
  return 0;
}

function fail(message: string): never {
  throw new MigrationError('MIGRATION_V3_CHECK', message);
}

/** Runs the checks on one `app:getNodeInfo` answer; throws on the first that fails. */
export function checkV3Node(info: V3NodeInfo, options: V3CheckOptions): V3CheckResult {
  const { snapshotHeight } = options;
  const skipped: string[] = [];
  const networkIdentifier = typeof info.networkIdentifier === 'string' ? info.networkIdentifier : '';
  if (networkIdentifier === '') fail('The Lisk Core v3 node did not report its networkIdentifier.');

  const backupHeight = info.backup?.height;
  let hasBackup = false;
  if (typeof backupHeight !== 'number') {
    if (!options.unsafeSkipV3Checks) {
      fail(
        'The Lisk Core v3 node reports no backup height (backup.height in app:getNodeInfo): Lisk Core 3.1.0 or later with backup.height set to the snapshot height writes the snapshot database. For an older node, --unsafe-skip-v3-checks migrates from its live database once it is stopped.',
      );
    }
    skipped.push(
      'Skipped check: backup height (the node reports no backup.height; the live blockchain.db is read once the node is stopped).',
    );
  } else if (backupHeight !== snapshotHeight) {
    fail(`Lisk Core v3 backup height mismatch. Actual: ${backupHeight}, Expected: ${snapshotHeight}.`);
  } else {
    hasBackup = true;
  }

  if (snapshotHeight % ROUND_LENGTH !== 0) {
    // The migration itself takes any height (offline mode has no such rule); the override lets a
    // test chain be migrated without forging up to the next round end.
    if (!options.unsafeSkipV3Checks) {
      fail(`Invalid snapshot height provided: ${snapshotHeight}. It must be an exact multiple of round length (${ROUND_LENGTH}).`);
    }
    skipped.push(`Skipped check: snapshot height (${snapshotHeight} is not a multiple of the round length ${ROUND_LENGTH}).`);
  }

  const network = v3NetworkById(networkIdentifier);
  if (options.autoStart && network === undefined) {
    fail(`Unknown network detected. No NETWORK_CONSTANT defined for networkID: ${networkIdentifier}.`);
  }

  const version = String(info.version);
  const order = compareVersion(version, MIN_SUPPORTED_LISK_CORE_VERSION);
  if (order === undefined || order < 0) {
    if (!options.unsafeSkipV3Checks) {
      if (order === undefined) {
        fail(`Invalid Lisk Core version detected: ${version}. Minimum supported version is ${MIN_SUPPORTED_LISK_CORE_VERSION}.`);
      }
      fail(
        `Lisk Migrator is not compatible with Lisk Core version ${version}. Minimum supported version is ${MIN_SUPPORTED_LISK_CORE_VERSION}.`,
      );
    }
    skipped.push(`Skipped check: Lisk Core version (${version} is below ${MIN_SUPPORTED_LISK_CORE_VERSION} or not a version).`);
  }
  return { network, networkIdentifier, hasBackup, skipped };
}

function numberField(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export interface FinalityProgress {
  readonly height: number | undefined;
  readonly finalizedHeight: number | undefined;
  readonly target: number;
}

/**
 * Polls `getNodeInfo` (every 500 ms, as the migrator does) until the node's finalized height
 * reaches `target`: only then can no fork replace the snapshot block. With `finalized: false`
 * it waits only until the node holds a block at `target` (for a node whose chain never
 * finalizes, such as a single-node devnet; a fork can then still replace the snapshot block).
 */
export async function waitForFinality(
  getNodeInfo: () => Promise<V3NodeInfo>,
  target: number,
  options: { intervalMs?: number; finalized?: boolean; onProgress?: (progress: FinalityProgress) => void; signal?: AbortSignal } = {},
): Promise<void> {
  const interval = options.intervalMs ?? 500;
  for (;;) {
    const info = await getNodeInfo();
    const finalizedHeight = numberField(info.finalizedHeight);
    const height = numberField(info.height);
    options.onProgress?.({ height, finalizedHeight, target });
    const reached = options.finalized === false ? height : finalizedHeight;
    if (reached !== undefined && reached >= target) return;
    if (options.signal?.aborted)
      throw new MigrationError('MIGRATION_ABORTED', 'Stopped while waiting for the snapshot height to be finalized.');
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}
