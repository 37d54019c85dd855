import { readFileSync } from 'node:fs';
import { dataDirConfigPaths } from '../../config/data-dir-config.js';
import { mergeConfigLayers } from '../../config/merge-config.js';
import { EXIT_OK, type CliCommand } from '../command.js';
import { parseFlags } from '../support/args.js';
import { resolveDataPath } from '../support/data-path.js';
import { printJson } from '../support/json-output.js';

const HELP = `Print the config a data directory keeps (lisk-core config:show).

Usage: basalt config:show [--data-path DIR] [--config FILE] [--pretty]

  -d, --data-path DIR   the node's data path (default ~/.basalt/devnet)           [LISK_DATA_PATH]
  -c, --config FILE     a config merged over it (objects merge, arrays and values replace), as
                        basalt start --config would
      --pretty          indent the JSON output

Reads <data path>/config/config.json (written by basalt start); no node needs to run.

Examples:
  basalt config:show --pretty
  basalt config:show --config ./custom-config.json --data-path ./data
`;

function readJsonObject(path: string, what: string): Record<string, unknown> {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw new Error(what);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new Error(what);
  return json as Record<string, unknown>;
}

export const configShowCommand: CliCommand = {
  name: 'config:show',
  summary: 'Print the config kept in a data directory',
  help: HELP,
  async run(argv, io) {
    const { values } = parseFlags(argv, {
      'data-path': { type: 'string', short: 'd' },
      config: { type: 'string', short: 'c' },
      pretty: { type: 'boolean' },
    });
    const dataPath = resolveDataPath(values['data-path']);
    const stored = readJsonObject(dataDirConfigPaths(dataPath).configFile, `Folder in ${dataPath} does not contain valid config`);
    const custom =
      values.config === undefined ? undefined : readJsonObject(values.config, `${values.config} is not a readable JSON object.`);
    const config = mergeConfigLayers(stored, custom, { system: { dataPath } });
    printJson(io.stdout, config, values.pretty === true);
    return EXIT_OK;
  },
};
