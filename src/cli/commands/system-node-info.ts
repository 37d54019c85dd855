import { EXIT_OK, type CliCommand } from '../command.js';
import { NODE_FLAGS, NODE_FLAGS_HELP, parseFlags } from '../support/args.js';
import { printJson } from '../support/json-output.js';
import { nodeConnection } from '../support/node-command.js';
import { withNode } from '../support/node-client.js';

const HELP = `Print the node's information (lisk-core system:node-info).

Usage: basalt system:node-info [--data-path DIR] [--url URL] [--pretty]

${NODE_FLAGS_HELP}

Prints system_getNodeInfo: version, chainID, height, finalizedHeight, syncing, genesis, network...

Examples:
  basalt system:node-info --pretty
  basalt system:node-info --data-path ~/.basalt/mainnet
`;

export const systemNodeInfoCommand: CliCommand = {
  name: 'system:node-info',
  summary: 'Print the node information (system_getNodeInfo)',
  help: HELP,
  async run(argv, io) {
    const { values } = parseFlags(argv, NODE_FLAGS);
    printJson(io.stdout, await withNode(nodeConnection(values), (client) => client.invoke('system_getNodeInfo')), values.pretty === true);
    return EXIT_OK;
  },
};
