import { NODE_FLAGS_HELP } from '../support/args.js';
import { nodeQueryCommand } from '../support/node-command.js';

const HELP = `Show the block-generation status of the validators the node knows (lisk-core generator:status).

Usage: basalt generator:status [--data-path DIR] [--url URL] [--pretty]

${NODE_FLAGS_HELP}

Prints {"info":{"status":[{address, height, maxHeightPrevoted, maxHeightGenerated, generatorKey,
blsKey, enabled}]}} from generator_getStatus: one entry per validator with a stored status (keys
imported but never generated nor set with generator_setStatus are not listed, as in Lisk).
Needs "generator" in the node's rpc.allowedMethods.

Examples:
  basalt generator:status --pretty
  basalt generator:status --url http://127.0.0.1:7887
`;

export const generatorStatusCommand = nodeQueryCommand({
  name: 'generator:status',
  summary: 'Show the generator status of every validator on the node (generator_getStatus)',
  help: HELP,
  method: 'generator_getStatus',
  output: (info) => ({ info }),
});
