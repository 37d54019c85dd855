import { existsSync, readFileSync } from 'node:fs';
import { EXIT_OK, UsageError, type CliCommand } from '../command.js';
import { NODE_FLAGS, NODE_FLAGS_HELP, parseFlags } from '../support/args.js';
import { printJson } from '../support/json-output.js';
import { nodeConnection } from '../support/node-command.js';
import { withNode } from '../support/node-client.js';

const HELP = `Call any RPC method of a running node (lisk-core endpoint:invoke).

Usage: basalt endpoint:invoke METHOD [PARAMS_JSON] [--file FILE] [--data-path DIR] [--url URL] [--pretty]

  METHOD                <namespace>_<name>, e.g. chain_getLastBlock, generator_setStatus
  PARAMS_JSON           the params object as JSON (default {})
  -f, --file FILE       read the params from a JSON file instead (keeps them off the command line)
${NODE_FLAGS_HELP}

Prints the method's result as JSON. Errors (unknown method, invalid params, a method disabled by
rpc.allowedMethods, node not running) go to stderr with exit code 2. Params with secrets (e.g.
generator_updateStatus's password) belong in --file, not on the command line.

Examples:
  basalt endpoint:invoke system_getNodeInfo --pretty
  basalt endpoint:invoke chain_getBlockByHeight '{"height":2}'
  basalt endpoint:invoke generator_setStatus '{"address":"lskn5q4zm4efod2f4artabjrc3nyc5zmeuuf646qq","height":0,"maxHeightGenerated":0,"maxHeightPrevoted":0}'
  basalt endpoint:invoke token_getBalances --file ./params.json --url http://127.0.0.1:7887
`;

export const endpointInvokeCommand: CliCommand = {
  name: 'endpoint:invoke',
  summary: 'Call an RPC method of the node and print its result',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, { ...NODE_FLAGS, file: { type: 'string', short: 'f' } }, 2);
    const [method, paramsText] = positionals;
    if (method === undefined) throw new UsageError('METHOD is required.');
    if (values.file !== undefined && paramsText !== undefined)
      throw new UsageError('Give the params either as PARAMS_JSON or with --file, not both.');
    let text = paramsText;
    if (values.file !== undefined) {
      if (!existsSync(values.file)) throw new Error(`${values.file} does not exist.`);
      text = readFileSync(values.file, 'utf8');
    }
    let params: object = {};
    if (text !== undefined) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        // The text itself is not repeated: it may hold a secret.
        throw new UsageError('The params are not valid JSON.');
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError('The params must be a JSON object.');
      params = parsed;
    }
    const result = await withNode(nodeConnection(values), (client) => client.invoke(method, params));
    printJson(io.stdout, result, values.pretty === true);
    return EXIT_OK;
  },
};
