/**
 * `basalt migrate` with the real snapshot engine on small synthetic Lisk Core 3 databases
 * (test/support/v3-database-writer.ts): the command's flags, modes, messages, files and exit codes.
 * The byte-equality with lisk-migrator's own outputs is test/integration/migrate-cli.test.ts.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateCommand } from '../../../src/cli/commands/migrate.js';
import { runCli } from '../../../src/cli/cli.js';
import { V3DatabaseWriter, writeSyntheticV3Database } from '../../support/v3-database-writer.js';
import { GENESIS_OUTPUT_FILES } from '../migration/migration-fixtures.js';
import { SAMPLE_FORGING_STATUS, startFakeV3Node, type FakeV3Node } from '../migration/fake-v3-node.js';

const work = mkdtempSync(join(tmpdir(), 'basalt-migrate-cmd-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const DEVNET_ID = 'cc14918c7db716f6245193fcf17a5a3e722055fce027fc79caca39f01a6ec575';
const MAINNET_ID = '4c09e6a781fc4c7bdb936ee815de8f94190f8a7519becd9de2081832be309a99';

interface Captured {
  stdout: string;
  stderr: string;
}

function io(): { io: { stdout: PassThrough; stderr: PassThrough }; captured: Captured } {
  const captured: Captured = { stdout: '', stderr: '' };
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.on('data', (chunk) => (captured.stdout += chunk));
  stderr.on('data', (chunk) => (captured.stderr += chunk));
  return { io: { stdout, stderr }, captured };
}

/** A v3 blockchain.db whose tip is `tip` (110 accounts, a few transactions). */
async function v3Database(path: string, tip = 309): Promise<string> {
  mkdirSync(dirname(path), { recursive: true });
  await writeSyntheticV3Database(path, { blocks: tip + 1, accounts: 110, transactions: 6 });
  return path;
}

/** The flags of an online run at snapshot height 309, then `extra`. */
function online(v3Data: string, url: string, output: string, ...extra: string[]): string[] {
  return ['-s', '309', '-d', v3Data, '--lisk-core-v3-rpc-url', url, '-o', output, ...extra];
}

async function run(argv: string[], env: Record<string, string> = {}, output = io()): Promise<Captured & { code: number }> {
  const { io: streams, captured } = output;
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    const code = await migrateCommand.run(argv, streams);
    return { code, ...captured };
  } finally {
    process.env = saved;
  }
}

/**
 * Resolves once the command running on `output` has printed `text` on stdout: the step that
 * prints it is done. A test then acts on what the command has reached, not on a guess of how long
 * it takes (a loaded machine stretches every step). Rejects with the command's stderr when it
 * ends first.
 */
function printed(output: ReturnType<typeof io>, pending: Promise<{ code: number }>, text: string): Promise<void> {
  const seen = new Promise<void>((resolve) => {
    const check = (): void => {
      if (!output.captured.stdout.includes(text)) return;
      output.io.stdout.off('data', check);
      resolve();
    };
    output.io.stdout.on('data', check);
    check();
  });
  const ended = pending.then(({ code }) => {
    throw new Error(`migrate exited with ${code} before printing "${text}":\n${output.captured.stderr}`);
  });
  return Promise.race([seen, ended]);
}

describe('basalt migrate: flags', () => {
  it('is listed by the CLI and answers --help', async () => {
    const { io: streams, captured } = io();
    expect(await runCli(['migrate', '--help'], streams)).toBe(0);
    expect(captured.stdout).toContain('--snapshot-height');
    expect(captured.stdout).toContain('--unsafe-skip-v3-checks');
  });

  it('refuses the migrator flag combinations with exit code 2 and oclif wording', async () => {
    const cases: [string[], string][] = [
      [['-s', '309', '--network', 'mainnet'], 'Either --snapshot-path= or --snapshot-url= must be provided when using --network='],
      [['-s', '309', '--snapshot-path', 'x'], '--network= must also be provided when using --snapshot-path='],
      [
        ['-s', '309', '-n', 'mainnet', '--snapshot-path', 'x', '--snapshot-url', 'http://a/b.tar.gz'],
        '--snapshot-url= cannot also be provided when using --snapshot-path=',
      ],
      [
        ['-s', '309', '-n', 'mainnet', '--snapshot-path', 'x', '-d', '/x'],
        '--lisk-core-v3-data-path= cannot also be provided when using --network=',
      ],
      [
        ['-s', '309', '-n', 'mainnet', '--snapshot-path', 'x', '--auto-migrate-config'],
        '--auto-migrate-config= cannot also be provided when using --network=',
      ],
      [['-s', '309', '-n', 'devnet', '--snapshot-path', 'x'], 'Expected --network=devnet to be one of: mainnet, testnet'],
      [
        ['-s', '309', '-n', 'mainnet', '--snapshot-url', 'ftp://a/b.zip'],
        "Expected --snapshot-url to begin with http(s) and end with 'tar.gz' instead received ftp://a/b.zip.",
      ],
      [
        ['-s', '309', '-n', 'mainnet', '--snapshot-path', 'x', '--unsafe-skip-finality-wait'],
        '--unsafe-skip-finality-wait= cannot also be provided when using --snapshot-path=',
      ],
      [
        ['-s', '309', '-n', 'mainnet', '--snapshot-path', 'x', '-o', '~/.lisk/lisk-core/out'],
        "Output path '~/.lisk/lisk-core/out' is not allowed. Please restart the migrator with a different output path.",
      ],
    ];
    for (const [argv, message] of cases) {
      const result = await run(argv);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stderr).toBe(`${message}\n`);
    }
  });

  it('takes the snapshot height and mode from the environment like the migrator', async () => {
    const db = await v3Database(join(work, 'env-db'));
    const output = join(work, 'env-out');
    const result = await run(['-o', output, '-p', '7'], {
      SNAPSHOT_HEIGHT: '309',
      SNAPSHOT_PATH: db,
      NETWORK: 'testnet',
    });
    expect(result.code).toBe(0);
    const block = JSON.parse(readFileSync(join(output, 'genesis_block.json'), 'utf8'));
    expect(block.header.height).toBe(310);
    // The testnet token ID in every token entry.
    expect(readFileSync(join(output, 'genesis_assets.json'), 'utf8')).toContain('"tokenID": "0100000000000000"');
  });
});

describe('basalt migrate: offline', () => {
  it('writes the output files only after success, with JSON progress lines off a terminal', async () => {
    const db = await v3Database(join(work, 'blockchain.db'));
    const output = join(work, 'offline-out');
    const result = await run(['-s', '309', '-n', 'mainnet', '--snapshot-path', db, '-o', output]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Successfully finished migration. Exiting!!!');
    expect(result.stdout).toContain(
      `Import the legacy (v3) blockchain information into Basalt: basalt legacy:import --v3-db ${db} --snapshot-height 309 --data-path `,
    );
    const progress = result.stderr
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(progress[0]).toEqual({ phase: 'scan', done: 0 });
    expect(progress.at(-1)).toEqual({ phase: 'genesis', done: 1, total: 1 });
    expect(readdirSync(output).sort()).toEqual(GENESIS_OUTPUT_FILES);
    expect(statSync(join(output, 'genesis_block.blob')).mode & 0o777).toBe(0o600);
  });

  it('adds forgingStatus.json and the validator commands from --forger-db and --v3-config', async () => {
    const db = await v3Database(join(work, 'blockchain2.db'));
    const forgerDb = join(work, 'forger.db');
    const forger = await V3DatabaseWriter.create(forgerDb);
    await forger.putPreviouslyForged([
      {
        generatorAddress: Buffer.from('9cabee3d27426676b852ce6b804cb2fdff7cd0b5', 'hex'),
        height: 261,
        maxHeightPrevoted: 0,
        maxHeightPreviouslyForged: 158,
      },
    ]);
    await forger.close();
    const v3Config = join(work, 'v3-config.json');
    writeFileSync(
      v3Config,
      JSON.stringify({ forging: { force: true, delegates: [{ address: '9cabee3d27426676b852ce6b804cb2fdff7cd0b5' }] } }),
    );
    const output = join(work, 'offline-forger');
    const result = await run([
      '-s',
      '309',
      '-n',
      'testnet',
      '--snapshot-path',
      db,
      '-o',
      output,
      '--forger-db',
      forgerDb,
      '--v3-config',
      v3Config,
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(readFileSync(join(output, 'forgingStatus.json'), 'utf8'))).toEqual([
      {
        address: '9cabee3d27426676b852ce6b804cb2fdff7cd0b5',
        forging: true,
        height: 261,
        maxHeightPrevoted: 0,
        maxHeightPreviouslyForged: 158,
        lskAddress: 'lsktrqfj84n34tn97vraaq2ztmrgwgwakmqyskqw4',
      },
    ]);
    const commands = readFileSync(join(output, 'commandsToExecute.txt'), 'utf8');
    expect(commands).toContain(`basalt keys:create --chainid 1 --output ${output}/keys.json --add-legacy`);
    expect(commands).toContain('"height": 261, "maxHeightGenerated":  158, "maxHeightPrevoted":  0 }');
  });

  it('fails like the migrator: exit 2, the message, no files for an error without a code', async () => {
    const db = await v3Database(join(work, 'blockchain3.db'), 59);
    const output = join(work, 'offline-fail');
    const result = await run(['-s', '59', '-n', 'mainnet', '--snapshot-path', db, '-o', output]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `Migrator could not finish execution successfully due to: Delegate vote weights for round -1 (r-2) unavailable, cannot proceed.\nPlease check the commands to be executed in the file: ${output}/commandsToExecute.txt\n`,
    );
    expect(existsSync(output) ? readdirSync(output) : []).toEqual([]);
  });

  it('leaves genesis_assets.json, as the migrator does, when the snapshot block is missing (no commands: no code)', async () => {
    const db = await v3Database(join(work, 'blockchain4.db'), 59);
    const output = join(work, 'offline-key-missing');
    const result = await run(['-s', '309', '-n', 'mainnet', '--snapshot-path', db, '-o', output]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `Migrator could not finish execution successfully due to: Specified key 626c6f636b733a6865696768743a00000135 does not exist\nPlease check the commands to be executed in the file: ${output}/commandsToExecute.txt\n`,
    );
    expect(readdirSync(output)).toEqual(['genesis_assets.json']);
    expect(
      JSON.parse(readFileSync(join(output, 'genesis_assets.json'), 'utf8')).assets.map((asset: { module: string }) => asset.module),
    ).toContain('token');
  });

  it('refuses a database that ends above the snapshot height, naming --rollback-to-snapshot', async () => {
    const db = await v3Database(join(work, 'blockchain5.db'), 320);
    const output = join(work, 'offline-ahead');
    const result = await run(['-s', '309', '-n', 'mainnet', '--snapshot-path', db, '-o', output]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('ends at height 320, above the snapshot height 309');
    expect(result.stderr).toContain('--rollback-to-snapshot');
    // Asked for, the rollback needs Lisk Core 3's state diffs, which this database lacks.
    const rolled = await run(['-s', '309', '-n', 'mainnet', '--snapshot-path', db, '-o', output, '--rollback-to-snapshot']);
    expect(rolled.code).toBe(2);
    expect(rolled.stderr).toContain(`Cannot roll the Lisk Core v3 database ${db} back`);
  });
});

describe('basalt migrate: online against a v3 node over WebSocket', () => {
  let node: FakeV3Node;

  it('refuses a Lisk Core 3.0.3 node without the override, naming the missing backup height', async () => {
    node = await startFakeV3Node();
    node.nodeInfo = { version: '3.0.3', networkIdentifier: DEVNET_ID, height: 309, finalizedHeight: 0 };
    const result = await run(['-s', '309', '--lisk-core-v3-rpc-url', node.url, '-d', join(work, 'nov3')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^The Lisk Core v3 node reports no backup height/);
    await node.close();
  });

  it('migrates a 3.1 mainnet node from data/backup after finality, with the forging capture and the migrated config', async () => {
    node = await startFakeV3Node();
    const v3Data = join(work, 'lisk-core');
    mkdirSync(join(v3Data, 'config', 'mainnet'), { recursive: true });
    const backup = await v3Database(join(v3Data, 'data', 'backup'));
    writeFileSync(
      join(v3Data, 'config', 'mainnet', 'config.json'),
      JSON.stringify({ logger: { fileLogLevel: 'debug' }, network: { port: 5000 } }),
    );
    node.nodeInfo = { version: '3.1.1', networkIdentifier: MAINNET_ID, height: 309, finalizedHeight: 300, backup: { height: 309 } };
    node.forgingStatus = [{ ...SAMPLE_FORGING_STATUS }];
    const output = join(work, 'online-out');
    const basaltData = join(work, 'basalt-mainnet');
    const streams = io();
    const pending = run(online(v3Data, node.url, output, '--auto-migrate-config', '--basalt-data-path', basaltData), {}, streams);
    // The snapshot block comes once the migrator listens for it (it names the version right after
    // subscribing), and the height becomes final once the forging status of that block is taken.
    await printed(streams, pending, '3.1.1 detected');
    node.publishBlock(309);
    await printed(streams, pending, 'Captured the forging status of 1 delegate(s) at height 309.');
    node.nodeInfo = { ...node.nodeInfo, finalizedHeight: 309 };
    const result = await pending;
    expect(result.stderr).not.toContain('Migrator could not');
    expect(result.code).toBe(0);
    const genesis = JSON.parse(readFileSync(join(output, 'genesis_block.json'), 'utf8'));
    const config = JSON.parse(readFileSync(join(output, 'config.json'), 'utf8'));
    // The v3 history from the database's lowest block to the snapshot block the genesis block follows.
    expect(config.legacy.brackets).toEqual([{ startHeight: 0, snapshotHeight: 309, snapshotBlockID: genesis.header.previousBlockID }]);
    expect(config.system.logLevel).toBe('debug');
    expect(config.network.port).toBe(5000);
    expect(config.genesis.minimumCertifyHeight).toBe(71071);
    expect(JSON.parse(readFileSync(join(output, 'forgingStatus.json'), 'utf8'))[0].lskAddress).toBe(
      'lsktrqfj84n34tn97vraaq2ztmrgwgwakmqyskqw4',
    );
    expect(readFileSync(join(output, 'commandsToExecute.txt'), 'utf8')).toContain('--chainid 0');
    expect(result.stdout).toContain(
      `Start Basalt with the new genesis block: basalt start --network mainnet --genesis ${output}/genesis_block.blob --data-path ${basaltData} --config ${output}/config.json`,
    );
    expect(result.stdout).toContain(
      `Import the legacy (v3) blockchain information into Basalt: basalt legacy:import --v3-db ${backup} --snapshot-height 309 --data-path ${basaltData}`,
    );
    await node.close();
  });

  it('under --unsafe-skip-v3-checks migrates a 3.0.3 devnet node from its live database once it stops', async () => {
    node = await startFakeV3Node();
    const v3Data = join(work, 'devnet-v3');
    await v3Database(join(v3Data, 'data', 'blockchain.db'));
    node.nodeInfo = { version: '3.0.3', networkIdentifier: DEVNET_ID, height: 309, finalizedHeight: 309 };
    const output = join(work, 'unsafe-out');
    const streams = io();
    const pending = run(online(v3Data, node.url, output, '--unsafe-skip-v3-checks', '-n', 'testnet'), {}, streams);
    // Stopped when the migrator asks for it, as an operator would.
    await printed(streams, pending, 'Stop Lisk Core v3 now');
    await node.close();
    const result = await pending;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Skipped check: backup height');
    expect(result.stdout).toContain('Skipped check: Lisk Core version (3.0.3 is below 3.1.0 or not a version).');
    expect(result.stdout).toContain('Lisk Core v3 stopped.');
    expect(result.stdout).toContain(`--v3-db ${join(v3Data, 'data', 'blockchain.db')} --snapshot-height 309`);
    expect(readdirSync(output).sort()).toEqual(GENESIS_OUTPUT_FILES);
  });

  it('refuses the auto-start without a terminal unless --yes is given (recovery commands written)', async () => {
    node = await startFakeV3Node();
    const v3Data = join(work, 'auto-v3');
    await v3Database(join(v3Data, 'data', 'backup'));
    node.nodeInfo = { version: '3.1.0', networkIdentifier: MAINNET_ID, height: 309, finalizedHeight: 309, backup: { height: 309 } };
    const output = join(work, 'auto-out');
    const result = await run(online(v3Data, node.url, output, '--auto-start-lisk-core-v4'));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('The auto-start asks for confirmations: run it on a terminal, or pass --yes.');
    const commands = readFileSync(join(output, 'commandsToExecute.txt'), 'utf8');
    expect(commands).toContain('## Lisk Core v4 start command - Please modify if necessary');
    expect(commands).not.toContain('## Backup Lisk Core v3 data directory');
    // The node the auto-start would have started gets a config that names the v3 history.
    expect(commands).toContain(`--config ${output}/config.json`);
    expect(JSON.parse(readFileSync(join(output, 'config.json'), 'utf8')).legacy.brackets).toHaveLength(1);
    expect(existsSync(v3Data)).toBe(true);
    await node.close();
  });
});
