import { EXIT_NODE_ERROR, EXIT_USAGE, UsageError, type CliCommand, type CliIO } from './command.js';
import { exportCommand } from './commands/blockchain-export.js';
import { replayCommand } from './commands/blockchain-replay.js';
import { genesisCreateCommand } from './commands/genesis-create.js';
import { startCommand } from './commands/start.js';

const commands: readonly CliCommand[] = [startCommand, replayCommand, exportCommand, genesisCreateCommand];

function usage(): string {
  const width = Math.max(...commands.map(command => command.name.length));
  const lines = commands.map(command => `  ${command.name.padEnd(width)}  ${command.summary}`);
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
  const command = commands.find(candidate => candidate.name === name);
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
    return EXIT_NODE_ERROR;
  }
}

