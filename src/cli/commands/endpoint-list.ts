import { EXIT_OK, UsageError, type CliCommand } from '../command.js';
import { NODE_FLAGS, NODE_FLAGS_HELP, parseFlags } from '../support/args.js';
import { printJson } from '../support/json-output.js';
import { nodeConnection } from '../support/node-command.js';
import { withNode } from '../support/node-client.js';

const HELP = `List the RPC methods a running node serves (lisk-core endpoint:list).

Usage: basalt endpoint:list [PATTERN] [--module NAME] [--info] [--data-path DIR] [--url URL] [--pretty]

  PATTERN               only methods whose name (after the namespace) matches this regular
                        expression, case-insensitive
  -m, --module NAME     only this namespace (module or engine: chain, generator, token, ...)
  -i, --info            print {name, request, response} objects: the schemas modules publish in
                        system_getMetadata (engine methods have none)
${NODE_FLAGS_HELP}

Unlike Lisk (module endpoints only), every registered method is listed, engine ones included,
from app_getRegisteredEndpoints.

Examples:
  basalt endpoint:list
  basalt endpoint:list --module generator
  basalt endpoint:list getBalance --module token --info --pretty
`;

interface MetadataModule {
  name: string;
  endpoints: { name: string; request?: unknown; response?: unknown }[];
}

export const endpointListCommand: CliCommand = {
  name: 'endpoint:list',
  summary: 'List the RPC methods of the node',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseFlags(
      argv,
      { ...NODE_FLAGS, module: { type: 'string', short: 'm' }, info: { type: 'boolean', short: 'i' } },
      1,
    );
    let pattern: RegExp | undefined;
    if (positionals[0] !== undefined) {
      try {
        pattern = new RegExp(positionals[0], 'i');
      } catch {
        throw new UsageError('PATTERN is not a valid regular expression.');
      }
    }
    const output = await withNode(nodeConnection(values), async (client) => {
      const names = (await client.invoke<string[]>('app_getRegisteredEndpoints')).filter((name) => {
        const separator = name.indexOf('_');
        const namespace = name.slice(0, separator);
        if (values.module !== undefined && namespace !== values.module) return false;
        return pattern === undefined || pattern.test(name.slice(separator + 1));
      });
      if (values.info !== true) return names;
      const { modules } = await client.invoke<{ modules: MetadataModule[] }>('system_getMetadata');
      const schemas = new Map<string, { request?: unknown; response?: unknown }>();
      for (const module of modules) for (const endpoint of module.endpoints) schemas.set(`${module.name}_${endpoint.name}`, endpoint);
      return names.map((name) => {
        const known = schemas.get(name);
        return {
          name,
          ...(known?.request !== undefined ? { request: known.request } : {}),
          ...(known?.response !== undefined ? { response: known.response } : {}),
        };
      });
    });
    printJson(io.stdout, output, values.pretty === true);
    return EXIT_OK;
  },
};
