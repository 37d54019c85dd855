import { isValidLisk32 } from '../../crypto/index.js';
import { EXIT_OK, UsageError, type CliCommand } from '../command.js';
import { integerFlag, NODE_FLAGS, NODE_FLAGS_HELP, parseFlags } from '../support/args.js';
import { updateGeneratorStatus, type GeneratorHeights, type GeneratorStatusResponse } from '../support/generator-rpc.js';
import { nodeConnection } from '../support/node-command.js';
import { withNode } from '../support/node-client.js';
import type { PromptIO } from '../support/prompt.js';
import { SECRETS_RISK_NOTE } from '../support/secrets.js';

const HELP = `Enable block generation for a validator whose keys the node holds (lisk-core generator:enable).

Usage: basalt generator:enable ADDRESS (--use-status-value |
         --height N --max-height-generated N --max-height-prevoted N) [--password TEXT]

  ADDRESS                    the validator's lisk32 address
      --use-status-value     resume from the status the node stores (generator:status)
      --height N             the height of the validator's last block
      --max-height-generated N   and that block's maxHeightGenerated
      --max-height-prevoted N    and maxHeightPrevoted
  -w, --password TEXT        decrypts the stored keys (RISK, see below)        [BASALT_PASSWORD]
${NODE_FLAGS_HELP}

Calls generator_updateStatus. The node refuses when it is not synced, or when the values differ
from the status it stores (a validator that resumed from older values could sign two
contradicting blocks and be punished). A validator that never generated starts from 0 0 0, or
from values set with generator_setStatus. The password is asked even for plain keys (Lisk does).
Needs "generator" in the node's rpc.allowedMethods.

${SECRETS_RISK_NOTE}

Examples:
  basalt generator:enable lskn5q4zm4efod2f4artabjrc3nyc5zmeuuf646qq --use-status-value
  basalt generator:enable lskn5q4zm4efod2f4artabjrc3nyc5zmeuuf646qq --height 100 --max-height-generated 30 --max-height-prevoted 10
`;

export const generatorEnableCommand: CliCommand = {
  name: 'generator:enable',
  summary: 'Enable block generation for a validator (generator_updateStatus)',
  help: HELP,
  async run(argv, io: PromptIO) {
    const { values, positionals } = parseFlags(
      argv,
      {
        ...NODE_FLAGS,
        height: { type: 'string' },
        'max-height-generated': { type: 'string' },
        'max-height-prevoted': { type: 'string' },
        'use-status-value': { type: 'boolean' },
        password: { type: 'string', short: 'w' },
      },
      1,
    );
    const address = positionals[0];
    if (address === undefined) throw new UsageError('ADDRESS is required.');
    if (!isValidLisk32(address)) throw new UsageError('ADDRESS must be a lisk32 address.');
    const numbers = {
      height: integerFlag('height', values.height, 0, 0xffff_ffff),
      maxHeightGenerated: integerFlag('max-height-generated', values['max-height-generated'], 0, 0xffff_ffff),
      maxHeightPrevoted: integerFlag('max-height-prevoted', values['max-height-prevoted'], 0, 0xffff_ffff),
    };
    const given = Object.values(numbers).filter((value) => value !== undefined).length;
    const useStatus = values['use-status-value'] === true;
    if (useStatus && given > 0) {
      throw new UsageError('--use-status-value cannot be used with --height, --max-height-generated or --max-height-prevoted.');
    }
    if (!useStatus && given < 3) {
      throw new UsageError('All of the following must be provided: --height, --max-height-generated, --max-height-prevoted');
    }

    await withNode(nodeConnection(values), async (client) => {
      let status = numbers as GeneratorHeights;
      if (useStatus) {
        const { status: list } = await client.invoke<GeneratorStatusResponse>('generator_getStatus');
        const found = list.find((entry) => entry.address === address);
        if (found === undefined) throw new Error(`Status for ${address} not found in the node.`);
        status = found;
      }
      await updateGeneratorStatus(client, io, values.password, address, true, status);
    });
    io.stdout.write(`Enabled block generation for ${address}\n`);
    return EXIT_OK;
  },
};
