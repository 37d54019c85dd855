import { EXIT_OK, type CliCommand } from '../command.js';
import { NODE_FLAGS, NODE_FLAGS_HELP, parseFlags } from '../support/args.js';
import { printJson } from '../support/json-output.js';
import { nodeConnection } from '../support/node-command.js';
import { withNode } from '../support/node-client.js';

const HELP = `Print the modules' metadata of the node (lisk-core system:metadata).

Usage: basalt system:metadata [--data-path DIR] [--url URL] [--pretty]

${NODE_FLAGS_HELP}

Prints system_getMetadata: per module its commands (params schemas), events, stores, endpoints
and block assets.

Examples:
  basalt system:metadata --pretty
`;

export const systemMetadataCommand: CliCommand = {
  name: 'system:metadata',
  summary: 'Print the module metadata (system_getMetadata)',
  help: HELP,
  async run(argv, io) {
    const { values } = parseFlags(argv, NODE_FLAGS);
    printJson(io.stdout, await withNode(nodeConnection(values), (client) => client.invoke('system_getMetadata')), values.pretty === true);
    return EXIT_OK;
  },
};
