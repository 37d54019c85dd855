/**
 * The chain connector's settings: the config's `plugins.chainConnector` section, with the names
 * and defaults of lisk-sdk v6.1.0
 * framework-plugins/lisk-framework-chain-connector-plugin/src/schemas.ts (configSchema), so a
 * Lisk Core config runs unchanged. The relayer key's password is never a setting (the config is
 * copied into the data directory and compared on restart): it comes from `chainConnector_authorize`,
 * as in lisk-sdk, or from the environment variable named by CHAIN_CONNECTOR_PASSWORD_ENV at start.
 */
import { ConfigError } from '../../config/config-error.js';
import { MAX_UINT64 } from '../../codec/index.js';
import type { PluginOptions } from '../plugin.js';

/** lisk-sdk MAX_CCM_SIZE: the default, and the largest, total size of the messages of one CCU. */
export const CCU_TOTAL_CCM_SIZE = 10_240;

export interface ChainConnectorConfig {
  readonly receivingChainID: Buffer;
  readonly receivingChainIPCPath?: string;
  readonly receivingChainWsURL?: string;
  /** A CCU is built once this many blocks passed since the last certified height. */
  readonly ccuFrequency: number;
  readonly encryptedPrivateKey: string;
  readonly ccuFee: bigint;
  /** Keep built CCUs (getSentCCUs) instead of posting them to the receiving chain. */
  readonly isSaveCCU: boolean;
  readonly maxCCUSize: number;
  /** How many sent CCUs are kept; -1 keeps all. */
  readonly ccuSaveLimit: number;
  readonly registrationHeight: number;
}

/** When set, the relayer key is decrypted with it at start instead of waiting for `chainConnector_authorize`. */
export const CHAIN_CONNECTOR_PASSWORD_ENV = 'BASALT_CHAIN_CONNECTOR_PASSWORD';

const KNOWN = new Set([
  'receivingChainID',
  'receivingChainIPCPath',
  'receivingChainWsURL',
  'ccuFrequency',
  'encryptedPrivateKey',
  'ccuFee',
  'isSaveCCU',
  'maxCCUSize',
  'ccuSaveLimit',
  'registrationHeight',
]);

/**
 * Reads and checks the section. Throws ConfigError naming the field at fault; never echoes the
 * encrypted key or the password.
 */
export function readChainConnectorConfig(options: PluginOptions, ownChainID: Buffer): ChainConnectorConfig {
  const key = (field: string) => `.plugins.chainConnector.${field}`;
  for (const name of Object.keys(options)) {
    if (name === 'password') {
      throw new ConfigError(
        `${key(name)}: a password is never kept in the config; set ${CHAIN_CONNECTOR_PASSWORD_ENV} or call chainConnector_authorize`,
      );
    }
    if (!KNOWN.has(name)) throw new ConfigError(`${key(name)}: unknown setting of the chain connector`);
  }
  const text = (field: string, required: boolean): string | undefined => {
    const value = options[field];
    if (value === undefined && !required) return undefined;
    if (typeof value !== 'string' || value === '') throw new ConfigError(`${key(field)}: must be a non-empty string`);
    return value;
  };
  const integer = (field: string, fallback: number, minimum: number, maximum = Number.MAX_SAFE_INTEGER): number => {
    const value = options[field] ?? fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < minimum || value > maximum) {
      throw new ConfigError(`${key(field)}: must be a whole number from ${minimum} to ${maximum}`);
    }
    return value;
  };

  const chainIDText = text('receivingChainID', true) as string;
  if (!/^[0-9a-f]{8}$/i.test(chainIDText)) throw new ConfigError(`${key('receivingChainID')}: must be 4 bytes in hex`);
  const receivingChainID = Buffer.from(chainIDText, 'hex');
  if (receivingChainID[0] !== ownChainID[0]) {
    throw new ConfigError(`${key('receivingChainID')}: Receiving Chain ID network does not match the sending chain network.`);
  }
  const feeText = options.ccuFee ?? '0';
  if (typeof feeText !== 'string' || !/^[0-9]+$/.test(feeText) || BigInt(feeText) > MAX_UINT64) {
    throw new ConfigError(`${key('ccuFee')}: must be a uint64 amount in beddows, as a string`);
  }
  const isSaveCCU = options.isSaveCCU ?? false;
  if (typeof isSaveCCU !== 'boolean') throw new ConfigError(`${key('isSaveCCU')}: must be true or false`);
  const receivingChainIPCPath = text('receivingChainIPCPath', false);
  const receivingChainWsURL = text('receivingChainWsURL', false);
  if (receivingChainIPCPath === undefined && receivingChainWsURL === undefined) {
    throw new ConfigError(`${key('receivingChainWsURL')}: the receiving chain needs receivingChainIPCPath or receivingChainWsURL`);
  }
  if (receivingChainWsURL !== undefined && !/^wss?:\/\//.test(receivingChainWsURL)) {
    throw new ConfigError(`${key('receivingChainWsURL')}: must be a ws:// or wss:// URL`);
  }
  return {
    receivingChainID,
    ...(receivingChainIPCPath !== undefined && { receivingChainIPCPath }),
    ...(receivingChainWsURL !== undefined && { receivingChainWsURL }),
    ccuFrequency: integer('ccuFrequency', 1, 0),
    encryptedPrivateKey: text('encryptedPrivateKey', true) as string,
    ccuFee: BigInt(feeText),
    isSaveCCU,
    maxCCUSize: integer('maxCCUSize', CCU_TOTAL_CCM_SIZE, 1, CCU_TOTAL_CCM_SIZE),
    ccuSaveLimit: integer('ccuSaveLimit', 300, -1),
    registrationHeight: integer('registrationHeight', 1, 1),
  };
}
