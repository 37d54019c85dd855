import { DEFAULT_HASH_ONION_COUNT, DEFAULT_HASH_ONION_DISTANCE, generateHashOnion, generateHashOnionSeed } from '../../crypto/index.js';
import { EXIT_OK, UsageError, type CliCommand } from '../command.js';
import { parseFlags } from '../support/args.js';
import { writeOrPrintJson } from '../support/json-output.js';

const HELP = `Create a hash onion for a validator's seed reveals (lisk-core hash-onion).

Usage: basalt hash-onion [--count N] [--distance N] [--output FILE] [--pretty]

  -c, --count N         number of hashes (default 1000000)
  -d, --distance N      distance between stored checkpoints (default 1000); count must be a
                        multiple of it
  -o, --output FILE     write the onion to a file (mode 0600) instead of stdout; a path without an
                        extension is a directory that receives hash-onion.json
      --pretty          indent the JSON output

Prints {"count","distance","hashes":[...]} with hashes[0] the first value to reveal and the last
one the secret seed: keep it private. Pass it to the node with
  basalt endpoint:invoke random_setHashOnion --file ./onion-params.json
where the file holds {"address": "<lisk32>", "count", "distance", "hashes"}.
Unlike other commands, -d is --distance here (as in Lisk); this command needs no node.

Examples:
  basalt hash-onion --count 1000000 --distance 2000 --pretty
  basalt hash-onion --count 1000000 --distance 2000 --output ~/my_onion.json
`;

function positiveInteger(value: string | undefined, fallback: number, message: string): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) <= 0 || !Number.isSafeInteger(Number(value))) throw new UsageError(message);
  return Number(value);
}

export const hashOnionCommand: CliCommand = {
  name: 'hash-onion',
  summary: 'Create a hash onion (seed reveals) for a validator',
  help: HELP,
  async run(argv, io) {
    const { values } = parseFlags(argv, {
      count: { type: 'string', short: 'c' },
      distance: { type: 'string', short: 'd' },
      output: { type: 'string', short: 'o' },
      pretty: { type: 'boolean' },
    });
    const distance = positiveInteger(values.distance, DEFAULT_HASH_ONION_DISTANCE, 'Distance flag must be an integer and greater than 0.');
    const count = positiveInteger(values.count, DEFAULT_HASH_ONION_COUNT, 'Count flag must be an integer and greater than 0.');
    if (count < distance) throw new UsageError('Invalid count or distance. Count must be greater than distance');
    if (count % distance !== 0) throw new UsageError('Invalid count. Count must be multiple of distance');
    const hashes = generateHashOnion(generateHashOnionSeed(), count, distance).map((hash) => hash.toString('hex'));
    const onion = { count, distance, hashes };
    writeOrPrintJson(io.stdout, values.output, 'hash-onion.json', onion, values.pretty === true);
    return EXIT_OK;
  },
};
