import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { validationErrors } from '../../codec/index.js';
import { expandHome } from '../../config/config-paths.js';
import { EXIT_OK, UsageError, type CliCommand } from '../command.js';
import { NODE_FLAGS, NODE_FLAGS_HELP, parseFlags } from '../support/args.js';
import { nodeConnection } from '../support/node-command.js';
import { withNode } from '../support/node-client.js';

const HELP = `Restore the generator status from a generator:export file (lisk-core generator:import).

Usage: basalt generator:import --file-path FILE [--data-path DIR] [--url URL]

  -f, --file-path FILE  a generator_info.json
${NODE_FLAGS_HELP}

Calls generator_setStatus for each "generatorInfo" entry; each validator's keys must already be
on the node (keys:import). As in Lisk, the file's "keys" are not imported. Prints nothing on
success. Needs "generator" in the node's rpc.allowedMethods.

Examples:
  basalt keys:import --file-path ./generator_info.json
  basalt generator:import --file-path ./generator_info.json
`;

const height = { type: 'integer', minimum: 0, maximum: 0xffff_ffff } as const;
const fileSchema = {
  type: 'object',
  required: ['generatorInfo'],
  properties: {
    generatorInfo: {
      type: 'array',
      items: {
        type: 'object',
        required: ['address', 'height', 'maxHeightGenerated', 'maxHeightPrevoted'],
        properties: { address: { type: 'string', format: 'lisk32' }, height, maxHeightGenerated: height, maxHeightPrevoted: height },
      },
    },
  },
} as const;

interface InfoEntry {
  address: string;
  height: number;
  maxHeightGenerated: number;
  maxHeightPrevoted: number;
}

export const generatorImportCommand: CliCommand = {
  name: 'generator:import',
  summary: 'Set the generator status of validators from a file (generator_setStatus)',
  help: HELP,
  async run(argv) {
    const { values } = parseFlags(argv, { ...NODE_FLAGS, 'file-path': { type: 'string', short: 'f' } });
    if (values['file-path'] === undefined) throw new UsageError('--file-path is required.');
    const path = resolve(expandHome(values['file-path']));
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(path, 'utf8'));
    } catch {
      throw new Error(`${path} is not a readable JSON file.`);
    }
    const problems = validationErrors(fileSchema, json);
    if (problems.length > 0) throw new Error(`${path} is not a generator info file (${problems.slice(0, 3).join('; ')}).`);
    const entries = (json as { generatorInfo: InfoEntry[] }).generatorInfo;
    await withNode(nodeConnection(values), async (client) => {
      for (const { address, height: h, maxHeightGenerated, maxHeightPrevoted } of entries) {
        await client.invoke('generator_setStatus', { address, height: h, maxHeightGenerated, maxHeightPrevoted });
      }
    });
    return EXIT_OK;
  },
};
