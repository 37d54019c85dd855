import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { defaultNodeConfig } from '../../config/config-defaults.js';
import { EXIT_OK, UsageError, type CliCommand } from '../command.js';
import { parseFlags } from '../support/args.js';
import { resolveOutputFile } from '../support/json-output.js';

const HELP = `Write a config file for a new chain from Basalt's defaults (lisk-core config:create).

Usage: basalt config:create --chain-id HEX [--output DIR_OR_FILE] [--label NAME] [--overwrite]

  -i, --chain-id HEX    the chain ID, 8 hex characters (e.g. 00000000 Lisk mainnet)
  -o, --output PATH     a directory that receives config.json (default: the current directory),
                        or a file path ending in .json
  -l, --label NAME      the application label; the data path becomes ~/.basalt/<label>
                        (default basalt-app)
      --overwrite       replace an existing file (Lisk asks; Basalt refuses without this flag)

The file holds Lisk's application config defaults (rpc, network, transactionPool, genesis,
generator, modules, plugins) with genesis.chainID and system.dataPath set. Use it with
basalt start --config FILE (a genesis block is needed too).

Examples:
  basalt config:create --chain-id 04000000 --output ./mychain
  basalt config:create --chain-id 04000000 --output ./mychain/config.json --label beta-app
`;

export const configCreateCommand: CliCommand = {
  name: 'config:create',
  summary: 'Write a config file with the defaults for a chain ID',
  help: HELP,
  async run(argv, io) {
    const { values } = parseFlags(argv, {
      'chain-id': { type: 'string', short: 'i' },
      output: { type: 'string', short: 'o' },
      label: { type: 'string', short: 'l' },
      overwrite: { type: 'boolean' },
    });
    const chainID = values['chain-id'];
    if (chainID === undefined) throw new UsageError('--chain-id is required.');
    if (!/^[0-9a-fA-F]{8}$/.test(chainID)) throw new UsageError('Invalid chain ID format. ChainID must be in hex format with 8 characters');
    const label = values.label ?? 'basalt-app';
    if (!/^[a-zA-Z0-9._-]+$/.test(label)) throw new UsageError('--label may hold letters, digits, ".", "_" and "-" only.');
    const path = resolveOutputFile(values.output ?? process.cwd(), 'config.json');
    if (existsSync(path) && values.overwrite !== true) {
      throw new Error(`A config file already exists at ${path}: use --overwrite to replace it.`);
    }
    const config = defaultNodeConfig() as { system: Record<string, unknown>; genesis: Record<string, unknown> };
    config.system.dataPath = `~/.basalt/${label}`;
    config.genesis.chainID = chainID.toLowerCase();
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${JSON.stringify(config, undefined, 2)}\n`, { mode: 0o644 });
    io.stdout.write(`Successfully written data to ${path}\n`);
    return EXIT_OK;
  },
};
