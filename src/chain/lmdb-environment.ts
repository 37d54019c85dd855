/**
 * Where a data directory keeps its LMDB environment (chain store and state store share it) and
 * the options every opener must use: the node's writer and the workers' read-only views alike.
 * An environment opened with other options, mapSize above all, could disagree with the writer.
 */
export function chainEnvPath(dataPath: string): string {
  return `${dataPath}/basalt.lmdb`;
}

/**
 * No compression: values are already compact binary encodings. Durable commits are LMDB's
 * default and are kept, with lmdb-js's overlapping sync (its default on Linux): a transaction is
 * visible once committed and flushed right after, so a killed process never loses a committed
 * block and a power loss leaves the last flushed one (docs/architecture.md, "Durability of a
 * committed block").
 *
 * `mapSize` is the address space reserved up front, not a limit on the store: lmdb-js's LMDB grows
 * the map when a write transaction needs more pages, so MDB_MAP_FULL does not occur, and a
 * read-only opener maps the file's own size whatever its option says. What ends a store's growth
 * is the disk: a commit that cannot write its pages fails (`StoreWriteError`, and a node stops).
 */
export const CHAIN_ENV_OPTIONS = { compression: false, maxDbs: 32, mapSize: 2 ** 34 } as const;
