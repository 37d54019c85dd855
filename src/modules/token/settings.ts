/**
 * The values a token module instance learns at `init`: its config and the chain's own ID. The
 * method, commands and endpoints hold one shared TokenSettings, because lisk-sdk modules are
 * built before their config is known and other modules keep references to `token.method`.
 */
import type { TokenModuleConfig } from './config.js';
import { InvariantError } from '../../errors.js';

export class TokenSettings {
  private values: { config: TokenModuleConfig; ownChainID: Buffer } | undefined;

  init(config: TokenModuleConfig, ownChainID: Buffer): void {
    this.values = { config, ownChainID: Buffer.from(ownChainID) };
  }

  get config(): TokenModuleConfig {
    return this.initialized().config;
  }

  get ownChainID(): Buffer {
    return this.initialized().ownChainID;
  }

  private initialized(): { config: TokenModuleConfig; ownChainID: Buffer } {
    if (this.values === undefined) throw new InvariantError('token: module used before init()');
    return this.values;
  }
}
