/**
 * The genesis assets file of `genesis:create` (lisk-commander's `--assets-file`):
 * `{ "assets": [{ "module": name, "data": codec JSON, "schema": lisk-codec schema }] }`.
 */
import { readFileSync } from 'node:fs';
import { objectOf, validationErrors, type Schema } from '../codec/index.js';
import { BasaltError } from '../errors.js';

/** One module's genesis asset as written in a genesis assets file. */
export interface GenesisAssetInput {
  readonly module: string;
  /** The asset in codec JSON form (bytes as hex, uint64 as decimal strings or small numbers). */
  readonly data: Readonly<Record<string, unknown>>;
  readonly schema: Schema;
}

export interface GenesisAssetsFile {
  readonly assets: readonly GenesisAssetInput[];
}

/** A genesis assets file that cannot be read or does not have the expected shape. */
export class GenesisAssetsError extends BasaltError {
  constructor(message: string) {
    super('ERR_GENESIS_ASSETS', message);
  }
}

/** The shape lisk-commander checks (genesisAssetsSchema), plus unique module names. */
const genesisAssetsFileSchema = objectOf({
  assets: {
    type: 'array',
    items: objectOf({
      module: { type: 'string', minLength: 1 },
      data: { type: 'object' },
      schema: { type: 'object' },
    }),
  },
});

/** Checks the parsed JSON of a genesis assets file; throws GenesisAssetsError naming the entry. */
export function parseGenesisAssetsFile(json: unknown): GenesisAssetsFile {
  const errors = validationErrors(genesisAssetsFileSchema, json);
  if (errors.length > 0) throw new GenesisAssetsError(`Invalid genesis assets file: ${errors.join('; ')}`);
  const file = json as GenesisAssetsFile;
  const seen = new Set<string>();
  for (const asset of file.assets) {
    if (seen.has(asset.module))
      throw new GenesisAssetsError(`Invalid genesis assets file: module "${asset.module}" has more than one asset.`);
    seen.add(asset.module);
  }
  return file;
}

/** Reads and checks a genesis assets file. */
export function readGenesisAssetsFile(path: string): GenesisAssetsFile {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new GenesisAssetsError(`Cannot read genesis assets file ${path}: ${(error as Error).message}`);
  }
  return parseGenesisAssetsFile(json);
}
