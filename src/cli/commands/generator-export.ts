import { EXIT_OK, type CliCommand } from '../command.js';
import { NODE_FLAGS, NODE_FLAGS_HELP, parseFlags } from '../support/args.js';
import type { GeneratorStatusResponse } from '../support/generator-rpc.js';
import { resolveOutputFile, writePrivateJsonFile } from '../support/json-output.js';
import { fetchExportedKeys } from '../support/keys-file.js';
import { nodeConnection } from '../support/node-command.js';
import { withNode } from '../support/node-client.js';

const HELP = `Export the node's generator keys and status to a file (lisk-core generator:export).

Usage: basalt generator:export [--output FILE] [--data-path DIR] [--url URL]

  -o, --output FILE     default ./generator_info.json (mode 0600); a path without an extension is
                        a directory that receives generator_info.json
${NODE_FLAGS_HELP}

Writes {"keys":[{address, encrypted} | {address, plain}], "generatorInfo":[{address, height,
maxHeightGenerated, maxHeightPrevoted}]}. Plain keys are written IN CLEAR: keep the file private.
generator:import restores the status on another node (keys:import the keys).
Needs "generator" in the node's rpc.allowedMethods.

Examples:
  basalt generator:export --output ./backup/generator_info.json
`;

export const generatorExportCommand: CliCommand = {
  name: 'generator:export',
  summary: 'Write the generator keys and status of the node to a file',
  help: HELP,
  async run(argv, io) {
    const { values } = parseFlags(argv, { ...NODE_FLAGS, output: { type: 'string', short: 'o' } });
    const path = resolveOutputFile(values.output ?? './generator_info.json', 'generator_info.json');
    const { keys, status } = await withNode(nodeConnection(values), async (client) => ({
      keys: await fetchExportedKeys(client),
      status: await client.invoke<GeneratorStatusResponse>('generator_getStatus'),
    }));
    writePrivateJsonFile(path, {
      keys,
      generatorInfo: status.status.map(({ address, height, maxHeightGenerated, maxHeightPrevoted }) => ({
        address,
        height,
        maxHeightGenerated,
        maxHeightPrevoted,
      })),
    });
    io.stdout.write(`Generator info is exported to ${path}\n`);
    return EXIT_OK;
  },
};
