import { existsSync, readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { expandHome } from '../../config/config-paths.js';
import { MigrationError } from '../../migration/migration-error.js';
import {
  recoveryCodeOf,
  recoveryCommands,
  renderCommandsFile,
  validatorCommands,
  COMMANDS_FILE_NAME,
} from '../../migration/commands-file.js';
import {
  bundledV4Config,
  migrateV3Config,
  readV3Config,
  renderConfig,
  validateMigratedConfig,
} from '../../migration/config/migrate-config.js';
import {
  configuredDelegates,
  forgingStatusFromForgerDb,
  renderForgingStatus,
  FORGING_STATUS_FILE_NAME,
  type ForgingStatusEntry,
} from '../../migration/forging-status.js';
import { autoStartBasalt, basaltStartCommand, isPortFree, v3BackupDataPath } from '../../migration/auto-start.js';
import { captureForgingStatusAtSnapshot } from '../../migration/online/forging-capture.js';
import { checkV3Node, waitForFinality, type V3NodeInfo } from '../../migration/online/online-checks.js';
import { chainIdOf } from '../../migration/online/v3-networks.js';
import { V3WsClient, v3NodeAnswers, V3_DEFAULT_RPC_PORT } from '../../migration/online/v3-ws-client.js';
import { genesisOutputFiles, writeOutputFiles, type OutputFile } from '../../migration/output/output-files.js';
import { outputDirectory, resolveMigrationPath, verifyOutputPath, DEFAULT_LISK_CORE_PATH } from '../../migration/output/output-path.js';
import { downloadSnapshot, extractSnapshot, checkSnapshotUrl, SNAPSHOT_EXTRACT_DIR } from '../../migration/output/snapshot-source.js';
import { EXIT_NODE_ERROR, EXIT_OK, UsageError, type CliCommand, type CliIO } from '../command.js';
import { integerFlag, parseFlagsOnly } from '../support/args.js';
import { importV3History, legacyImportCommandLine } from './legacy-import.js';
import { createPrompter, type PromptIO } from '../support/prompt.js';

const HELP = `Migrate a Lisk Core 3 node to Basalt: build the v4 genesis block from the v3 database at the
snapshot height, byte for byte what lisk-migrator 2.0.1 with Lisk Core 4 builds, plus the files an
operator needs next (the same flags, environment variables and messages as lisk-migrator).

Usage: basalt migrate --snapshot-height H [flags]

  -s, --snapshot-height H         height of the last v3 block (required)          [SNAPSHOT_HEIGHT]
  -d, --lisk-core-v3-data-path D  v3 data path (default ~/.lisk/lisk-core)
  -o, --output DIR                output directory, used as given (default ./output/<v3 network
                                  identifier>, or ./output/<network> offline); never under
                                  ~/.lisk/lisk-core
  -c, --config FILE               custom v3 config merged over <v3 data path>/config/<network>/config.json
      --auto-migrate-config       also write a v4 config.json                      [AUTO_MIGRATE_CONFIG]
      --auto-start-lisk-core-v4   then stop-check v3, move its data dir to <path>-v3 and start
                                  Basalt with the new genesis block and config     [AUTO_START_LISK_CORE]
  -p, --page-size N               keys per page of the block and transaction scans (default 100000)
      --snapshot-path PATH        offline: the v3 blockchain.db directory, or a .tar.gz of it
                                                                                   [SNAPSHOT_PATH]
      --snapshot-url URL          offline: download an http(s) .tar.gz and its .SHA256   [SNAPSHOT_URL]
  -n, --network NAME              mainnet or testnet (offline mode)                 [NETWORK]
      --lisk-core-v3-rpc-url URL  the v3 node's WebSocket API (default ws://127.0.0.1:${V3_DEFAULT_RPC_PORT}/ws;
                                  the v3 config needs rpc: { enable: true, mode: "ws" })
      --forger-db DIR             v3 forger.db for forgingStatus.json when the node cannot be asked
                                  (default <v3 data path>/data/forger.db when it exists)
      --v3-config FILE            offline: a v3 config.json naming the delegates (forging.delegates)
      --unsafe-skip-v3-checks     online against Lisk Core 3.0.x (no backup height, version below
                                  3.1.0) or a test chain: skips those checks and the round
                                  multiple of the snapshot height, reads the live blockchain.db
                                  after the node is stopped at the snapshot height; --network then
                                  labels a network lisk-migrator does not know (a devnet)
      --unsafe-skip-finality-wait online: wait only until the node holds the snapshot block,
                                  not until it is final, for a v3 chain that never finalizes (a
                                  single-node devnet); a fork could still replace that block
      --rollback-to-snapshot      when the v3 database ends above the snapshot height, read it as it
                                  was at the snapshot height, undoing the later blocks with Lisk
                                  Core 3's own state diffs (the files are not changed); without it
                                  such a database is refused
      --basalt-data-path DIR      the Basalt node's data path: where the v3 history is imported and
                                  the auto-started node runs (default ~/.basalt/<network>)
  -y, --yes                       answer yes to the auto-start questions (needed without a terminal)

Online mode (no --snapshot-path/--snapshot-url) talks to the running v3 node, checks it, waits
until the snapshot height is final and reads <v3 data path>/data/backup, the checkpoint Lisk Core
3.1 writes at backup.height. Output files are written only after the migration succeeded:
genesis_assets.json, genesis_block.blob (+ .json), their .SHA256 and .tar.gz, forgingStatus.json,
config.json, commandsToExecute.txt (as lisk-migrator, genesis_assets.json is also written when
the snapshot block is missing or the genesis block cannot be created). Exit code 2 on any
migration error.

The v3 block history goes into Basalt's legacy chain store (basalt legacy:import): the auto-start
imports it before it starts Basalt; otherwise the command to run is printed. A migrated config.json
lists the history under legacy.brackets, so the node serves it.

Examples:
  basalt migrate -s 23390991 --auto-migrate-config
  basalt migrate -s 23390991 --network mainnet --snapshot-path ./blockchain.db.tar.gz -o ./migration
`;

const FLAGS = {
  'snapshot-height': { type: 'string', short: 's' },
  'lisk-core-v3-data-path': { type: 'string', short: 'd' },
  output: { type: 'string', short: 'o' },
  config: { type: 'string', short: 'c' },
  'auto-migrate-config': { type: 'boolean' },
  'auto-start-lisk-core-v4': { type: 'boolean' },
  'page-size': { type: 'string', short: 'p' },
  'snapshot-path': { type: 'string' },
  'snapshot-url': { type: 'string' },
  network: { type: 'string', short: 'n' },
  'lisk-core-v3-rpc-url': { type: 'string' },
  'forger-db': { type: 'string' },
  'v3-config': { type: 'string' },
  'unsafe-skip-v3-checks': { type: 'boolean' },
  'rollback-to-snapshot': { type: 'boolean' },
  'unsafe-skip-finality-wait': { type: 'boolean' },
  'basalt-data-path': { type: 'string' },
  yes: { type: 'boolean', short: 'y' },
} as const;

// Loaded on first use: the v3 database reader pulls in the RocksDB binding, which no other
// command needs.
async function loadEngine() {
  const [{ migrateSnapshot }, { readPreviouslyForged }, { readV3History }] = await Promise.all([
    import('../../migration/migrate-snapshot.js'),
    import('../../migration/v3/forger-db.js'),
    import('../../migration/v3/v3-blocks.js'),
  ]);
  return { migrateSnapshot, readPreviouslyForged, readV3History };
}

const MIGRATION_NETWORKS = ['mainnet', 'testnet'] as const;
type MigrationNetwork = (typeof MIGRATION_NETWORKS)[number];

function envBoolean(value: string | undefined): boolean {
  return value !== undefined && ['true', '1', 'yes'].includes(value.toLowerCase());
}

/** The migrator's flag relations (oclif `exclusive`/`dependsOn`), with oclif's wording. */
function checkFlagRelations(given: Record<string, unknown>, unsafe: boolean): void {
  const has = (name: string): boolean => given[name] !== undefined && given[name] !== false;
  if (has('snapshot-path') && has('snapshot-url'))
    throw new MigrationError('MIGRATION_FLAGS', '--snapshot-url= cannot also be provided when using --snapshot-path=');
  for (const name of ['snapshot-path', 'snapshot-url']) {
    if (has(name) && !has('network')) throw new MigrationError('MIGRATION_FLAGS', `--network= must also be provided when using --${name}=`);
  }
  if (has('unsafe-skip-finality-wait')) {
    for (const name of ['snapshot-path', 'snapshot-url']) {
      if (has(name))
        throw new MigrationError('MIGRATION_FLAGS', `--unsafe-skip-finality-wait= cannot also be provided when using --${name}=`);
    }
  }
  if (!has('network')) return;
  const offline = has('snapshot-path') || has('snapshot-url');
  // Online under the override, --network only labels the chain: the data path and config still apply.
  const exclusive =
    offline || !unsafe
      ? ['lisk-core-v3-data-path', 'config', 'auto-migrate-config', 'auto-start-lisk-core-v4']
      : ['auto-start-lisk-core-v4'];
  for (const name of exclusive) {
    if (has(name)) throw new MigrationError('MIGRATION_FLAGS', `--${name}= cannot also be provided when using --network=`);
  }
  if (!offline && !unsafe)
    throw new MigrationError('MIGRATION_FLAGS', 'Either --snapshot-path= or --snapshot-url= must be provided when using --network=');
}

/** Progress of the snapshot phases: a redrawn line on a terminal, JSON lines otherwise (both on stderr). */
function progressReporter(out: CliIO['stderr']): { report(phase: string, done: number, total?: number): void; end(): void } {
  let lastPhase = '';
  let lastAt = 0;
  let drawn = false;
  return {
    report(phase, done, total) {
      const now = Date.now();
      const changed = phase !== lastPhase;
      if (!changed && now - lastAt < (out.isTTY ? 100 : 1000) && done !== total) return;
      lastAt = now;
      if (out.isTTY) {
        const share = total ? Math.min(1, done / total) : undefined;
        const bar = share === undefined ? '' : `[${'#'.repeat(Math.round(share * 30)).padEnd(30, '.')}] `;
        out.write(`${changed && drawn ? '\n' : '\r'}${phase.padEnd(8)} ${bar}${done}${total ? `/${total}` : ''}\u001b[K`);
        drawn = true;
      } else {
        out.write(`${JSON.stringify(total === undefined ? { phase, done } : { phase, done, total })}\n`);
      }
      lastPhase = phase;
    },
    end() {
      if (out.isTTY && drawn) out.write('\n');
      drawn = false;
    },
  };
}

interface MigrationState {
  outputDir: string | undefined;
  network: MigrationNetwork | undefined;
  forgingStatus: ForgingStatusEntry[] | undefined;
  genesisCommand: string | undefined;
  startCommand: string | undefined;
  /** The v3 database the snapshot is read from. */
  dbPath: string | undefined;
}

export const migrateCommand: CliCommand = {
  name: 'migrate',
  summary: 'Migrate a Lisk Core 3 node: the v4 genesis block, config and validator commands (lisk-migrator 2.0.1)',
  help: HELP,
  async run(argv: readonly string[], io: CliIO & PromptIO): Promise<number> {
    const values = parseFlagsOnly(argv, FLAGS);
    const env = process.env;
    const flags = {
      ...values,
      'snapshot-height': values['snapshot-height'] ?? env.SNAPSHOT_HEIGHT,
      'auto-migrate-config': values['auto-migrate-config'] ?? envBoolean(env.AUTO_MIGRATE_CONFIG),
      'auto-start-lisk-core-v4': values['auto-start-lisk-core-v4'] ?? envBoolean(env.AUTO_START_LISK_CORE),
      'snapshot-path': values['snapshot-path'] ?? env.SNAPSHOT_PATH,
      'snapshot-url': values['snapshot-url'] ?? env.SNAPSHOT_URL,
      network: values.network ?? env.NETWORK,
    };
    const log = (line: string): void => {
      io.stdout.write(`${line}\n`);
    };
    const fail = (message: string): number => {
      io.stderr.write(`${message}\n`);
      return EXIT_NODE_ERROR;
    };
    if (flags['snapshot-height'] === undefined) throw new UsageError('Missing required flag -s, --snapshot-height (or SNAPSHOT_HEIGHT).');
    const snapshotHeight = integerFlag('snapshot-height', flags['snapshot-height'], 1, 0xffff_ffff) as number;
    const pageSize = integerFlag('page-size', flags['page-size'], 1) ?? 100_000;
    const unsafe = flags['unsafe-skip-v3-checks'] === true;
    const state: MigrationState = {
      outputDir: undefined,
      network: undefined,
      forgingStatus: undefined,
      genesisCommand: undefined,
      startCommand: undefined,
      dbPath: undefined,
    };
    const v3DataPath = resolveMigrationPath(flags['lisk-core-v3-data-path'] ?? DEFAULT_LISK_CORE_PATH);
    let client: V3WsClient | undefined;
    try {
      checkFlagRelations(flags, unsafe);
      if (flags.network !== undefined && !(MIGRATION_NETWORKS as readonly string[]).includes(flags.network)) {
        throw new MigrationError('MIGRATION_FLAGS', `Expected --network=${flags.network} to be one of: ${MIGRATION_NETWORKS.join(', ')}`);
      }
      if (flags['snapshot-url'] !== undefined) checkSnapshotUrl(flags['snapshot-url']);
      if (flags.output !== undefined) verifyOutputPath(flags.output);
      const offline = flags['snapshot-path'] !== undefined || flags['snapshot-url'] !== undefined;
      const engine = await loadEngine();

      let dbPath: string;
      let hasBackup = false;
      let networkIdentifier: string;
      if (offline) {
        state.network = flags.network as MigrationNetwork;
        networkIdentifier = state.network;
        state.outputDir = outputDirectory(flags.output, state.network);
        const extractDir = join(state.outputDir, SNAPSHOT_EXTRACT_DIR);
        if (flags['snapshot-url'] !== undefined) {
          log(`Downloading snapshot from ${flags['snapshot-url']} to ${state.outputDir}`);
          const archive = await downloadSnapshot(flags['snapshot-url'], state.outputDir);
          dbPath = await extractSnapshot(archive, extractDir);
          log(`Successfully downloaded snapshot from ${flags['snapshot-url']} to ${state.outputDir}`);
        } else {
          const snapshotPath = resolveMigrationPath(flags['snapshot-path'] as string);
          if (snapshotPath.endsWith('.tar.gz')) {
            log(`Extracting snapshot to ${extractDir}`);
            dbPath = await extractSnapshot(snapshotPath, extractDir);
            log(`Successfully extracted snapshot to ${extractDir}`);
          } else {
            dbPath = snapshotPath;
          }
        }
      } else {
        const url = flags['lisk-core-v3-rpc-url'] ?? `ws://127.0.0.1:${V3_DEFAULT_RPC_PORT}/ws`;
        client = await V3WsClient.connect(url);
        const v3 = client;
        const info = await v3.invoke<V3NodeInfo>('app:getNodeInfo');
        log('Verifying if backup height from node config matches snapshot height');
        const checked = checkV3Node(info, {
          snapshotHeight,
          autoStart: flags['auto-start-lisk-core-v4'] === true,
          unsafeSkipV3Checks: unsafe,
        });
        for (const line of checked.skipped) log(line);
        networkIdentifier = checked.networkIdentifier;
        state.network = checked.network?.name ?? (unsafe ? (flags.network as MigrationNetwork | undefined) : undefined);
        if (state.network === undefined) {
          throw new MigrationError(
            'MIGRATION_UNKNOWN_NETWORK',
            `Unknown network detected. No NETWORK_CONSTANT defined for networkID: ${networkIdentifier}.${unsafe ? ' Name the network to migrate it as with --network.' : ''}`,
          );
        }
        state.outputDir = outputDirectory(flags.output, networkIdentifier);
        const outputDir = state.outputDir;
        captureForgingStatusAtSnapshot(
          v3,
          snapshotHeight,
          (entries) => {
            state.forgingStatus = entries;
            log(`Captured the forging status of ${entries.length} delegate(s) at height ${snapshotHeight}.`);
          },
          (error) => log(`Unable to capture the node forging status: ${error.message}`),
        );
        log(`${String(info.version)} detected`);
        const finalized = flags['unsafe-skip-finality-wait'] !== true;
        if (!finalized) {
          log(
            `Warning: not waiting for height ${snapshotHeight} to be final (--unsafe-skip-finality-wait): a fork can still replace the snapshot block, and the migration would then continue a chain the network abandoned.`,
          );
        }
        const waitProgress = progressReporter(io.stderr);
        await waitForFinality(() => v3.invoke<V3NodeInfo>('app:getNodeInfo'), snapshotHeight, {
          finalized,
          onProgress: ({ height, finalizedHeight }) =>
            waitProgress.report(finalized ? 'finality' : 'height', (finalized ? finalizedHeight : height) ?? 0, snapshotHeight),
        });
        waitProgress.end();
        log(
          finalized
            ? `Snapshot height ${snapshotHeight} is final. Output directory: ${outputDir}`
            : `Snapshot height ${snapshotHeight} reached (not final). Output directory: ${outputDir}`,
        );
        hasBackup = checked.hasBackup;
        if (hasBackup) {
          dbPath = join(v3DataPath, 'data', 'backup');
        } else {
          // Without a checkpoint the live database is read; it must not change underneath.
          dbPath = join(v3DataPath, 'data', 'blockchain.db');
          log(
            `Stop Lisk Core v3 now: its live database ${dbPath} is read once the node no longer answers, and must end at height ${snapshotHeight}${
              flags['rollback-to-snapshot'] === true ? ' or have the state diffs of the blocks above it (--rollback-to-snapshot)' : ''
            }.`,
          );
          await new Promise((resolve) => setTimeout(resolve, 1000));
          while (await v3NodeAnswers(v3.url)) await new Promise((resolve) => setTimeout(resolve, 2000));
          log('Lisk Core v3 stopped.');
        }
      }
      const network = state.network as MigrationNetwork;
      const outputDir = state.outputDir as string;
      state.dbPath = dbPath;
      const basaltDataPath = basaltDataPathOf(flags['basalt-data-path'], network);
      state.genesisCommand = `basalt migrate --snapshot-path ${dbPath} --network ${network} --snapshot-height ${snapshotHeight} --output ${outputDir}`;
      state.startCommand = `basalt start --network ${network} --genesis ${join(outputDir, 'genesis_block.blob')}${
        flags['basalt-data-path'] === undefined ? '' : ` --data-path ${basaltDataPath}`
      }`;

      // The v3 config: the data directory's (merged with --config) online, --v3-config offline.
      let v3Config: Record<string, unknown> | undefined;
      if (!offline && existsSync(join(v3DataPath, 'config'))) {
        const configDir = existsSync(join(v3DataPath, 'config', network)) ? network : readdirSync(join(v3DataPath, 'config')).sort()[0];
        const file = configDir === undefined ? undefined : join(v3DataPath, 'config', configDir, 'config.json');
        if (file !== undefined && existsSync(file)) v3Config = readV3Config(file, flags.config);
      } else if (flags['v3-config'] !== undefined) {
        v3Config = readV3Config(resolveMigrationPath(flags['v3-config']));
      }

      log('Creating database instance');
      const progress = progressReporter(io.stderr);
      const result = await engine.migrateSnapshot({
        dbPath,
        snapshotHeight,
        network,
        pageSize,
        rollbackToSnapshot: flags['rollback-to-snapshot'] === true,
        onProgress: ({ phase, done, total }) => progress.report(phase, done, total),
      });
      progress.end();
      log('Creating genesis assets... done');

      const files: OutputFile[] = genesisOutputFiles(result);
      const autoStart = flags['auto-start-lisk-core-v4'] === true && !offline;
      let configFile: string | undefined;
      if ((flags['auto-migrate-config'] === true || autoStart) && !offline) {
        let config: Record<string, unknown>;
        if (flags['auto-migrate-config'] === true) {
          log('Migrating user configuration');
          if (v3Config === undefined)
            throw new MigrationError('MIGRATION_CONFIG_MISSING', `No Lisk Core v3 config found under ${join(v3DataPath, 'config')}.`);
          const migrated = migrateV3Config(v3Config, bundledV4Config(network), snapshotHeight);
          for (const change of migrated.changes) log(change);
          config = migrated.config;
        } else {
          // The auto-started node needs the bracket in its config to serve the v3 history.
          config = bundledV4Config(network);
        }
        const { snapshotBlock, firstHeight } = await engine.readV3History(dbPath, snapshotHeight);
        config = withLegacyBracket(config, {
          startHeight: firstHeight,
          snapshotHeight,
          snapshotBlockID: snapshotBlock.id.toString('hex'),
        });
        validateMigratedConfig(config);
        files.push({ name: 'config.json', content: renderConfig(config) });
        configFile = join(outputDir, 'config.json');
        state.startCommand = `${state.startCommand} --config ${configFile}`;
      }

      if (state.forgingStatus === undefined) {
        const forgerDb =
          flags['forger-db'] !== undefined
            ? resolveMigrationPath(flags['forger-db'])
            : offline
              ? undefined
              : join(v3DataPath, 'data', 'forger.db');
        if (forgerDb !== undefined && existsSync(forgerDb)) {
          const records = await engine.readPreviouslyForged(forgerDb);
          const delegates =
            v3Config === undefined ? { addresses: [...records.keys()].sort(), force: false } : configuredDelegates(v3Config);
          state.forgingStatus = forgingStatusFromForgerDb(records, delegates.addresses, delegates.force);
          log(`Read the forging status of ${state.forgingStatus.length} delegate(s) from ${forgerDb}.`);
        }
      }
      if (state.forgingStatus !== undefined && state.forgingStatus.length > 0) {
        files.push({ name: FORGING_STATUS_FILE_NAME, content: renderForgingStatus(state.forgingStatus) });
      }
      const commands = renderCommandsFile(
        [],
        validatorCommands(state.forgingStatus ?? [], { chainId: chainIdOf(network), snapshotHeight, outputDir }),
      );
      if (commands !== undefined) files.push({ name: COMMANDS_FILE_NAME, content: commands });

      log(`Exporting genesis block to the path ${outputDir}`);
      writeOutputFiles(outputDir, files);
      log(`Genesis block tar and SHA256 files have been created at: ${outputDir}.`);
      if (commands !== undefined)
        log(`Successfully created file with the list of commands to execute: ${join(outputDir, COMMANDS_FILE_NAME)}`);

      if (autoStart) {
        await client?.close();
        client = undefined;
        await runAutoStart(io, {
          v3DataPath,
          outputDir,
          network,
          configFile,
          configText: files.find((file) => file.name === 'config.json')?.content as string,
          basaltDataPath: flags['basalt-data-path'] === undefined ? undefined : basaltDataPath,
          importLegacy: (movedV3DataPath) =>
            importV3History({
              v3DbPath: join(movedV3DataPath, 'data', basename(dbPath)),
              snapshotHeight,
              dataPath: basaltDataPath,
              progressOut: io.stderr,
            }).then(({ bracket, result }) =>
              log(
                `Imported the Lisk Core v3 history (heights ${bracket.startHeight} to ${bracket.snapshotHeight}, ${result.imported} new blocks) into ${basaltDataPath}.`,
              ),
            ),
          yes: flags.yes === true,
          rpcUrl: flags['lisk-core-v3-rpc-url'] ?? `ws://127.0.0.1:${V3_DEFAULT_RPC_PORT}/ws`,
          state,
        });
      } else {
        log(
          `Import the legacy (v3) blockchain information into Basalt: ${legacyImportCommandLine(dbPath, snapshotHeight, basaltDataPath)}`,
        );
        if (!offline) log(`Start Basalt with the new genesis block: ${state.startCommand}`);
      }
      log('Successfully finished migration. Exiting!!!');
      return EXIT_OK;
    } catch (error) {
      if (error instanceof UsageError) throw error;
      const message = (error as Error).message;
      if (state.outputDir === undefined) return fail(message);
      if (error instanceof MigrationError && error.genesisAssetsJson !== undefined) {
        // lisk-migrator has written genesis_assets.json by the time the snapshot block is read
        // or the genesis block is created: the same folder is left behind.
        writeOutputFiles(state.outputDir, [{ name: 'genesis_assets.json', content: error.genesisAssetsJson }]);
      }
      const code = recoveryCodeOf(error);
      const recovery =
        code === undefined
          ? []
          : recoveryCommands(code, {
              genesisCommand: state.genesisCommand,
              backupDataDirCommand: `mv ${v3DataPath} ${v3BackupDataPath(v3DataPath)}`,
              legacyImportCommand: legacyImportCommandLine(
                movedDbPath(state.dbPath ?? join(v3DataPath, 'data', 'backup'), v3DataPath),
                snapshotHeight,
                basaltDataPathOf(flags['basalt-data-path'], state.network ?? 'mainnet'),
              ),
              startCommand: state.startCommand ?? `basalt start --network ${state.network ?? 'mainnet'}`,
            });
      const validators =
        state.network === undefined
          ? []
          : validatorCommands(state.forgingStatus ?? [], {
              chainId: chainIdOf(state.network),
              snapshotHeight,
              outputDir: state.outputDir,
            });
      const commands = renderCommandsFile(recovery, validators);
      const commandsFile = join(state.outputDir, COMMANDS_FILE_NAME);
      if (commands !== undefined) {
        try {
          writeOutputFiles(state.outputDir, [{ name: COMMANDS_FILE_NAME, content: commands }]);
        } catch (writeError) {
          io.stderr.write(`Cannot write ${commandsFile}: ${(writeError as Error).message}\n`);
        }
      }
      return fail(
        `Migrator could not finish execution successfully due to: ${message}\nPlease check the commands to be executed in the file: ${commandsFile}`,
      );
    } finally {
      await client?.close();
    }
  },
};

/** The Basalt data path: the flag, else `basalt start`'s default for the network. */
function basaltDataPathOf(flag: string | undefined, network: MigrationNetwork): string {
  return resolve(expandHome(flag ?? `~/.basalt/${network}`));
}

/**
 * Where a database inside the v3 data directory is once the recovery commands have moved that
 * directory aside (the recovery blocks move it before the legacy import); a database elsewhere
 * (offline mode) stays where it is.
 */
function movedDbPath(dbPath: string, v3DataPath: string): string {
  const prefix = `${v3DataPath.replace(/\/+$/, '')}/`;
  return dbPath.startsWith(prefix) ? join(v3BackupDataPath(v3DataPath), dbPath.slice(prefix.length)) : dbPath;
}

/** The config with `bracket` as its one legacy bracket (lisk-sdk's `legacy.brackets`). */
function withLegacyBracket(
  config: Record<string, unknown>,
  bracket: { startHeight: number; snapshotHeight: number; snapshotBlockID: string },
): Record<string, unknown> {
  const legacy = (config.legacy ?? {}) as Record<string, unknown>;
  return { ...config, legacy: { ...legacy, brackets: [bracket] } };
}

async function runAutoStart(
  io: CliIO & PromptIO,
  options: {
    v3DataPath: string;
    outputDir: string;
    network: MigrationNetwork;
    configFile: string | undefined;
    configText: string;
    basaltDataPath: string | undefined;
    importLegacy: (movedV3DataPath: string) => Promise<void>;
    yes: boolean;
    rpcUrl: string;
    state: MigrationState;
  },
): Promise<void> {
  const input = io.stdin ?? process.stdin;
  if (!options.yes && !input.isTTY) {
    throw new MigrationError('MIGRATION_AUTO_START', 'The auto-start asks for confirmations: run it on a terminal, or pass --yes.');
  }
  const prompter = options.yes ? undefined : createPrompter(io);
  const config = JSON.parse(options.configText) as { network?: { port?: number }; rpc?: { port?: number } };
  const start = basaltStartCommand(options.network, options.outputDir, options.configFile, undefined, options.basaltDataPath);
  options.state.startCommand = start.line;
  try {
    await autoStartBasalt(
      {
        v3DataPath: options.v3DataPath,
        p2pPort: config.network?.port ?? 7667,
        rpcPort: config.rpc?.port ?? 7887,
        configText: options.configText,
        start,
        logFile: join(options.outputDir, 'basalt.log'),
      },
      {
        confirm: async (question) => {
          if (!prompter) {
            io.stdout.write(`${question.split('\n')[0]} yes (--yes)\n`);
            return true;
          }
          const answer = await prompter.line(`${question} `);
          return ['y', 'yes'].includes(answer.trim().toLowerCase());
        },
        log: (line) => io.stdout.write(`${line}\n`),
        v3Answers: () => v3NodeAnswers(options.rpcUrl),
        portFree: isPortFree,
        importLegacy: options.importLegacy,
      },
    );
  } finally {
    prompter?.close();
  }
}
