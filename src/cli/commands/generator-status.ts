import { EXIT_OK, type CliCommand } from '../command.js';
import { NODE_FLAGS, NODE_FLAGS_HELP, parseFlags } from '../support/args.js';
import type { GeneratorStatusResponse } from '../support/generator-rpc.js';
import { printJson } from '../support/json-output.js';
import { nodeConnection } from '../support/node-command.js';
import { withNode } from '../support/node-client.js';

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

export const generatorStatusCommand: CliCommand = {
  name: 'generator:status',
  summary: 'Show the generator status of every validator on the node (generator_getStatus)',
  help: HELP,
  async run(argv, io) {
    const { values } = parseFlags(argv, NODE_FLAGS);
    const info = await withNode(nodeConnection(values), (client) => client.invoke<GeneratorStatusResponse>('generator_getStatus'));
    printJson(io.stdout, { info }, values.pretty === true);
    return EXIT_OK;
  },
};
