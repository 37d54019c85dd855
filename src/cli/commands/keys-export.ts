import { EXIT_OK, UsageError, type CliCommand } from '../command.js';
import { NODE_FLAGS, NODE_FLAGS_HELP, parseFlags } from '../support/args.js';
import { writeOrPrintJson } from '../support/json-output.js';
import { fetchExportedKeys } from '../support/keys-file.js';
import { nodeConnection } from '../support/node-command.js';
import { withNode } from '../support/node-client.js';

const HELP = `Export the keys a running node holds into a key file (lisk-core keys:export).

Usage: basalt keys:export --output FILE [--data-path DIR] [--url URL]

  -o, --output FILE     the file (mode 0600); a path without an extension is a directory that
                        receives keys.json; "-" prints on stdout
${NODE_FLAGS_HELP}

Writes {"keys":[{"address","encrypted"} | {"address","plain"}]} from generator_getAllKeys.
Encrypted keys come back without "mac" (the node does not store it); plain keys are only the four
hex keys, IN CLEAR: keep the file private. keys:import reads it back.
Needs "generator" in the node's rpc.allowedMethods.

Examples:
  basalt keys:export --output ./backup/keys.json
`;

export const keysExportCommand: CliCommand = {
  name: 'keys:export',
  summary: 'Write the keys the node holds (generator_getAllKeys) to a key file',
  help: HELP,
  async run(argv, io) {
    const { values } = parseFlags(argv, { ...NODE_FLAGS, output: { type: 'string', short: 'o' } });
    if (values.output === undefined) throw new UsageError('--output is required (use --output - to print on stdout).');
    const keys = await withNode(nodeConnection(values), fetchExportedKeys);
    writeOrPrintJson(io.stdout, values.output === '-' ? undefined : values.output, 'keys.json', { keys }, values.pretty === true);
    return EXIT_OK;
  },
};
