/**
 * The overwrite rule (Lisk Core v4 `start --overwrite-config`; docs/protocol/cli.md): a data
 * directory keeps the config and genesis block it was started with, and a start with different ones
 * is refused unless the operator asks for the overwrite; the refusal names the first difference.
 */
import { Block } from '../chain/block.js';
import { ConfigError } from './config-error.js';
import { firstConfigDifference } from './config-difference.js';
import type { StoredNodeConfig } from './data-dir-config.js';
import type { NodeConfig } from './node-config.js';

/** What happens to the copy in the data directory at commit. */
export type StoredConfigAction = 'create' | 'keep' | 'overwrite';

/** Keys that differ between runs by design: they never make a stored config "different". */
const IGNORED_DIFFERENCES: ReadonlySet<string> = new Set(['.system.version', '.system.dataPath']);

/**
 * `create` for a data directory without a copy, `keep` when the copy (its config completed with
 * the current defaults) equals the given config and genesis block (ignoring system.version and
 * system.dataPath), `overwrite` when they differ
 * and `overwrite` is set; otherwise throws ConfigError naming the difference.
 */
export function decideStoredConfigAction(
  dataPath: string,
  stored: StoredNodeConfig | undefined,
  given: { readonly config: NodeConfig; readonly genesisBytes: Buffer },
  overwrite: boolean,
): StoredConfigAction {
  if (stored === undefined) return 'create';
  let difference: string | undefined;
  if (stored.genesisBytes === undefined) {
    difference = 'it has a config but no genesis block';
  } else if (!stored.genesisBytes.equals(given.genesisBytes)) {
    difference = `its genesis block is ${genesisIDOf(stored.genesisBytes)}, the given one is ${genesisIDOf(given.genesisBytes)}`;
  } else {
    const found = firstConfigDifference(stored.config, given.config, IGNORED_DIFFERENCES);
    if (found) difference = `${found.path} is ${describe(found.stored)} there but ${describe(found.given)} here`;
  }
  if (difference === undefined) return 'keep';
  if (overwrite) return 'overwrite';
  throw new ConfigError(
    `Data path ${dataPath} already contains a different config (${difference}). Use --overwrite-config to overwrite the config.`,
  );
}

function genesisIDOf(bytes: Buffer): string {
  try {
    return Block.fromBytes(bytes).header.id.toString('hex');
  } catch {
    return 'not decodable';
  }
}

function describe(value: unknown): string {
  return value === undefined ? 'absent' : JSON.stringify(value);
}
