import { prepareNodeConfig } from '../../config/resolve-node-config.js';
import type { MetricsConfig, PartialNodeConfig, RpcModeName } from '../../config/node-config.js';
import { chooseLogFormat, createLogger, LOG_FORMATS, type LogLevel } from '../../logging.js';
import { checkModuleConfigs } from '../../runtime/module-config-check.js';
import { settleArrayBufferDetaching } from '../../rpc/array-buffer-detaching.js';
import { runNodeUntilSignal } from '../../runtime/start-node.js';
import { EXIT_OK, UsageError, type CliCommand, type CliIO } from '../command.js';
import { parseFlagsOnly } from '../support/args.js';

const HELP = `Start a Basalt node: it opens (or creates) its data directory, produces blocks with the
validator keys it holds and serves JSON-RPC over HTTP (/rpc), WebSocket (/rpc-ws) and IPC.

Usage: basalt start [flags]

  -n, --network NAME     devnet (default), devnet-101, devnet-sidechain,
                         testnet, mainnet                                     [LISK_NETWORK]
  -c, --config FILE      a Lisk-format config.json merged over the preset      [LISK_CONFIG_FILE]
      --genesis FILE     the genesis block (needed for testnet and mainnet)
  -d, --data-path DIR    default ~/.basalt/<network>                            [LISK_DATA_PATH]
      --overwrite-config replace the config and genesis stored in the data directory
  -p, --port N           P2P port (network.port)                               [LISK_PORT]
      --api-port N       RPC port (rpc.port, default 7887)                     [LISK_API_PORT]
      --api-host HOST    RPC host (rpc.host, default 127.0.0.1)                [LISK_API_HOST]
      --api-ipc, --api-ws, --api-http   serve exactly these transports (rpc.modes)
  -l, --log LEVEL        trace, debug, info, warn, error, fatal, none          [LISK_LOG_LEVEL]
      --log-format F     pretty (human lines) or json (one JSON record per line);
                         default: pretty on a terminal, json otherwise
      --seed-peers LIST  ip:port,ip:port                                       [LISK_SEED_PEERS]
      --enable-metrics   serve Prometheus metrics on GET /metrics (metrics.enabled)
      --metrics-port N   metrics port (metrics.port, default 9464)
      --metrics-host HOST  metrics host (metrics.host, default 127.0.0.1)
      --enable-chain-connector-plugin
                         run the chain connector (cross-chain update relayer) with the
                         settings of the config's plugins.chainConnector section

Logs go to stdout: human lines on a terminal, JSON lines when stdout is a file or a pipe.
Ctrl-C (SIGINT) or SIGTERM stops the node cleanly; a node that was killed reopens its store
consistently on the next start.

Examples:
  basalt start                                  # a fresh devnet, blocks every 3 s
  basalt start --data-path /tmp/node --api-port 7900
  basalt start --network mainnet --genesis ./genesis_block.blob --config ./config.json
`;

const START_FLAGS = {
  network: { type: 'string', short: 'n' },
  config: { type: 'string', short: 'c' },
  genesis: { type: 'string' },
  'data-path': { type: 'string', short: 'd' },
  'overwrite-config': { type: 'boolean' },
  port: { type: 'string', short: 'p' },
  'api-port': { type: 'string' },
  'api-host': { type: 'string' },
  'api-ipc': { type: 'boolean' },
  'api-ws': { type: 'boolean' },
  'api-http': { type: 'boolean' },
  log: { type: 'string', short: 'l' },
  'log-format': { type: 'string' },
  'seed-peers': { type: 'string' },
  'enable-metrics': { type: 'boolean' },
  'metrics-port': { type: 'string' },
  'metrics-host': { type: 'string' },
  'enable-chain-connector-plugin': { type: 'boolean' },
} as const;

function integerFlag(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) throw new UsageError(`--${name} must be a whole number, got "${value}".`);
  return number;
}

/** The `metrics` section the metrics flags set (a flag left out leaves the config's value). */
function metricsOverrides(enabled: boolean | undefined, port: number | undefined, host: string | undefined): PartialNodeConfig | undefined {
  const metrics: Partial<MetricsConfig> = {};
  if (enabled === true) metrics.enabled = true;
  if (port !== undefined) metrics.port = port;
  if (host !== undefined) metrics.host = host;
  return Object.keys(metrics).length === 0 ? undefined : { metrics };
}

/**
 * Lisk Core's `--enable-chain-connector-plugin`: an empty `plugins.chainConnector` entry merged
 * over the config's, which turns the built-in relayer on with the settings the config holds.
 */
function withChainConnector(overrides: PartialNodeConfig | undefined, enabled: boolean): PartialNodeConfig | undefined {
  if (!enabled) return overrides;
  return { ...overrides, plugins: { chainConnector: {} } };
}

export const startCommand: CliCommand = {
  name: 'start',
  summary: 'Start a node (devnet by default) with block production and the RPC server',
  help: HELP,
  async run(argv: readonly string[], io: CliIO): Promise<number> {
    // A runtime setting of the node process, like a V8 flag: first thing, before the start-up
    // code gets optimised (rpc/array-buffer-detaching.ts says why).
    settleArrayBufferDetaching();
    const values = parseFlagsOnly(argv, START_FLAGS);
    const logFormat = values['log-format'];
    if (logFormat !== undefined && !(LOG_FORMATS as readonly string[]).includes(logFormat)) {
      throw new UsageError(`--log-format must be one of ${LOG_FORMATS.join(', ')}, got "${logFormat}".`);
    }
    const env = process.env;
    const apiModes = (['ipc', 'ws', 'http'] as RpcModeName[]).filter((mode) => values[`api-${mode}`] === true);
    const plan = prepareNodeConfig({
      network: values.network ?? env.LISK_NETWORK,
      configFile: values.config ?? env.LISK_CONFIG_FILE,
      genesisFile: values.genesis,
      dataPath: values['data-path'] ?? env.LISK_DATA_PATH,
      overwriteConfig: values['overwrite-config'] === true,
      port: integerFlag('port', values.port ?? env.LISK_PORT),
      apiPort: integerFlag('api-port', values['api-port'] ?? env.LISK_API_PORT),
      apiHost: values['api-host'] ?? env.LISK_API_HOST,
      apiModes: apiModes.length > 0 ? apiModes : undefined,
      logLevel: values.log ?? env.LISK_LOG_LEVEL,
      seedPeers: values['seed-peers'] ?? env.LISK_SEED_PEERS,
      overrides: withChainConnector(
        metricsOverrides(values['enable-metrics'], integerFlag('metrics-port', values['metrics-port']), values['metrics-host']),
        values['enable-chain-connector-plugin'] === true,
      ),
      checkChainConfig: checkModuleConfigs,
    });
    const logger = createLogger(plan.config.system.logLevel as LogLevel, io.stdout, chooseLogFormat(logFormat, io.stdout));
    for (const warning of plan.warnings) logger.warn({}, warning);
    await runNodeUntilSignal(plan, { logger });
    return EXIT_OK;
  },
};
