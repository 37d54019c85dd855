/**
 * The `start` flags that set config values (Lisk Core v4's `start` flags), as one config layer on
 * top of the config file. They apply to this run only and are not stored in the data directory.
 */
import { ConfigError } from './config-error.js';
import { cloneConfigValue } from './merge-config.js';
import type { PartialNodeConfig, PeerAddress, RpcModeName } from './node-config.js';

export interface ConfigFlags {
  /** `--port`: network.port (P2P). */
  readonly port?: number;
  /** `--api-port`: rpc.port. */
  readonly apiPort?: number;
  /** `--api-host`: rpc.host. */
  readonly apiHost?: string;
  /** `--api-ipc/--api-ws/--api-http`: when any is given, rpc.modes is exactly that set. */
  readonly apiModes?: readonly RpcModeName[];
  /** `--log`: system.logLevel. */
  readonly logLevel?: string;
  /** `--seed-peers ip:port,…`: network.seedPeers. */
  readonly seedPeers?: string;
  /** Any other value set from the command line, merged last. */
  readonly overrides?: PartialNodeConfig;
}

/** lisk-commander's wording for a bad --seed-peers value. */
const BAD_SEED_PEERS = 'Invalid seed-peers, ip or port is invalid or not specified.';

/** Parses `ip:port,ip:port` (hosts may be names; the schema checks the formats afterwards). */
export function parseSeedPeers(value: string): PeerAddress[] {
  return value.split(',').map((entry) => {
    const separator = entry.lastIndexOf(':');
    const ip = entry.slice(0, separator).trim();
    const port = Number(entry.slice(separator + 1).trim());
    if (separator <= 0 || ip === '' || !Number.isInteger(port)) throw new ConfigError(BAD_SEED_PEERS);
    return { ip, port };
  });
}

/** The flags as a partial config (undefined flags are left out). */
export function flagsLayer(flags: ConfigFlags): Record<string, unknown> {
  const layer: Record<string, Record<string, unknown>> = {
    ...(cloneConfigValue(flags.overrides ?? {}) as Record<string, Record<string, unknown>>),
  };
  const section = (name: string): Record<string, unknown> => (layer[name] ??= {});
  if (flags.port !== undefined) section('network').port = flags.port;
  if (flags.seedPeers !== undefined) section('network').seedPeers = parseSeedPeers(flags.seedPeers);
  if (flags.apiPort !== undefined) section('rpc').port = flags.apiPort;
  if (flags.apiHost !== undefined) section('rpc').host = flags.apiHost;
  if (flags.apiModes !== undefined && flags.apiModes.length > 0) section('rpc').modes = [...flags.apiModes];
  if (flags.logLevel !== undefined) section('system').logLevel = flags.logLevel;
  return layer;
}
