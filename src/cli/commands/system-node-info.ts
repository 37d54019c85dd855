import { NODE_FLAGS_HELP } from '../support/args.js';
import { nodeQueryCommand } from '../support/node-command.js';

const HELP = `Print the node's information (lisk-core system:node-info).

Usage: basalt system:node-info [--data-path DIR] [--url URL] [--pretty]

${NODE_FLAGS_HELP}

Prints system_getNodeInfo: version, chainID, height, finalizedHeight, syncing, genesis, network...

Examples:
  basalt system:node-info --pretty
  basalt system:node-info --data-path ~/.basalt/mainnet
`;

export const systemNodeInfoCommand = nodeQueryCommand({
  name: 'system:node-info',
  summary: 'Print the node information (system_getNodeInfo)',
  help: HELP,
  method: 'system_getNodeInfo',
});
