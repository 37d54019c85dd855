import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { defaultNodeConfig } from '../../config/config-defaults.js';
import { ConfigError } from '../../config/config-error.js';
import { parseChainConfig } from '../../config/lisk-config.js';
import { mergeConfigLayers } from '../../config/merge-config.js';
import { loadNetworkPreset } from '../../config/presets.js';
import { createGenesisBlock } from '../../genesis/create-genesis-block.js';
import { readGenesisAssetsFile } from '../../genesis/genesis-assets-file.js';
import { EXIT_OK, UsageError, type CliCommand, type CliIO } from '../command.js';
import { parseFlagsOnly } from '../support/args.js';

const HELP = `Create a genesis block from module assets (as lisk-commander's genesis-block:create).

Usage: basalt genesis:create --assets FILE --output FILE (--config FILE | --network NAME)
                             [--timestamp N] [--height N] [--previous-block-id HEX]

  --assets FILE             genesis assets: {"assets":[{"module","data","schema"}]}, data in codec
                            JSON (uint64 values as decimal strings; small ones may be numbers)
  --config FILE             a Lisk-format config.json: its genesis section (chainID, blockTime,
                            bftBatchSize) and module configs drive the genesis execution
  --network NAME            a preset (devnet, devnet-101, devnet-sidechain, testnet, mainnet)
                            under --config
  --output FILE             where the binary genesis block is written
  --timestamp N             Unix seconds (default: now)
  --height N                genesis height (default 0)
  --previous-block-id HEX   32 bytes (default: zeros)

Prints {"id","height","timestamp","assetRoot","stateRoot","eventRoot","validatorsHash","output"}.

Example:
  basalt genesis:create --assets config/devnet/genesis_assets.json \\
    --config config/devnet/config.json --timestamp 1735689600 --output /tmp/genesis_block.blob
`;

export const genesisCreateCommand: CliCommand = {
  name: 'genesis:create',
  summary: 'Create a genesis block from a genesis assets file and a config',
  help: HELP,
  async run(argv: readonly string[], io: CliIO): Promise<number> {
    const values = parseFlagsOnly(argv, CREATE_FLAGS);
    if (!values.assets) throw new UsageError('--assets is required.');
    if (!values.output) throw new UsageError('--output is required.');
    if (!values.config && !values.network) throw new UsageError('--config or --network is required.');
    const timestamp = integerFlag('timestamp', values.timestamp);
    const height = integerFlag('height', values.height);
    const previousBlockID = values['previous-block-id'] === undefined ? undefined : hexFlag(values['previous-block-id']);

    const chainConfig = readChainConfig(values.config, values.network);
    const { assets } = readGenesisAssetsFile(resolve(values.assets));
    const { block } = await createGenesisBlock({
      genesisConfig: chainConfig.genesis,
      moduleConfigs: chainConfig.modules,
      assets,
      timestamp,
      height,
      previousBlockID,
    });

    const output = resolve(values.output);
    mkdirSync(dirname(output), { recursive: true });
    writeFileSync(output, block.bytes);
    const { header } = block;
    io.stdout.write(
      `${JSON.stringify({
        id: header.id.toString('hex'),
        height: header.height,
        timestamp: header.timestamp,
        assetRoot: header.assetRoot.toString('hex'),
        stateRoot: header.stateRoot.toString('hex'),
        eventRoot: header.eventRoot.toString('hex'),
        validatorsHash: header.validatorsHash.toString('hex'),
        output,
      })}\n`,
    );
    return EXIT_OK;
  },
};

const CREATE_FLAGS = {
  assets: { type: 'string' },
  config: { type: 'string' },
  network: { type: 'string' },
  output: { type: 'string' },
  timestamp: { type: 'string' },
  height: { type: 'string' },
  'previous-block-id': { type: 'string' },
} as const;

function integerFlag(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) > 0xffff_ffff) throw new UsageError(`--${name} must be an integer from 0 to 4294967295.`);
  return Number(value);
}

function hexFlag(value: string): Buffer {
  if (!/^[0-9a-fA-F]{64}$/.test(value)) throw new UsageError('--previous-block-id must be 32 bytes in hex (64 characters).');
  return Buffer.from(value, 'hex');
}

/**
 * The chain settings genesis execution needs: Basalt's defaults, the preset if named, the config
 * file over them (lisk-commander merges the custom config over the network's in the same way).
 * The genesis block source is irrelevant here: the block is what is being made.
 */
function readChainConfig(configFile: string | undefined, network: string | undefined) {
  let file: Record<string, unknown> | undefined;
  if (configFile !== undefined) {
    try {
      file = JSON.parse(readFileSync(configFile, 'utf8')) as Record<string, unknown>;
    } catch (error) {
      throw new ConfigError(`Cannot read config ${configFile}: ${(error as Error).message}`);
    }
  }
  const preset = network === undefined ? undefined : loadNetworkPreset(network).config;
  const merged = mergeConfigLayers(defaultNodeConfig(), preset, file);
  return parseChainConfig(merged, configFile === undefined ? process.cwd() : dirname(resolve(configFile)));
}
