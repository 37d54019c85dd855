/**
 * `--auto-start-lisk-core-v4`: after an online migration, hand the machine over from Lisk Core 3
 * to Basalt, as lisk-migrator 2.0.1 does for Lisk Core 4 (`src/index.ts`, `src/utils/node.ts`):
 * the operator confirms that v3 is stopped (and its API must no longer answer), confirms the
 * config, the ports must be free, the v3 data directory is renamed (never deleted), and the v4
 * node starts with the new genesis block and config.
 *
 * Differences, on purpose: the migrator re-tests the P2P port where it means the RPC port; Basalt
 * tests both. The migrator renames any data path to `~/.lisk/lisk-core-v3`; Basalt appends `-v3`
 * to the given path (the same for the default path, and no collision for others). The migrator
 * copies the v3 backup into `data/legacy.db` of Lisk Core 4; Basalt imports the v3 blocks into
 * its own legacy chain store at that step (`AutoStartSteps.importLegacy`). Basalt starts as a detached process logging
 * to `<output>/basalt.log` instead of installing pm2.
 */
import { spawn } from 'node:child_process';
import { existsSync, openSync, renameSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { MigrationError } from './migration-error.js';

/** Whether nothing listens on `port`: a listener is tried on every IPv4 and, where present, every IPv6 address. */
export async function isPortFree(port: number): Promise<boolean> {
  const tryListen = (host: string): Promise<boolean | undefined> =>
    new Promise((resolve) => {
      const server = createServer();
      server.once('error', (error: NodeJS.ErrnoException) => {
        // No IPv6 on this machine: that family cannot be taken either.
        resolve(error.code === 'EAFNOSUPPORT' || error.code === 'EADDRNOTAVAIL' ? undefined : false);
      });
      server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
    });
  const ipv4 = await tryListen('0.0.0.0');
  if (ipv4 === false) return false;
  return (await tryListen('::')) !== false;
}

/** `<path>-v3`: where the v3 data directory is moved. */
export function v3BackupDataPath(v3DataPath: string): string {
  return `${v3DataPath.replace(/\/+$/, '')}-v3`;
}

/** Renames the v3 data directory aside; never overwrites an earlier backup. */
export function moveV3DataDir(v3DataPath: string): string {
  const target = v3BackupDataPath(v3DataPath);
  if (existsSync(target)) {
    throw new MigrationError('MIGRATION_V3_BACKUP', `Cannot move ${v3DataPath} to ${target}: ${target} already exists.`);
  }
  try {
    renameSync(v3DataPath, target);
  } catch (error) {
    throw new MigrationError('MIGRATION_V3_BACKUP', `Cannot move ${v3DataPath} to ${target}: ${(error as Error).message}`, undefined, {
      cause: error,
    });
  }
  return target;
}

export interface StartCommand {
  /** The executable (node). */
  readonly command: string;
  readonly args: readonly string[];
  /** The same, as one line an operator can paste. */
  readonly line: string;
}

/**
 * `basalt start` with the migration's genesis block and config. `self` is how this process was
 * started (node, its flags, the script), so a run from the sources starts the same sources.
 */
export function basaltStartCommand(
  network: 'mainnet' | 'testnet',
  outputDir: string,
  configFile: string | undefined,
  self: { execPath: string; execArgv: readonly string[]; script: string } = {
    execPath: process.execPath,
    execArgv: process.execArgv,
    script: process.argv[1] as string,
  },
  /** The node's data path, when not `basalt start`'s default. */
  dataPath?: string,
): StartCommand {
  const startArgs = ['start', '--network', network, '--genesis', join(outputDir, 'genesis_block.blob')];
  if (configFile !== undefined) startArgs.push('--config', configFile);
  if (dataPath !== undefined) startArgs.push('--data-path', dataPath);
  return { command: self.execPath, args: [...self.execArgv, self.script, ...startArgs], line: `basalt ${startArgs.join(' ')}` };
}

/** Starts Basalt detached, its output appended to `logFile`; resolves with its pid once spawned. */
export function startDetached(start: StartCommand, logFile: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let log: number;
    try {
      log = openSync(logFile, 'a');
    } catch (error) {
      reject(new MigrationError('MIGRATION_AUTO_START', `Cannot open ${logFile}: ${(error as Error).message}`));
      return;
    }
    const child = spawn(start.command, start.args, { detached: true, stdio: ['ignore', log, log] });
    child.once('error', (error) => reject(new MigrationError('MIGRATION_AUTO_START', `Cannot start Basalt: ${error.message}`)));
    child.once('spawn', () => {
      child.unref();
      resolve(child.pid as number);
    });
  });
}

export interface AutoStartSteps {
  /** Asks a yes/no question; resolves true for yes. */
  confirm(question: string): Promise<boolean>;
  log(line: string): void;
  /** Whether the v3 node's API still answers. */
  v3Answers(): Promise<boolean>;
  portFree(port: number): Promise<boolean>;
  /**
   * Imports the v3 history into the node's data directory, once the v3 data directory has moved
   * to `movedV3DataPath` and before the node starts (where the migrator copies legacy.db).
   */
  importLegacy?(movedV3DataPath: string): Promise<void>;
}

export interface AutoStartOptions {
  readonly v3DataPath: string;
  readonly p2pPort: number;
  readonly rpcPort: number;
  /** The config Basalt will start with, shown for confirmation. */
  readonly configText: string;
  readonly start: StartCommand;
  readonly logFile: string;
}

const MANUAL_HINT = 'Please continue manually: the commands are in commandsToExecute.txt.';

/**
 * The hand-over, step by step. Returns the pid of the started node, or undefined when the
 * operator declined the config (the migration itself stays successful, as with the migrator).
 */
export async function autoStartBasalt(
  options: AutoStartOptions,
  steps: AutoStartSteps,
  spawnNode = startDetached,
): Promise<number | undefined> {
  const stopped = await steps.confirm("Please stop Lisk Core v3 to continue. Type 'yes' and press Enter when ready. [yes/no]");
  if (!stopped) {
    throw new MigrationError(
      'MIGRATION_AUTO_START',
      `User did not confirm Lisk Core v3 node shutdown. Skipping the auto-start. ${MANUAL_HINT}`,
    );
  }
  for (let triesLeft = 3; await steps.v3Answers(); triesLeft -= 1) {
    if (triesLeft === 0)
      throw new MigrationError('MIGRATION_AUTO_START', `Cannot auto-start Basalt as Lisk Core v3 is still running. ${MANUAL_HINT}`);
    const again = await steps.confirm("Lisk Core v3 still running. Please stop the node, type 'yes' to proceed and 'no' to exit. [yes/no]");
    if (!again) throw new MigrationError('MIGRATION_AUTO_START', `Cannot proceed with the auto-start. ${MANUAL_HINT}`);
  }
  if (!(await steps.confirm(`Start Basalt with the following configuration? [yes/no]\n${options.configText}\n`))) {
    steps.log('User did not accept the migrated config. Skipping the Basalt auto-start process.');
    return undefined;
  }
  for (const [name, port] of [
    ['P2P', options.p2pPort],
    ['RPC', options.rpcPort],
  ] as const) {
    if (!(await steps.portFree(port))) {
      throw new MigrationError(
        'MIGRATION_AUTO_START',
        `The ${name} port ${port} is in use. Free it and start Basalt manually. ${MANUAL_HINT}`,
      );
    }
  }
  const moved = moveV3DataDir(options.v3DataPath);
  steps.log(`Moved the Lisk Core v3 data directory to ${moved}.`);
  await steps.importLegacy?.(moved);
  const pid = await spawnNode(options.start, options.logFile);
  steps.log(`Started Basalt (pid ${pid}): ${options.start.line}; its log: ${options.logFile}.`);
  return pid;
}
