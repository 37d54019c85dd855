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
 * default and are kept, so a crash never loses a committed block.
 */
export const CHAIN_ENV_OPTIONS = { compression: false, maxDbs: 32, mapSize: 2 ** 34 } as const;
