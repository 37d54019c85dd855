/**
 * The five genesis assets of a migrated chain, built in one pass over the v3 database, and the
 * text of genesis_assets.json exactly as lisk-migrator 2.0.1 writes it (`{"assets": [{module,
 * data, schema}]}`, tab-indented, bytes as hex, 64-bit integers as decimal strings, keys in the
 * migrator's order). Accounts are read in address order and each one goes straight into the
 * auth, token and PoS builders, which keep only text and bytes.
 */
import { encodeLisk32Address, type Schema } from '../../codec/index.js';
import { genesisInteroperabilitySchema } from '../../modules/interoperability/schemas.js';
import { genesisLegacyStoreSchema } from '../../modules/legacy/schemas.js';
import { genesisAssetSchema as genesisPosSchema } from '../../modules/pos/schemas.js';
import { genesisTokenAssetSchema } from '../../modules/token/schemas.js';
import { MigrationError } from '../migration-error.js';
import { readUnregisteredAddresses, readVoteWeights, scanAccounts } from '../v3/v3-chain.js';
import type { V3Database } from '../v3/v3-database.js';
import type { ArrayFieldWriter } from './array-field-writer.js';
import { AuthAssetBuilder, migratorAuthGenesisSchema } from './auth.js';
import { scanGeneratorKeys } from './generator-keys.js';
import { createInteroperabilityAsset } from './interoperability.js';
import { createLegacyAsset } from './legacy.js';
import { initValidatorAddresses, PosAssetBuilder } from './pos.js';
import { TokenAssetBuilder } from './token.js';

export interface MigratedGenesisAsset {
  readonly module: string;
  /** The asset's lisk-codec encoding, as it goes into the genesis block. */
  readonly bytes: Buffer;
  readonly schema: Schema;
}

export interface BuildAssetsOptions {
  readonly snapshotHeight: number;
  /** The LSK token ID of the target network (8 bytes). */
  readonly tokenID: Buffer;
  readonly pageSize: number;
  /** Told now and then how many headers and transactions (`scan`), then accounts (`assets`), were read. */
  readonly onProgress?: (phase: 'scan' | 'assets', done: number) => void;
}

export interface BuiltGenesisAssets {
  /** Sorted by module name. */
  readonly assets: readonly MigratedGenesisAsset[];
  /** genesis_assets.json as lisk-migrator writes it (no final newline). */
  readonly json: string;
  readonly counts: MigrationCounts;
}

/** What a migration read and produced: v3 blocks, transactions and accounts; v4 validators and stakers. */
export interface MigrationCounts {
  readonly blocks: number;
  readonly transactions: number;
  readonly accounts: number;
  readonly validators: number;
  readonly stakers: number;
}

const ACCOUNTS_PER_PROGRESS = 10_000;

/**
 * The state is the database's as it is (accounts, unregistered addresses and vote weights at
 * its tip); the generator keys come from every block and transaction in it. The initial
 * validators are settled first, so a missing vote-weight list fails before the long scans.
 */
export async function buildGenesisAssets(db: V3Database, options: BuildAssetsOptions): Promise<BuiltGenesisAssets> {
  const { snapshotHeight, tokenID, pageSize, onProgress } = options;
  const unregisteredAddresses = await readUnregisteredAddresses(db);
  const initValidators = initValidatorAddresses(await readVoteWeights(db), snapshotHeight);
  const keys = await scanGeneratorKeys(db, pageSize, (done) => onProgress?.('scan', done));

  const auth = new AuthAssetBuilder();
  const token = new TokenAssetBuilder(tokenID, unregisteredAddresses);
  const pos = new PosAssetBuilder(tokenID, snapshotHeight, keys.keyOf);
  let previous: Buffer | undefined;
  const accounts = await scanAccounts(db, pageSize, (account) => {
    // Keys are the addresses, so the scan is in address order; the assets rely on it.
    if (previous !== undefined && Buffer.compare(previous, account.address) >= 0) {
      throw new MigrationError(
        'MIGRATION_DB_CORRUPT',
        `The account ${account.address.toString('hex')} in ${db.path} is stored out of address order.`,
      );
    }
    previous = account.address;
    const lisk32 = encodeLisk32Address(account.address);
    auth.addAccount(account, lisk32);
    token.addAccount(account, lisk32);
    pos.addAccount(account, lisk32);
    if (auth.authDataSubstore.length % ACCOUNTS_PER_PROGRESS === 0) onProgress?.('assets', auth.authDataSubstore.length);
  });
  onProgress?.('assets', accounts);

  const legacy = createLegacyAsset(unregisteredAddresses);
  const interoperability = createInteroperabilityAsset();
  const tokenEnd = token.finish();
  const posEnd = pos.finish(initValidators);

  const arrays = new ArrayTexts();
  const document = {
    assets: [
      { module: 'auth', data: { authDataSubstore: arrays.mark(auth.authDataSubstore) }, schema: migratorAuthGenesisSchema },
      { module: 'interoperability', data: interoperability.json, schema: genesisInteroperabilitySchema },
      { module: 'legacy', data: legacy.json, schema: genesisLegacyStoreSchema },
      {
        module: 'pos',
        data: { validators: arrays.mark(pos.validators), stakers: arrays.mark(pos.stakers), genesisData: posEnd.genesisData },
        schema: genesisPosSchema,
      },
      {
        module: 'token',
        data: {
          userSubstore: arrays.mark(token.userSubstore),
          supplySubstore: tokenEnd.supplySubstore,
          escrowSubstore: [],
          supportedTokensSubstore: [],
        },
        schema: genesisTokenAssetSchema,
      },
    ],
  };
  return {
    assets: [
      { module: 'auth', bytes: auth.authDataSubstore.bytes(), schema: migratorAuthGenesisSchema },
      { module: 'interoperability', bytes: interoperability.bytes, schema: genesisInteroperabilitySchema },
      { module: 'legacy', bytes: legacy.bytes, schema: genesisLegacyStoreSchema },
      { module: 'pos', bytes: posEnd.bytes, schema: genesisPosSchema },
      { module: 'token', bytes: tokenEnd.bytes, schema: genesisTokenAssetSchema },
    ],
    json: arrays.fill(JSON.stringify(document, null, '\t')),
    counts: {
      blocks: keys.blocks,
      transactions: keys.transactions,
      accounts,
      validators: pos.validators.length,
      stakers: pos.stakers.length,
    },
  };
}

/**
 * The big arrays go into the document as markers, and their text replaces the markers after the
 * small rest of the document is stringified. A marker is longer than any v3 username (20
 * characters), the only free text in the assets, so no data string can be one.
 */
class ArrayTexts {
  private readonly writers: ArrayFieldWriter[] = [];

  mark(writer: ArrayFieldWriter): string {
    this.writers.push(writer);
    return `\u0001basalt-migration-array-${this.writers.length - 1}\u0001`;
  }

  fill(text: string): string {
    const pieces: string[] = [];
    let from = 0;
    this.writers.forEach((writer, index) => {
      const marker = JSON.stringify(`\u0001basalt-migration-array-${index}\u0001`);
      const at = text.indexOf(marker, from);
      const lineStart = text.lastIndexOf('\n', at) + 1;
      if (/^\t*/.exec(text.slice(lineStart, at))?.[0] !== writer.indent) {
        throw new Error(`genesis_assets.json layout: array ${index} is not at the indentation its entries were written for`);
      }
      pieces.push(text.slice(from, at), ...writer.textPieces());
      from = at + marker.length;
    });
    pieces.push(text.slice(from));
    return pieces.join('');
  }
}
