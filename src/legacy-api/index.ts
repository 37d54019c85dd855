/**
 * The legacy forging HTTP API for operators coming from Lisk Core 1.x–3.x
 * (docs/protocol/legacy-forging-api.md): reads their previous config, serves Core 2.x's forging
 * endpoints and switches block generation through the engine's Forger and GeneratorStore.
 */
import type { BlockHeader } from '../chain/block-header.js';
import type { LegacyApiConfig } from '../config/node-config.js';
import type { Logger } from '../logger.js';
import { ForgingService, ToggleError, type ForgerSwitch } from './forging-service.js';
import { LegacyConfigError, readLegacyConfig } from './legacy-config.js';
import { LegacyApiServer, type NodeStatusSource } from './server.js';
import { parseWhitelist } from './whitelist.js';
import type { GeneratorStore } from '../engine/generator/generator-store.js';
import type { HashOnionStore } from '../modules/random/hash-onion-store.js';
import type { StateReader } from '../state/state-view.js';
import { ForgerInfoFile } from './forger-info-file.js';

export { LegacyConfigError, parseLegacyConfig, readLegacyConfig } from './legacy-config.js';
export { ForgingService, ToggleError } from './forging-service.js';
export { LegacyApiServer } from './server.js';
export { parseWhitelist, allowedBy, normalizeAddress } from './whitelist.js';

export interface LegacyApiDependencies {
  readonly forger: ForgerSwitch;
  readonly store: Pick<GeneratorStore, 'getInfo' | 'setInfo'>;
  readonly chainID: Buffer;
  readonly isValidator: (address: Buffer) => boolean;
  readonly status: NodeStatusSource;
  /** The tip header, for Lisk Core 3.x's PATCH /api/forging sync check. */
  readonly tip?: () => BlockHeader | undefined;
  /** The data directory: forger_info.json lives there. */
  readonly dataPath: string;
  readonly hashOnions?: { readonly store: HashOnionStore; readonly state: () => StateReader };
  readonly logger: Logger;
}

export interface RunningLegacyApi {
  readonly port: number;
  /** Stops listening and writes forger_info.json; call after block generation has stopped. */
  stop(): void;
}

/** Reads the operator's config and starts listening; rejects with a clear error for a bad file or port. */
export async function startLegacyApi(config: LegacyApiConfig, deps: LegacyApiDependencies): Promise<RunningLegacyApi> {
  if (config.configFile === undefined) throw new LegacyConfigError('legacyApi.configFile is required when legacyApi.enabled is true.');
  const legacy = readLegacyConfig(config.configFile);
  const apiWhitelist = parseWhitelist(legacy.apiAccess.whiteList);
  const forgingWhitelist = parseWhitelist(legacy.forgingWhiteList);
  for (const entry of [...apiWhitelist.skipped, ...forgingWhitelist.skipped]) {
    deps.logger.warn({ entry }, 'Legacy API: whitelist entry is not an address or CIDR range; skipped');
  }
  const service = new ForgingService({
    delegates: legacy.delegates,
    forger: deps.forger,
    store: deps.store,
    // keys:create --chainid N uses the chain's network byte (0 mainnet, 1 testnet, 4 devnet).
    chainIndex: deps.chainID.readUInt8(0),
    isValidator: deps.isValidator,
    syncing: deps.status.syncing,
    ...(deps.tip !== undefined ? { tip: deps.tip } : {}),
    forgerInfo: new ForgerInfoFile(deps.dataPath),
    ...(deps.hashOnions !== undefined ? { hashOnions: deps.hashOnions } : {}),
    logger: deps.logger,
  });
  const server = new LegacyApiServer({
    host: config.host,
    port: config.port,
    service,
    status: deps.status,
    apiPublic: legacy.apiAccess.public,
    apiWhitelist,
    forgingWhitelist,
    trustedProxyHeader: config.trustedProxyHeader?.toLowerCase(),
    ...(config.rateLimit !== undefined ? { rateLimit: config.rateLimit } : {}),
    logger: deps.logger,
  });
  if (legacy.defaultPassword !== undefined) {
    // Forced forging in the old config (`force` with `defaultPassword`): a delegate that does not
    // load stops the start.
    try {
      await service.enableAll(legacy.defaultPassword);
    } catch (error) {
      if (error instanceof ToggleError) throw new LegacyConfigError(`${config.configFile}: ${error.message}`);
      throw error;
    }
    deps.logger.info({ delegates: legacy.delegates.length }, 'Legacy API: forging enabled for every configured delegate (forging.force)');
  }
  await server.start();
  deps.logger.info({ host: config.host, port: server.port, delegates: legacy.delegates.length }, 'Legacy forging API listening');
  return {
    port: server.port,
    stop: () => {
      server.stop();
      service.saveForgerInfo();
    },
  };
}
