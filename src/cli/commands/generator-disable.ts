import { isValidLisk32 } from '../../crypto/index.js';
import { EXIT_OK, UsageError, type CliCommand } from '../command.js';
import { NODE_FLAGS, NODE_FLAGS_HELP, parseFlags } from '../support/args.js';
import { updateGeneratorStatus } from '../support/generator-rpc.js';
import { nodeConnection } from '../support/node-command.js';
import { withNode } from '../support/node-client.js';
import type { PromptIO } from '../support/prompt.js';
import { SECRETS_RISK_NOTE } from '../support/secrets.js';

const HELP = `Disable block generation for a validator (lisk-core generator:disable).

Usage: basalt generator:disable ADDRESS [--password TEXT]

  ADDRESS               the validator's lisk32 address
  -w, --password TEXT   the password of its stored keys (RISK, see below)   [BASALT_PASSWORD]
${NODE_FLAGS_HELP}

Calls generator_updateStatus with enable false. As in Lisk, the password must decrypt the stored
keys: only their holder may switch generation. The stored status is kept for generator:enable
--use-status-value. Needs "generator" in the node's rpc.allowedMethods.

${SECRETS_RISK_NOTE}

Examples:
  basalt generator:disable lskn5q4zm4efod2f4artabjrc3nyc5zmeuuf646qq
`;

export const generatorDisableCommand: CliCommand = {
  name: 'generator:disable',
  summary: 'Disable block generation for a validator (generator_updateStatus)',
  help: HELP,
  async run(argv, io: PromptIO) {
    const { values, positionals } = parseFlags(argv, { ...NODE_FLAGS, password: { type: 'string', short: 'w' } }, 1);
    const address = positionals[0];
    if (address === undefined) throw new UsageError('ADDRESS is required.');
    if (!isValidLisk32(address)) throw new UsageError('ADDRESS must be a lisk32 address.');
    await withNode(nodeConnection(values), (client) =>
      updateGeneratorStatus(client, io, values.password, address, false, { height: 0, maxHeightGenerated: 0, maxHeightPrevoted: 0 }),
    );
    io.stdout.write(`Disabled block generation for ${address}\n`);
    return EXIT_OK;
  },
};
