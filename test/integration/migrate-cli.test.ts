/**
 * `basalt migrate` and `basalt legacy:import` end to end through the CLI (runCli, the real
 * engine): on the real Lisk Core 3.0.3 data directories of ../shared/fixtures/migration, every
 * output file against what lisk-migrator 2.0.1 wrote, and its exit codes and messages for the
 * failing h59 runs; on a synthetic v3 database (no fixtures needed), the migration, the import of
 * the v3 history into a fresh data directory, and a node that serves it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/cli.js';
import { resolveNodeConfig } from '../../src/config/resolve-node-config.js';
import { importLegacyBlocks, openLegacyChainStore } from '../../src/legacy-chain/index.js';
import { readV3Blocks } from '../../src/migration/v3/v3-blocks.js';
import { assembleNode } from '../../src/node.js';
import { writeSyntheticV3Database } from '../support/v3-database-writer.js';
import { GENESIS_OUTPUT_FILES, MIGRATION_FIXTURES, migrationFixturesPresent } from '../unit/migration/migration-fixtures.js';

const work = mkdtempSync(join(tmpdir(), 'basalt-migrate-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const DEV = join(MIGRATION_FIXTURES, 'dev');

async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const captured = { stdout: '', stderr: '' };
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.on('data', (chunk) => (captured.stdout += chunk));
  stderr.on('data', (chunk) => (captured.stderr += chunk));
  const code = await runCli(argv, { stdout, stderr });
  return { code, ...captured };
}

/** A real v3 data directory from its fixture tarball (`data/` = the node's data path). */
function extractV3DataDir(tarball: string, into: string): string {
  mkdirSync(into, { recursive: true });
  execFileSync('tar', ['xzf', join(DEV, tarball), '-C', into]);
  return join(into, 'data');
}

/** `basalt migrate` in offline mode. */
function migrateOffline(height: string, network: string, snapshotPath: string, output: string, ...extra: string[]) {
  return cli(['migrate', '-s', height, '-n', network, '--snapshot-path', snapshotPath, '-o', output, ...extra]);
}

/** stderr without the JSON progress lines. */
const messages = (stderr: string): string[] => stderr.split('\n').filter((line) => line !== '' && !line.startsWith('{'));

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

describe.skipIf(!migrationFixturesPresent)('basalt migrate on the real v3 data directories, against lisk-migrator 2.0.1', () => {
  let h309: string;
  let h59: string;
  beforeAll(() => {
    h309 = extractV3DataDir('lisk-core-3.0.3-devnet-h309.tgz', join(work, 'h309'));
    h59 = extractV3DataDir('lisk-core-3.0.3-devnet-h59.tgz', join(work, 'h59'));
  });

  /** Every file of a successful run, against the migrator's run folder. */
  function expectMigratorOutput(output: string, expected: string): void {
    expect(readdirSync(output).sort()).toEqual([...GENESIS_OUTPUT_FILES, 'commandsToExecute.txt', 'forgingStatus.json'].sort());
    expect(readFileSync(join(output, 'genesis_block.blob')).equals(readFileSync(join(expected, 'genesis_block.blob')))).toBe(true);
    for (const file of ['genesis_block.blob.SHA256', 'genesis_block.json.SHA256', 'forgingStatus.json']) {
      expect(readFileSync(join(output, file), 'utf8'), file).toBe(readFileSync(join(expected, file), 'utf8'));
    }
    expect(readJson(join(output, 'genesis_block.json'))).toEqual(readJson(join(expected, 'genesis_block.json')));
    // Semantically: the key order inside the migrator's entries is an artefact of object spreads.
    expect(readJson(join(output, 'genesis_assets.json'))).toEqual(readJson(join(expected, 'genesis_assets.json')));
    const commands = readFileSync(join(expected, 'commandsToExecute.txt'), 'utf8')
      .replaceAll('lisk-core ', 'basalt ')
      .replaceAll('<output>', output);
    expect(readFileSync(join(output, 'commandsToExecute.txt'), 'utf8')).toBe(commands);
    for (const archive of ['genesis_block.blob.tar.gz', 'genesis_block.json.tar.gz']) {
      const entries = execFileSync('tar', ['tzf', join(output, archive)], { encoding: 'utf8' })
        .trim()
        .split('\n');
      expect(entries, archive).toEqual([archive.replace('.tar.gz', '')]);
      expect(readFileSync(join(output, `${archive}.SHA256`), 'utf8')).toMatch(/^[0-9a-f]{64}/);
    }
  }

  const forgingFlags = (): string[] => [
    '--forger-db',
    join(h309, 'data', 'forger.db'),
    '--v3-config',
    join(h309, 'config', 'devnet', 'config.json'),
  ];

  it('from a blockchain.db .tar.gz (--snapshot-path), mainnet: every file as the migrator wrote it', async () => {
    const archive = join(work, 'blockchain.db.tar.gz');
    execFileSync('tar', ['czf', archive, '-C', join(h309, 'data'), 'blockchain.db']);
    const output = join(work, 'out-h309-archive');
    const result = await migrateOffline('309', 'mainnet', archive, output, ...forgingFlags());
    expect(result.stderr).not.toContain('Migrator could not');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Successfully extracted snapshot to ${join(output, 'v3-snapshot')}`);
    // The extracted database stays where legacy:import reads it.
    expect(result.stdout).toContain(`basalt legacy:import --v3-db ${join(output, 'v3-snapshot', 'blockchain.db')} --snapshot-height 309`);
    rmSync(join(output, 'v3-snapshot'), { recursive: true });
    expectMigratorOutput(output, join(DEV, 'h309-mainnet'));
  });

  for (const network of ['mainnet', 'testnet'] as const) {
    it(`from the extracted blockchain.db directory, ${network}: every file as the migrator wrote it`, async () => {
      const output = join(work, `out-h309-${network}`);
      const dbPath = join(h309, 'data', 'blockchain.db');
      const result = await migrateOffline('309', network, dbPath, output, ...forgingFlags());
      expect(result.code).toBe(0);
      expectMigratorOutput(output, join(DEV, `h309-${network}`));
    });
  }

  // The h59 database cannot be migrated: r - 2 is below round 1 at 59, and at 309 the snapshot
  // block is missing, which the migrator finds after writing genesis_assets.json.
  const h59Runs = [
    {
      height: '59',
      reason: 'Delegate vote weights for round -1 (r-2) unavailable, cannot proceed.',
      files: [],
    },
    {
      height: '309',
      reason: 'Specified key 626c6f636b733a6865696768743a00000135 does not exist',
      files: ['genesis_assets.json'],
    },
  ];
  for (const { height, reason, files } of h59Runs) {
    it(`h59 at snapshot ${height}: exit 2 with the migrator message, no commands file (the failure has no code), ${files.length} file(s)`, async () => {
      const output = join(work, `out-h59-s${height}`);
      const result = await migrateOffline(height, 'mainnet', join(h59, 'data', 'blockchain.db'), output);
      expect(result.code).toBe(2);
      expect(messages(result.stderr)).toEqual([
        `Migrator could not finish execution successfully due to: ${reason}`,
        `Please check the commands to be executed in the file: ${output}/commandsToExecute.txt`,
      ]);
      expect(existsSync(output) ? readdirSync(output) : []).toEqual(files);
      for (const file of files) expect(readJson(join(output, file))).toEqual(readJson(join(DEV, `h59-s${height}-mainnet`, file)));
    });
  }
});

describe('basalt migrate and legacy:import on a synthetic v3 database', () => {
  it('migrates, imports the v3 history into a fresh data directory (resumable, refused while locked), and a node serves it', async () => {
    const dbPath = join(work, 'synthetic', 'blockchain.db');
    mkdirSync(join(work, 'synthetic'), { recursive: true });
    await writeSyntheticV3Database(dbPath, { blocks: 310, accounts: 120, transactions: 40 });
    const output = join(work, 'out-synthetic');
    const migrated = await migrateOffline('309', 'mainnet', dbPath, output);
    expect(migrated.code).toBe(0);
    const genesis = readJson(join(output, 'genesis_block.json')) as { header: { previousBlockID: string; height: number } };
    expect(genesis.header.height).toBe(310);

    const dataPath = join(work, 'basalt-data');
    const importLine = migrated.stdout.split('\n').find((line) => line.includes('basalt legacy:import')) as string;
    const printed = importLine.slice(importLine.indexOf('basalt legacy:import') + 'basalt '.length).split(' ');
    const dataPathAt = printed.indexOf('--data-path');
    printed[dataPathAt + 1] = dataPath;
    expect(printed.slice(0, dataPathAt)).toEqual(['legacy:import', '--v3-db', dbPath, '--snapshot-height', '309']);

    const bracket = { startHeight: 0, snapshotHeight: 309, snapshotBlockID: genesis.header.previousBlockID };
    // An import killed after height 149: whole batches stay, with its progress.
    const partial = openLegacyChainStore(dataPath);
    await expect(importLegacyBlocks(partial.store, readV3Blocks(dbPath, 0, 149), bracket, { batchSize: 50 })).rejects.toThrow(
      /below the snapshot height 309/,
    );
    await partial.close();
    const imported = await cli(printed);
    expect(imported.stderr).toMatch(/160 blocks imported, at height 309/);
    expect(imported.code).toBe(0);
    // It went on from the block it stopped at, checked again, not from the start height.
    expect(imported.stdout).toMatch(
      new RegExp(`^Imported 160 v3 blocks \\(\\d+ transactions, 1 already stored\\) into ${dataPath}: heights 0 to 309\\.\n`),
    );
    expect(imported.stdout).toContain(`Add this bracket to legacy.brackets in the node's config.json:\n${JSON.stringify(bracket)}\n`);
    const again = await cli(printed);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`The legacy chain store of ${dataPath} already holds heights 0 to 309.`);

    // While another live process holds the data directory's lock, the import is refused.
    writeFileSync(join(dataPath, 'basalt.lock'), String(process.ppid));
    const locked = await cli(printed);
    rmSync(join(dataPath, 'basalt.lock'));
    expect(locked.code).toBe(2);
    expect(locked.stderr).toContain(`is in use by another Basalt node (process ${process.ppid})`);

    const plan = resolveNodeConfig({ dataPath, network: 'mainnet', genesisFile: join(output, 'genesis_block.blob') });
    const node = await assembleNode({
      dataPath: plan.dataPath,
      chainConfig: plan.chainConfig,
      genesisBlock: plan.genesisBlock,
      services: { config: { ...plan.config, legacy: { sync: false, brackets: [bracket] } }, rpc: false, forger: false, p2p: false },
    });
    try {
      const invoke = (name: string, params: Record<string, unknown>) => node.services.registry.get(name)?.invoke(params);
      expect(await invoke('legacy_getBlockByHeight', { height: 309 })).toMatchObject({
        header: { id: bracket.snapshotBlockID, height: 309 },
      });
      expect(await invoke('legacy_getBlockByHeight', { height: 0 })).toMatchObject({ header: { height: 0 } });
      expect(await invoke('legacy_getLegacyBrackets', {})).toEqual([
        { startHeight: 0, snapshotBlockHeight: 309, lastBlockHeight: 0, snapshotBlockID: bracket.snapshotBlockID },
      ]);
    } finally {
      await node.close();
    }
  }, 120_000);
});
