/**
 * The relayer end to end over recorded chains: the lisk-sdk mainchain of the interop-dev pair is
 * replayed block by block into the relayer, and a simulated sidechain answers it, includes each
 * CCU it posts at once and checks it (certificate newer than the last one, every message received
 * exactly once and in outbox order). Covers several messages in one block (mainchain block 222,
 * where lisk's 0.2.0 relayer went wrong), the endpoints' shapes against lisk's answers, state
 * surviving a restart, `authorize`, and a receiving chain that is down.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BlockHeader } from '../../../src/chain/block-header.js';
import { Transaction } from '../../../src/chain/transaction.js';
import { codec } from '../../../src/codec/index.js';
import { encodeLisk32, sha256 } from '../../../src/crypto/index.js';
import { encryptMessageWithPassword } from '../../../src/crypto/encrypted-message.js';
import { stringifyEncryptedMessage } from '../../../src/crypto/encrypted-message-string.js';
import { InvalidParamsError, NotFoundError } from '../../../src/errors.js';
import { type Logger, silentLogger } from '../../../src/logger.js';
import { ccmSchema, crossChainUpdateParamsSchema } from '../../../src/modules/interoperability/schemas.js';
import { type CcuParams, certificateSchema, type LastCertificate } from '../../../src/plugins/chain-connector/ccu-builder.js';
import { outboxMessagesOf } from '../../../src/plugins/chain-connector/ccm-events.js';
import { readChainConnectorConfig } from '../../../src/plugins/chain-connector/connector-config.js';
import { ConnectorStore } from '../../../src/plugins/chain-connector/connector-store.js';
import { chainConnectorEndpoints } from '../../../src/plugins/chain-connector/endpoints.js';
import { ReceivingChain, ReceivingChainRpcError, type RpcConnection } from '../../../src/plugins/chain-connector/receiving-chain.js';
import {
  ChainConnector,
  IN_FLIGHT_RECHECK_MS,
  RelayerKeyPasswordError,
  type SendingChain,
} from '../../../src/plugins/chain-connector/relayer.js';
import type { PluginContext } from '../../../src/plugins/plugin.js';
import { type LogLine, recordingLogger } from '../../support/recording-logger.js';
import { bftAt, loadRecordedChain, type RecordedChain } from '../../support/interop-dev-records.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'basalt-connector-'));
  dirs.push(dir);
  return dir;
}

/** The mainchain as the relayer reads it, with its tip at `tip()`. */
function recordedSendingChain(chain: RecordedChain, receivingChainID: Buffer, tip: () => number): SendingChain {
  const headerAt = (height: number): BlockHeader | undefined => (height <= tip() ? chain.blocks.get(height)?.header : undefined);
  const outboxSizeAt = (height: number) => {
    let size = 0;
    for (let at = 0; at <= height; at += 1) size += outboxMessagesOf(chain.events.get(at) ?? [], chain.chainID, receivingChainID).length;
    return size;
  };
  return {
    chainID: chain.chainID,
    tipHeight: tip,
    header: headerAt,
    events: (height) => (height <= tip() ? chain.events.get(height) : undefined),
    invoke: async <T>(method: string, params?: Record<string, unknown>): Promise<T> => {
      switch (method) {
        case 'interoperability_getChannel':
          return { inbox: { size: 0 }, outbox: { size: outboxSizeAt(tip()) } } as T;
        case 'state_prove':
          // A stand-in proof, tagged with the height so the test can tell which one a CCU carries.
          return { proof: { siblingHashes: [sha256(Buffer.from([tip()])).toString('hex')], queries: [{ bitmap: '01' }] } } as T;
        case 'consensus_getBFTParametersActiveValidators': {
          const data = bftAt(chain, params?.height as number);
          return {
            validators: data.validators.map((v) => ({
              address: encodeLisk32(v.address),
              bftWeight: v.bftWeight.toString(),
              blsKey: v.blsKey.toString('hex'),
            })),
            certificateThreshold: data.certificateThreshold.toString(),
            validatorsHash: data.validatorsHash.toString('hex'),
          } as T;
        }
        case 'system_getNodeInfo':
          return { syncing: false } as T;
        case 'consensus_getBFTHeights': {
          let maxHeightCertified = 0;
          for (let at = 1; at <= tip(); at += 1) {
            const commit = (headerAt(at) as BlockHeader).aggregateCommit;
            if (commit.aggregationBits.length > 0) maxHeightCertified = Math.max(maxHeightCertified, commit.height);
          }
          return { maxHeightCertified } as T;
        }
        default:
          throw new Error(`unexpected ${method}`);
      }
    },
  };
}

/** A receiving chain that includes each posted CCU at once and checks it. */
class SimulatedReceivingChain {
  lastCertificate: LastCertificate;
  readonly received: Buffer[] = [];
  readonly included: Transaction[] = [];
  nonce = 0n;
  up = true;
  /** When set, the pool refuses every CCU with this message. */
  refuse: string | undefined;
  /** When set, posted CCUs wait here until `includePending` (the receiving chain's next block). */
  pending: Transaction[] | undefined;

  constructor(
    readonly chainID: Buffer,
    validatorsHash: Buffer,
  ) {
    this.lastCertificate = { height: 0, timestamp: 0, stateRoot: Buffer.alloc(32), validatorsHash };
  }

  answer(method: string, params: Record<string, unknown>): unknown {
    switch (method) {
      case 'interoperability_getChainAccount':
        return {
          lastCertificate: {
            height: this.lastCertificate.height,
            timestamp: this.lastCertificate.timestamp,
            stateRoot: this.lastCertificate.stateRoot.toString('hex'),
            validatorsHash: this.lastCertificate.validatorsHash.toString('hex'),
          },
        };
      case 'interoperability_getChannel':
        return { inbox: { size: this.received.length }, outbox: { size: 0 } };
      case 'auth_getAuthAccount':
        return { nonce: this.nonce.toString() };
      case 'token_hasUserAccount':
        return { exists: true };
      case 'system_getNodeInfo':
        return { chainID: this.chainID.toString('hex') };
      case 'txpool_postTransaction': {
        const transaction = Transaction.fromBytes(Buffer.from(params.transaction as string, 'hex'));
        if (this.pending === undefined) return this.include(transaction);
        this.pending.push(transaction);
        return { transactionId: transaction.id.toString('hex') };
      }
      default:
        throw new ReceivingChainRpcError(method, -32601, 'Method not found');
    }
  }

  includePending(): void {
    for (const transaction of (this.pending ?? []).splice(0)) this.include(transaction);
  }

  private include(transaction: Transaction) {
    if (this.refuse !== undefined) throw new ReceivingChainRpcError('txpool_postTransaction', -32603, this.refuse);
    if (transaction.nonce !== this.nonce) throw new ReceivingChainRpcError('txpool_postTransaction', -32603, 'Incompatible nonce');
    const params = codec.decode<CcuParams>(crossChainUpdateParamsSchema, transaction.params);
    if (params.certificate.length > 0) {
      const certificate = codec.decode<LastCertificate>(certificateSchema, params.certificate);
      expect(certificate.height).toBeGreaterThan(this.lastCertificate.height);
      this.lastCertificate = certificate;
      if (params.inboxUpdate.crossChainMessages.length > 0) {
        // The stand-in proof names the height it was taken at: it must be the certificate's.
        expect(params.inboxUpdate.outboxRootWitness.siblingHashes).toEqual([sha256(Buffer.from([certificate.height]))]);
      }
    }
    for (const ccm of params.inboxUpdate.crossChainMessages) {
      expect(
        this.received.some((seen) => seen.equals(ccm)),
        'a message received twice',
      ).toBe(false);
      this.received.push(ccm);
    }
    this.nonce += 1n;
    this.included.push(transaction);
    return { transactionId: transaction.id.toString('hex') };
  }

  connection(): RpcConnection {
    return {
      invoke: async <T>(method: string, params: Record<string, unknown> = {}) => {
        if (!this.up) throw new Error('ECONNRESET');
        return this.answer(method, params) as T;
      },
      close: () => {},
      onClose: () => {},
    };
  }
}

const PASSWORD = 'basalt-relayer';
/** Every chainConnector_* method but authorize. */
const READ_ENDPOINTS = [
  'getSentCCUs',
  'getAggregateCommits',
  'getBlockHeaders',
  'getCrossChainMessages',
  'getLastSentCCM',
  'getValidatorsInfoFromPreimage',
];
/** Messages the mainchain put in its outbox to the sidechain up to height 222 (registration, transfers, two bounces). */
const SENT_UP_TO_222 = 14;

describe('chain connector relayer over the interop-dev mainchain', () => {
  const mainchain = loadRecordedChain('mainchain');
  const sidechainID = Buffer.from('04000001', 'hex');
  const config = () => readChainConnectorConfig(mainchain.config.plugins.chainConnector, mainchain.chainID);

  function setUp(dataPath: string, receiver: SimulatedReceivingChain, tip: { height: number }, logger: Logger = silentLogger) {
    const store = ConnectorStore.open(dataPath);
    const receiving = new ReceivingChain(async () => receiver.connection(), 'simulated', logger);
    const connector = new ChainConnector(
      config(),
      store,
      recordedSendingChain(mainchain, sidechainID, () => tip.height),
      receiving,
      logger,
    );
    return { store, connector };
  }

  it('relays every message once, in outbox order, two of them from one block, and keeps its records across a restart', async () => {
    const dataPath = tempDir();
    const receiver = new SimulatedReceivingChain(sidechainID, bftAt(mainchain, 1).validatorsHash);
    const tip = { height: 0 };
    let { store, connector } = setUp(dataPath, receiver, tip);
    await expect(connector.authorize(PASSWORD, true)).resolves.toEqual({ result: 'Successfully enabled the chain connector plugin.' });
    for (tip.height = 1; tip.height <= 200; tip.height += 1) await connector.newBlock(tip.height);

    // Restart: a new relayer on the same data directory sees the same records.
    const endpoints = chainConnectorEndpoints(() => connector);
    const context = {} as PluginContext;
    const answers = async () =>
      Object.fromEntries(
        await Promise.all(
          READ_ENDPOINTS.map(async (name) => [
            name,
            await (endpoints[name] as { handle: (p: object, c: PluginContext) => unknown }).handle({}, context),
          ]),
        ),
      );
    const before = await answers();
    await store.close();
    ({ store, connector } = setUp(dataPath, receiver, tip));
    expect(await answers()).toEqual(before);
    expect(connector.keyEnabled).toBe(false);
    await connector.authorize(PASSWORD, true);
    for (; tip.height <= 240; tip.height += 1) await connector.newBlock(tip.height);
    await store.close();

    const sent: Buffer[] = [];
    for (let height = 1; height <= receiver.lastCertificate.height; height += 1) {
      for (const ccm of outboxMessagesOf(mainchain.events.get(height) ?? [], mainchain.chainID, sidechainID)) {
        sent.push(codec.encode(ccmSchema, ccm));
      }
    }
    expect(receiver.lastCertificate.height).toBeGreaterThan(225);
    expect(receiver.received.map((ccm) => ccm.toString('hex'))).toEqual(sent.map((ccm) => ccm.toString('hex')));
    // Up to block 222, which sent nonces 14 and 15 together: lisk's 0.2.0 relayer sent 14 again after them.
    expect(sent.length).toBe(SENT_UP_TO_222);
    expect(receiver.included.length).toBeGreaterThan(100);
  });

  it('still delivers every message once when it handles blocks after the chain moved on (syncing)', async () => {
    const receiver = new SimulatedReceivingChain(sidechainID, bftAt(mainchain, 1).validatorsHash);
    const tip = { height: 0 };
    const { store, connector } = setUp(tempDir(), receiver, tip);
    await connector.authorize(PASSWORD, true);
    // Heights 100 to 160 are handled three blocks late: their proofs are unknown, their outbox sizes right.
    let unproven = 0;
    for (let height = 1; height <= 240; height += 1) {
      tip.height = height >= 100 && height <= 160 ? Math.min(height + 3, 240) : height;
      await connector.newBlock(height);
      if (connector.recorded.ccmRecords.find((record) => record.height === height)?.unproven === true) unproven += 1;
    }
    await store.close();
    expect(unproven).toBe(61);
    const sent = [];
    for (let height = 1; height <= receiver.lastCertificate.height; height += 1) {
      sent.push(
        ...outboxMessagesOf(mainchain.events.get(height) ?? [], mainchain.chainID, sidechainID).map((ccm) => codec.encode(ccmSchema, ccm)),
      );
    }
    expect(receiver.received.map((ccm) => ccm.toString('hex'))).toEqual(sent.map((ccm) => ccm.toString('hex')));
  });

  it('logs a CCU the receiving chain refuses once, keeps no record of it and tries again on the next block', async () => {
    const receiver = new SimulatedReceivingChain(sidechainID, bftAt(mainchain, 1).validatorsHash);
    receiver.refuse = 'Transaction verification failed';
    const tip = { height: 0 };
    const lines: LogLine[] = [];
    const { store, connector } = setUp(tempDir(), receiver, tip, recordingLogger(lines));
    await connector.authorize(PASSWORD, true);
    for (tip.height = 1; tip.height <= 20; tip.height += 1) await connector.newBlock(tip.height);
    expect(lines.filter((line) => JSON.stringify(line.fields).includes('refused'))).toHaveLength(1);
    expect(connector.recorded.sentCcus).toEqual([]);
    receiver.refuse = undefined;
    for (; tip.height <= 25; tip.height += 1) await connector.newBlock(tip.height);
    expect(receiver.included.length).toBeGreaterThan(0);
    expect(connector.recorded.sentCcus.length).toBe(receiver.included.length);
    await store.close();
  });

  it('relays a new certificate as soon as the CCU in flight is included, without waiting for the next block', async () => {
    const receiver = new SimulatedReceivingChain(sidechainID, bftAt(mainchain, 1).validatorsHash);
    receiver.pending = [];
    const tip = { height: 0 };
    const { store, connector } = setUp(tempDir(), receiver, tip);
    await connector.authorize(PASSWORD, true);
    for (tip.height = 1; tip.height <= 40; tip.height += 1) {
      await connector.newBlock(tip.height);
      if (receiver.pending.length > 0) break;
    }
    expect(receiver.pending).toHaveLength(1);
    // The next block comes while that CCU is still in the receiving chain's pool: nothing is sent.
    tip.height += 1;
    await connector.newBlock(tip.height);
    expect(receiver.pending).toHaveLength(1);
    receiver.includePending();
    const included = receiver.lastCertificate.height;
    await new Promise((resolve) => setTimeout(resolve, IN_FLIGHT_RECHECK_MS * 4));
    expect(receiver.pending).toHaveLength(1);
    receiver.includePending();
    expect(receiver.lastCertificate.height).toBeGreaterThan(included);
    expect(receiver.included).toHaveLength(2);
    await connector.idle();
    await store.close();
  });

  it('serves the endpoints with lisk-sdk 0.2.0 shapes', async () => {
    const receiver = new SimulatedReceivingChain(sidechainID, bftAt(mainchain, 1).validatorsHash);
    const tip = { height: 0 };
    const { store, connector } = setUp(tempDir(), receiver, tip);
    const endpoints = chainConnectorEndpoints(() => connector);
    const call = (name: string, params: Record<string, unknown> = {}) =>
      (endpoints[name] as { handle: (p: object, c: PluginContext) => unknown }).handle(params, {} as PluginContext);
    expect(() => call('getLastSentCCM')).toThrow(NotFoundError);
    await connector.authorize(PASSWORD, true);
    for (tip.height = 1; tip.height <= 230; tip.height += 1) await connector.newBlock(tip.height);
    await store.close();

    const lisk = new Map(mainchain.finalState.chainConnector.map((entry) => [entry.method.replace('chainConnector_', ''), entry.result]));
    const keysOf = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.length === 0 ? [] : [keysOf(value[0])];
      if (value !== null && typeof value === 'object') {
        return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, keysOf(inner)]));
      }
      return typeof value;
    };
    for (const name of READ_ENDPOINTS) {
      // Compare the shape of a record with messages where there are any.
      const pick = (list: unknown) => {
        const items = list as { ccms?: unknown[] }[];
        return [items.find((item) => (item.ccms?.length ?? 1) > 0)];
      };
      const ours = JSON.parse(JSON.stringify(await call(name)));
      const theirs = lisk.get(name);
      const [a, b] = Array.isArray(ours) ? [pick(ours), pick(theirs)] : [ours, theirs];
      expect(JSON.stringify(keysOf(a)), name).toBe(JSON.stringify(keysOf(b)));
    }
    const validators = (await call('getValidatorsInfoFromPreimage')) as { validators: { address: string }[] }[];
    expect(validators[0]?.validators[0]?.address).toMatch(/^[0-9a-f]{40}$/);
  });

  it('records every block while the receiving chain is down and sends nothing', async () => {
    const receiver = new SimulatedReceivingChain(sidechainID, bftAt(mainchain, 1).validatorsHash);
    receiver.up = false;
    const tip = { height: 0 };
    const store = ConnectorStore.open(tempDir());
    let attempts = 0;
    const receiving = new ReceivingChain(
      async () => {
        attempts += 1;
        throw new Error('ECONNREFUSED');
      },
      'down',
      silentLogger,
    );
    const connector = new ChainConnector(
      config(),
      store,
      recordedSendingChain(mainchain, sidechainID, () => tip.height),
      receiving,
      silentLogger,
    );
    await connector.authorize(PASSWORD, true);
    const started = Date.now();
    for (tip.height = 1; tip.height <= 30; tip.height += 1) await connector.newBlock(tip.height);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(connector.recorded.blockHeaders.map((header) => header.height)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(connector.recorded.sentCcus).toEqual([]);
    expect(attempts).toBeLessThanOrEqual(2); // backoff: 1 s, then 2 s, in a loop of a few milliseconds
    await store.close();
  });
});

describe('chain connector authorize', () => {
  it('enables and disables the relayer key; a wrong password is a clear invalid-params error', async () => {
    const privateKey = Buffer.alloc(64, 7).toString('hex');
    const encrypted = await encryptMessageWithPassword(Buffer.from(privateKey, 'utf8'), 'right', {
      kdf: 'PBKDF2',
      kdfparams: { iterations: 1000 },
    });
    const settings = readChainConnectorConfig(
      {
        receivingChainID: '04000001',
        receivingChainWsURL: 'ws://127.0.0.1:1/rpc-ws',
        encryptedPrivateKey: stringifyEncryptedMessage(encrypted),
      },
      Buffer.from('04000000', 'hex'),
    );
    const store = ConnectorStore.open(tempDir());
    const sending: SendingChain = {
      chainID: Buffer.from('04000000', 'hex'),
      tipHeight: () => 0,
      header: () => undefined,
      events: () => undefined,
      invoke: async () => ({}) as never,
    };
    const connector = new ChainConnector(
      settings,
      store,
      sending,
      new ReceivingChain(async () => Promise.reject(new Error('down')), 'x', silentLogger),
      silentLogger,
    );
    const authorize = chainConnectorEndpoints(() => connector).authorize as {
      handle: (p: Record<string, unknown>, c: PluginContext) => unknown;
      sensitive?: boolean;
    };
    expect(authorize.sensitive).toBe(true);

    const wrong = await Promise.resolve(authorize.handle({ password: 'wrong', enable: true }, {} as PluginContext)).catch(
      (error: unknown) => error,
    );
    expect(wrong).toBeInstanceOf(RelayerKeyPasswordError);
    expect(wrong).toBeInstanceOf(InvalidParamsError);
    expect((wrong as InvalidParamsError).code).toBe('ERR_INVALID_PARAMS');
    expect((wrong as Error).message).toBe('Chain connector: the password does not decrypt the configured encryptedPrivateKey.');
    expect((wrong as Error).message).not.toContain(privateKey);
    expect(connector.keyEnabled).toBe(false);

    await expect(authorize.handle({ password: 'right', enable: true }, {} as PluginContext)).resolves.toEqual({
      result: 'Successfully enabled the chain connector plugin.',
    });
    expect(connector.keyEnabled).toBe(true);
    await expect(authorize.handle({ password: 'wrong', enable: false }, {} as PluginContext)).rejects.toBeInstanceOf(
      RelayerKeyPasswordError,
    );
    expect(connector.keyEnabled).toBe(true);
    await expect(authorize.handle({ password: 'right', enable: false }, {} as PluginContext)).resolves.toEqual({
      result: 'Successfully disabled the chain connector plugin.',
    });
    expect(connector.keyEnabled).toBe(false);
    await store.close();
  });
});
