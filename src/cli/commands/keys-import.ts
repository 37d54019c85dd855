import { resolve } from 'node:path';
import { expandHome } from '../../config/config-paths.js';
import { EXIT_OK, UsageError, type CliCommand } from '../command.js';
import { NODE_FLAGS, NODE_FLAGS_HELP, parseFlags } from '../support/args.js';
import { hasEncryptedKeys, readKeysFile } from '../support/keys-file.js';
import { nodeConnection } from '../support/node-command.js';
import { withNode } from '../support/node-client.js';

const HELP = `Import the keys of a key file into a running node (lisk-core keys:import).

Usage: basalt keys:import --file-path FILE [--data-path DIR] [--url URL]

  -f, --file-path FILE  a keys.json (keys:create, keys:export, Lisk's)
${NODE_FLAGS_HELP}

Each entry is sent with generator_setKeys: its "encrypted" section when it has one (the private
keys then never reach the node in clear), its "plain" keys otherwise. New keys stop block
generation for the address until generator:enable. Prints nothing on success.
Needs "generator" in the node's rpc.allowedMethods.

Examples:
  basalt keys:import --file-path ./keys.json
  basalt keys:import --file-path ./keys.json --data-path ~/.basalt/mainnet
`;

export const keysImportCommand: CliCommand = {
  name: 'keys:import',
  summary: 'Send the keys of a key file to the node (generator_setKeys)',
  help: HELP,
  async run(argv) {
    const { values } = parseFlags(argv, { ...NODE_FLAGS, 'file-path': { type: 'string', short: 'f' } });
    if (values['file-path'] === undefined) throw new UsageError('--file-path is required.');
    const file = readKeysFile(resolve(expandHome(values['file-path'])));
    const requests = file.keys.map((entry) => {
      if (hasEncryptedKeys(entry)) return { address: entry.address, type: 'encrypted', data: entry.encrypted };
      if (entry.plain === undefined) throw new Error(`Entry ${entry.address} has neither "encrypted" nor "plain" keys.`);
      const { generatorKey, generatorPrivateKey, blsKey, blsPrivateKey } = entry.plain;
      return { address: entry.address, type: 'plain', data: { generatorKey, generatorPrivateKey, blsKey, blsPrivateKey } };
    });
    await withNode(nodeConnection(values), async (client) => {
      for (const request of requests) await client.invoke('generator_setKeys', request);
    });
    return EXIT_OK;
  },
};
