import { StoreWriteError } from '../errors.js';
import { EXIT_NODE_ERROR, EXIT_STORE_WRITE_FAILED, EXIT_USAGE, UsageError, type CliCommand, type CliIO } from './command.js';
import { exportCommand } from './commands/blockchain-export.js';
import { importCommand } from './commands/blockchain-import.js';
import { replayCommand } from './commands/blockchain-replay.js';
import { genesisCreateCommand } from './commands/genesis-create.js';
import { startCommand } from './commands/start.js';
import { legacyImportCommand } from './commands/legacy-import.js';
import { keysCreateCommand } from './commands/keys-create.js';
import { keysImportCommand } from './commands/keys-import.js';
import { keysExportCommand } from './commands/keys-export.js';
import { keysEncryptCommand } from './commands/keys-encrypt.js';
import { generatorEnableCommand } from './commands/generator-enable.js';
import { generatorDisableCommand } from './commands/generator-disable.js';
import { generatorStatusCommand } from './commands/generator-status.js';
import { generatorExportCommand } from './commands/generator-export.js';
import { generatorImportCommand } from './commands/generator-import.js';
import { endpointInvokeCommand } from './commands/endpoint-invoke.js';
import { endpointListCommand } from './commands/endpoint-list.js';
import { transactionCreateCommand } from './commands/transaction-create.js';
import { hashOnionCommand } from './commands/hash-onion.js';
import { passphraseCreateCommand } from './commands/passphrase-create.js';
import { passphraseEncryptCommand } from './commands/passphrase-encrypt.js';
import { passphraseDecryptCommand } from './commands/passphrase-decrypt.js';
import { blockGetCommand } from './commands/block-get.js';
import { systemNodeInfoCommand } from './commands/system-node-info.js';
import { systemMetadataCommand } from './commands/system-metadata.js';
import { configShowCommand } from './commands/config-show.js';
import { configCreateCommand } from './commands/config-create.js';
import { migrateCommand } from './commands/migrate.js';

const commands: readonly CliCommand[] = [
  startCommand,
  replayCommand,
  exportCommand,
  importCommand,
  genesisCreateCommand,
  keysCreateCommand,
  keysImportCommand,
  keysExportCommand,
  keysEncryptCommand,
  generatorEnableCommand,
  generatorDisableCommand,
  generatorStatusCommand,
  generatorExportCommand,
  generatorImportCommand,
  endpointInvokeCommand,
  endpointListCommand,
  transactionCreateCommand,
  hashOnionCommand,
  passphraseCreateCommand,
  passphraseEncryptCommand,
  passphraseDecryptCommand,
  blockGetCommand,
  systemNodeInfoCommand,
  systemMetadataCommand,
  configShowCommand,
  configCreateCommand,
  migrateCommand,
  legacyImportCommand,
];

function usage(): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  const lines = commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`);
  return `Basalt: a fast Lisk SDK v6 compatible blockchain node.\n\nUsage: basalt <command> [flags]\n\nCommands:\n${lines.join('\n')}\n\nRun \`basalt <command> --help\` for a command's flags and examples.\n`;
}

export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(usage());
    return name === undefined ? EXIT_USAGE : 0;
  }
  if (name === '--version' || name === '-v') {
    const { version } = await import('../version.js');
    io.stdout.write(`${version}\n`);
    return 0;
  }
  const command = commands.find((candidate) => candidate.name === name);
  if (!command) {
    io.stderr.write(`Unknown command "${name}".\n\n${usage()}`);
    return EXIT_USAGE;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(command.help);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`Error: ${error.message}\n\n${command.help}`);
      return EXIT_USAGE;
    }
    io.stderr.write(`Error: ${(error as Error).message}\n`);
    return error instanceof StoreWriteError ? EXIT_STORE_WRITE_FAILED : EXIT_NODE_ERROR;
  }
}
