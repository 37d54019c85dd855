/**
 * Small synthetic Lisk Core 3 databases for the migration's unit tests, written with
 * test/support/v3-database-writer.ts into a temp dir that is removed when the test file ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { buildGenesisAssets } from '../../../src/migration/assets/genesis-assets.js';
import { V3Database } from '../../../src/migration/v3/v3-database.js';
import type { V3Account, V3Transaction, V3UnregisteredAddress, V3VoteWeights } from '../../../src/migration/v3/v3-schemas.js';
import { syntheticPublicKey, V3DatabaseWriter, v3AddressOf } from '../../support/v3-database-writer.js';

const scratch = mkdtempSync(join(tmpdir(), 'basalt-migration-unit-'));
let databases = 0;
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

export function scratchPath(name: string): string {
  databases += 1;
  return join(scratch, `${databases}-${name}`);
}

export interface SyntheticContent {
  readonly accounts: readonly V3Account[];
  /** Generator key per height 0 … tip (default: `forger`'s key at every height). */
  readonly generators?: readonly Buffer[];
  readonly tipHeight?: number;
  /** Transactions of the block at height 1. */
  readonly transactions?: readonly V3Transaction[];
  readonly unregistered?: readonly V3UnregisteredAddress[];
  readonly voteWeights?: readonly V3VoteWeights[];
}

export const forger = { publicKey: syntheticPublicKey('forger'), address: v3AddressOf(syntheticPublicKey('forger')) };

/** Writes the content into a fresh database and returns its path. */
export async function writeV3Database(content: SyntheticContent): Promise<string> {
  const path = scratchPath('blockchain.db');
  const writer = await V3DatabaseWriter.create(path);
  for (const account of content.accounts) await writer.putAccount(account);
  const tip = content.tipHeight ?? (content.generators === undefined ? 309 : content.generators.length - 1);
  for (let height = 0; height <= tip; height += 1) {
    await writer.putBlock({
      height,
      generatorPublicKey: content.generators?.[height] ?? forger.publicKey,
      transactions: height === 1 ? content.transactions : undefined,
    });
  }
  await writer.putUnregisteredAddresses(content.unregistered ?? []);
  await writer.putVoteWeights(content.voteWeights ?? []);
  await writer.close();
  return path;
}

/** The assets computed from a database, by module. */
export async function assetsOf(
  path: string,
  snapshotHeight: number,
  options: { tokenID?: Buffer; pageSize?: number } = {},
): Promise<Record<string, Record<string, unknown>>> {
  const db = await V3Database.open(path);
  try {
    const built = await buildGenesisAssets(db, {
      snapshotHeight,
      tokenID: options.tokenID ?? Buffer.alloc(8),
      pageSize: options.pageSize ?? 100_000,
    });
    const { assets } = JSON.parse(built.json) as { assets: { module: string; data: Record<string, unknown> }[] };
    return Object.fromEntries(assets.map((asset) => [asset.module, asset.data]));
  } finally {
    await db.close();
  }
}
