/**
 * The five genesis assets of a migrated chain, in module order, and the text of
 * genesis_assets.json as lisk-migrator 2.0.1 writes it (`{"assets": [{module, data, schema}]}`,
 * tab-indented, bytes as hex, 64-bit integers as decimal strings, keys in the migrator's order).
 */
import type { Schema } from '../../codec/index.js';
import { genesisInteroperabilitySchema } from '../../modules/interoperability/schemas.js';
import { genesisLegacyStoreSchema } from '../../modules/legacy/schemas.js';
import { genesisAssetSchema as genesisPosSchema } from '../../modules/pos/schemas.js';
import { genesisTokenAssetSchema } from '../../modules/token/schemas.js';
import { createAuthAsset, migratorAuthGenesisSchema } from './auth.js';
import { createInteroperabilityAsset } from './interoperability.js';
import { createLegacyAsset } from './legacy.js';
import type { MigrationState } from './migration-state.js';
import { createPosAsset } from './pos.js';
import { createTokenAsset } from './token.js';

export interface MigratedGenesisAsset {
  readonly module: string;
  /** Codec JSON of the asset. */
  readonly data: Readonly<Record<string, unknown>>;
  readonly schema: Schema;
}

/**
 * The assets sorted by module name. The PoS asset is built first: a missing vote-weight list
 * fails before anything else is computed.
 */
export function createGenesisAssets(state: MigrationState): MigratedGenesisAsset[] {
  const pos = createPosAsset(state);
  return [
    { module: 'auth', data: { ...createAuthAsset(state) }, schema: migratorAuthGenesisSchema },
    { module: 'interoperability', data: { ...createInteroperabilityAsset() }, schema: genesisInteroperabilitySchema },
    { module: 'legacy', data: { ...createLegacyAsset(state) }, schema: genesisLegacyStoreSchema },
    { module: 'pos', data: { ...pos }, schema: genesisPosSchema },
    { module: 'token', data: { ...createTokenAsset(state) }, schema: genesisTokenAssetSchema },
  ];
}

/** genesis_assets.json as lisk-migrator writes it (no final newline). */
export function genesisAssetsJsonText(assets: readonly MigratedGenesisAsset[]): string {
  return JSON.stringify({ assets }, null, '\t');
}
