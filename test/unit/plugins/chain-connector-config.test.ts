/**
 * The chain connector's settings: lisk-sdk 0.2.0's names and defaults, and a ConfigError naming
 * the field for each unusable value (never echoing the key or the password).
 */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/config-error.js';
import { readChainConnectorConfig } from '../../../src/plugins/chain-connector/connector-config.js';

const OWN = Buffer.from('04000000', 'hex');
const BASE = { receivingChainID: '04000001', receivingChainWsURL: 'ws://127.0.0.1:7887/rpc-ws', encryptedPrivateKey: 'kdf=PBKDF2&secret' };

describe('readChainConnectorConfig', () => {
  it("applies lisk-sdk's defaults", () => {
    expect(readChainConnectorConfig(BASE, OWN)).toEqual({
      receivingChainID: Buffer.from('04000001', 'hex'),
      receivingChainWsURL: 'ws://127.0.0.1:7887/rpc-ws',
      encryptedPrivateKey: 'kdf=PBKDF2&secret',
      ccuFrequency: 1,
      ccuFee: 0n,
      isSaveCCU: false,
      maxCCUSize: 10_240,
      ccuSaveLimit: 300,
      registrationHeight: 1,
    });
  });

  it('reads every setting', () => {
    const config = readChainConnectorConfig(
      {
        ...BASE,
        receivingChainIPCPath: '/data/side',
        ccuFrequency: 5,
        ccuFee: '20000000',
        isSaveCCU: true,
        maxCCUSize: 5000,
        ccuSaveLimit: -1,
        registrationHeight: 3,
      },
      OWN,
    );
    expect(config).toMatchObject({
      receivingChainIPCPath: '/data/side',
      ccuFrequency: 5,
      ccuFee: 20_000_000n,
      isSaveCCU: true,
      maxCCUSize: 5000,
      ccuSaveLimit: -1,
      registrationHeight: 3,
    });
  });

  it.each([
    [
      { password: 'pw' },
      '.plugins.chainConnector.password: a password is never kept in the config; set BASALT_CHAIN_CONNECTOR_PASSWORD or call chainConnector_authorize',
    ],
    [{ receivingChainID: undefined }, '.plugins.chainConnector.receivingChainID: must be a non-empty string'],
    [{ receivingChainID: '0400' }, '.plugins.chainConnector.receivingChainID: must be 4 bytes in hex'],
    [
      { receivingChainID: '05000001' },
      '.plugins.chainConnector.receivingChainID: Receiving Chain ID network does not match the sending chain network.',
    ],
    [{ encryptedPrivateKey: undefined }, '.plugins.chainConnector.encryptedPrivateKey: must be a non-empty string'],
    [
      { receivingChainWsURL: undefined },
      '.plugins.chainConnector.receivingChainWsURL: the receiving chain needs receivingChainIPCPath or receivingChainWsURL',
    ],
    [{ receivingChainWsURL: 'http://x' }, '.plugins.chainConnector.receivingChainWsURL: must be a ws:// or wss:// URL'],
    [{ maxCCUSize: 10_241 }, '.plugins.chainConnector.maxCCUSize: must be a whole number from 1 to 10240'],
    [{ ccuFee: 5 }, '.plugins.chainConnector.ccuFee: must be a uint64 amount in beddows, as a string'],
    [{ isSaveCCU: 'yes' }, '.plugins.chainConnector.isSaveCCU: must be true or false'],
    [{ registrationHeight: 0 }, `.plugins.chainConnector.registrationHeight: must be a whole number from 1 to ${Number.MAX_SAFE_INTEGER}`],
    [{ receivingChainUrl: 'x' }, '.plugins.chainConnector.receivingChainUrl: unknown setting of the chain connector'],
  ])('refuses %j', (change, message) => {
    expect(() => readChainConnectorConfig({ ...BASE, ...change }, OWN)).toThrow(new ConfigError(message));
  });
});
