import { EXIT_OK, UsageError, type CliCommand } from '../command.js';
import { NODE_FLAGS, NODE_FLAGS_HELP, parseFlags } from '../support/args.js';
import { printJson } from '../support/json-output.js';
import { nodeConnection } from '../support/node-command.js';
import { RESOURCE_NOT_FOUND, RpcCallError, withNode } from '../support/node-client.js';

const HELP = `Print a block of a running node by height or ID (lisk-core block:get).

Usage: basalt block:get HEIGHT_OR_ID [--data-path DIR] [--url URL] [--pretty]

  HEIGHT_OR_ID          a height (decimal) or a block ID (64 hex characters)
${NODE_FLAGS_HELP}

Prints the block JSON of chain_getBlockByHeight / chain_getBlockByID.

Examples:
  basalt block:get 2 --pretty
  basalt block:get e082e79d01016632c451c9df9276e486cb7f460dc793ff5b10d8f71eecec28b4
`;

export const blockGetCommand: CliCommand = {
  name: 'block:get',
  summary: 'Print a block by height or ID',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, NODE_FLAGS, 1);
    const input = positionals[0];
    if (input === undefined) throw new UsageError('HEIGHT_OR_ID is required.');
    let request: { method: string; params: object };
    if (/^\d+$/.test(input) && Number(input) <= 0xffff_ffff)
      request = { method: 'chain_getBlockByHeight', params: { height: Number(input) } };
    else if (/^[0-9a-fA-F]{64}$/.test(input)) request = { method: 'chain_getBlockByID', params: { id: input.toLowerCase() } };
    else throw new UsageError('HEIGHT_OR_ID must be a height or a 32-byte block ID in hex.');
    try {
      const block = await withNode(nodeConnection(values), (client) => client.invoke(request.method, request.params));
      printJson(io.stdout, block, values.pretty === true);
    } catch (error) {
      if (error instanceof RpcCallError && error.rpcCode === RESOURCE_NOT_FOUND)
        throw new Error('Block with given id or height was not found.');
      throw error;
    }
    return EXIT_OK;
  },
};
