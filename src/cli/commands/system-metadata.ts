import { NODE_FLAGS_HELP } from '../support/args.js';
import { nodeQueryCommand } from '../support/node-command.js';

const HELP = `Print the modules' metadata of the node (lisk-core system:metadata).

Usage: basalt system:metadata [--data-path DIR] [--url URL] [--pretty]

${NODE_FLAGS_HELP}

Prints system_getMetadata: per module its commands (params schemas), events, stores, endpoints
and block assets.

Examples:
  basalt system:metadata --pretty
`;

export const systemMetadataCommand = nodeQueryCommand({
  name: 'system:metadata',
  summary: 'Print the module metadata (system_getMetadata)',
  help: HELP,
  method: 'system_getMetadata',
});
