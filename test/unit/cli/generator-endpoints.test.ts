/**
 * The `generator_*` methods (lisk-sdk engine/generator/endpoint.ts) through the real dispatcher, on
 * a real LMDB generator store: request schemas, lisk-sdk's checks and messages, the enabled set,
 * the encrypted-key storage without `mac`, estimateSafeStatus, and access control (sensitive).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open, type RootDatabase } from 'lmdb';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { BlockHeader } from '../../../src/chain/block-header.js';
import { decodeLisk32, encryptMessageWithPassword, type EncryptedMessageObject } from '../../../src/crypto/index.js';
import type { GeneratorKeypair } from '../../../src/engine/generator/generator-keypair.js';
import { GeneratorStore } from '../../../src/engine/generator/generator-store.js';
import { silentLogger } from '../../../src/logger.js';
import { RpcDispatcher } from '../../../src/rpc/dispatcher.js';
import { createGeneratorEndpoints } from '../../../src/rpc/endpoints/generator-endpoints.js';
import { RpcRegistry } from '../../../src/rpc/registry.js';
import { plainKeysPlaintext } from '../../../src/cli/support/keys-file.js';
import { generatorControlFor } from '../../support/generator-control.js';

interface DevKey {
  address: string;
  plain: { generatorKey: string; generatorPrivateKey: string; blsKey: string; blsPrivateKey: string };
}
const devKeys = (
  JSON.parse(readFileSync(new URL('../../../config/devnet/dev-validators.json', import.meta.url), 'utf8')) as { keys: DevKey[] }
).keys;
const [A, B, C] = devKeys as [DevKey, DevKey, DevKey];
const plainData = ({ plain }: DevKey) => ({
  generatorKey: plain.generatorKey,
  generatorPrivateKey: plain.generatorPrivateKey,
  blsKey: plain.blsKey,
  blsPrivateKey: plain.blsPrivateKey,
});
const PASSWORD = 'unit-test-password';
// Fast argon2id: the node decrypts with whatever parameters the object names.
const FAST = { kdfparams: { memorySize: 64 } } as const;

interface Answer {
  result?: unknown;
  error?: { code: number; message: string };
}

const dir = mkdtempSync(join(tmpdir(), 'basalt-generator-endpoints-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('generator endpoints', () => {
  let env: RootDatabase;
  let store: GeneratorStore;
  let enabled: Map<string, GeneratorKeypair>;
  let headers: Map<number, Partial<BlockHeader>>;
  let tip: number;
  let finalized: number;
  let syncing: boolean;
  let dispatcher: RpcDispatcher;
  let encryptedA: EncryptedMessageObject;

  const call = async (method: string, params?: object, allowed: string[] = ['generator']): Promise<Answer> => {
    const target = allowed === dispatcherAllowed ? dispatcher : makeDispatcher(allowed);
    const {
      jsonrpc: _version,
      id: _id,
      ...answer
    } = JSON.parse((await target.handle(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))) as string) as Answer & {
      jsonrpc: string;
      id: number;
    };
    return answer;
  };
  const dispatcherAllowed = ['generator'];
  let registry: RpcRegistry;
  const makeDispatcher = (allowed: string[]) =>
    new RpcDispatcher(registry, { allowedMethods: allowed, maxBatchSize: 10, logger: silentLogger });

  beforeEach(async () => {
    env?.close();
    env = open({ path: mkdtempSync(join(dir, 'db-')) });
    store = new GeneratorStore(env);
    enabled = new Map();
    headers = new Map([[0, { version: 0, height: 0, timestamp: 1000, maxHeightPrevoted: 0 }]]);
    tip = 0;
    finalized = 0;
    syncing = false;
    registry = new RpcRegistry();
    const chainStore = {
      tipHeight: () => tip,
      finalizedHeight: () => finalized,
      genesisHeight: () => 0,
      getHeaderByHeight: (height: number) => headers.get(height) as BlockHeader | undefined,
    };
    for (const method of createGeneratorEndpoints(generatorControlFor(store, enabled, chainStore, () => syncing))) {
      registry.register(method);
    }
    dispatcher = makeDispatcher(dispatcherAllowed);
    encryptedA ??= await encryptMessageWithPassword(plainKeysPlaintext(A.plain), PASSWORD, FAST);
  });

  /** A chain whose tip at `height` carries `maxHeightPrevoted`. */
  const grow = (height: number, maxHeightPrevoted: number) => {
    for (let h = tip + 1; h <= height; h += 1)
      headers.set(h, { version: 2, height: h, timestamp: 1000 + 10 * h, maxHeightPrevoted: Math.min(h, maxHeightPrevoted) });
    tip = height;
  };

  it('registers seven sensitive methods, refused without allowedMethods', async () => {
    expect(registry.methodNames()).toEqual([
      'generator_estimateSafeStatus',
      'generator_getAllKeys',
      'generator_getStatus',
      'generator_hasKeys',
      'generator_setKeys',
      'generator_setStatus',
      'generator_updateStatus',
    ]);
    for (const name of registry.methodNames()) {
      expect((await call(name, {}, [])).error).toEqual({
        code: -32002,
        message: 'Requested method or namespace is disabled in node config.',
      });
    }
    expect((await call('generator_getStatus', {}, ['generator_getStatus'])).result).toEqual({ status: [] });
  });

  it('setKeys stores plain and encrypted keys; getAllKeys and hasKeys read them back', async () => {
    expect(await call('generator_hasKeys', { address: A.address })).toEqual({ result: { hasKey: false } });
    expect(await call('generator_setKeys', { address: A.address, type: 'encrypted', data: encryptedA })).toEqual({ result: {} });
    expect(
      await call('generator_setKeys', { address: B.address, type: 'plain', data: { ...plainData(B), blsProofOfPossession: 'ignored' } }),
    ).toEqual({ result: {} });
    expect(await call('generator_hasKeys', { address: A.address })).toEqual({ result: { hasKey: true } });

    const { result } = await call('generator_getAllKeys');
    const keys = (result as { keys: { address: string; type: string; data: Record<string, unknown> }[] }).keys;
    const byAddress = new Map(keys.map((key) => [key.address, key]));
    expect(keys).toHaveLength(2);
    expect(byAddress.get(B.address)).toEqual({ address: B.address, type: 'plain', data: plainData(B) });
    const { mac: _mac, ...withoutMac } = encryptedA;
    // Stored with lisk-sdk's encryptedMessage schema: no mac, members in schema order.
    expect(byAddress.get(A.address)).toEqual({ address: A.address, type: 'encrypted', data: withoutMac });
    expect(Object.keys(byAddress.get(A.address)?.data ?? {})).toEqual([
      'version',
      'ciphertext',
      'kdf',
      'kdfparams',
      'cipher',
      'cipherparams',
    ]);
  });

  it('setKeys validates the request and refuses inconsistent plain keys; it disables the address', async () => {
    const bad = await call('generator_setKeys', { address: A.address, type: 'plain', data: { ...plainData(A), generatorKey: 'aa' } });
    expect(bad.error?.code).toBe(-32602);
    expect((await call('generator_setKeys', { address: A.address, type: 'other', data: plainData(A) })).error?.code).toBe(-32602);
    expect(
      (await call('generator_setKeys', { address: A.address, type: 'encrypted', data: { ...encryptedA, kdf: 'scrypt' } })).error?.code,
    ).toBe(-32602);
    const mixed = await call('generator_setKeys', {
      address: A.address,
      type: 'plain',
      data: { ...plainData(A), blsPrivateKey: B.plain.blsPrivateKey },
    });
    expect(mixed.error).toEqual({ code: -32602, message: expect.stringContaining('BLS private key') });
    expect(mixed.error?.message).not.toContain(B.plain.blsPrivateKey);
    expect(await call('generator_hasKeys', { address: A.address })).toEqual({ result: { hasKey: false } });

    await call('generator_setKeys', { address: B.address, type: 'plain', data: plainData(B) });
    await call('generator_setStatus', { address: B.address, height: 0, maxHeightGenerated: 0, maxHeightPrevoted: 0 });
    await call('generator_updateStatus', {
      address: B.address,
      password: '',
      enable: true,
      height: 0,
      maxHeightGenerated: 0,
      maxHeightPrevoted: 0,
    });
    expect(enabled.size).toBe(1);
    await call('generator_setKeys', { address: B.address, type: 'plain', data: plainData(B) });
    expect(enabled.size).toBe(0);
  });

  it('setStatus needs registered keys and overwrites; getStatus lists info records in address order', async () => {
    expect(await call('generator_setStatus', { address: A.address, height: 1, maxHeightGenerated: 0, maxHeightPrevoted: 0 })).toEqual({
      error: { code: -32001, message: `Keys for ${A.address} is not registered.` },
    });
    expect(
      (await call('generator_setStatus', { address: A.address, height: -1, maxHeightGenerated: 0, maxHeightPrevoted: 0 })).error?.code,
    ).toBe(-32602);
    for (const key of [A, B, C]) await call('generator_setKeys', { address: key.address, type: 'plain', data: plainData(key) });
    await call('generator_setStatus', { address: C.address, height: 9, maxHeightGenerated: 8, maxHeightPrevoted: 7 });
    await call('generator_setStatus', { address: A.address, height: 5, maxHeightGenerated: 4, maxHeightPrevoted: 3 });
    await call('generator_setStatus', { address: A.address, height: 6, maxHeightGenerated: 5, maxHeightPrevoted: 4 });
    const { result } = await call('generator_getStatus');
    const expected = [
      { address: A.address, height: 6, maxHeightPrevoted: 4, maxHeightGenerated: 5, generatorKey: '', blsKey: '', enabled: false },
      { address: C.address, height: 9, maxHeightPrevoted: 7, maxHeightGenerated: 8, generatorKey: '', blsKey: '', enabled: false },
    ].sort((x, y) => decodeLisk32(x.address).compare(decodeLisk32(y.address)));
    expect(result).toEqual({ status: expected });
    expect(Object.keys((result as { status: object[] }).status[0] as object)).toEqual([
      'address',
      'height',
      'maxHeightPrevoted',
      'maxHeightGenerated',
      'generatorKey',
      'blsKey',
      'enabled',
    ]);
  });

  describe('updateStatus', () => {
    const request = (key: DevKey, overrides: object = {}) => ({
      address: key.address,
      password: PASSWORD,
      enable: true,
      height: 0,
      maxHeightGenerated: 0,
      maxHeightPrevoted: 0,
      ...overrides,
    });

    it('needs keys, then the right password, also to disable', async () => {
      expect(await call('generator_updateStatus', request(A))).toEqual({
        error: { code: -32001, message: `Generator with address: ${A.address} does not have keys registered.` },
      });
      await call('generator_setKeys', { address: A.address, type: 'encrypted', data: encryptedA });
      for (const enable of [true, false]) {
        expect(await call('generator_updateStatus', request(A, { password: 'wrong', enable }))).toEqual({
          error: { code: -32602, message: 'Unsupported state or unable to authenticate data' },
        });
      }
      expect((await call('generator_updateStatus', { ...request(A), password: 1 })).error?.code).toBe(-32602);
      expect(enabled.size).toBe(0);
    });

    it('enables from zero values when no status exists and records them; returns {address, enabled}', async () => {
      await call('generator_setKeys', { address: A.address, type: 'encrypted', data: encryptedA });
      expect(await call('generator_updateStatus', request(A))).toEqual({ result: { address: A.address, enabled: true } });
      const keypair = enabled.get(decodeLisk32(A.address).toString('hex'));
      expect(keypair?.generatorKey.toString('hex')).toBe(A.plain.generatorKey);
      expect(keypair?.blsSecretKey.toString('hex')).toBe(A.plain.blsPrivateKey);
      expect(store.getInfo(decodeLisk32(A.address))).toEqual({ height: 0, maxHeightPrevoted: 0, maxHeightGenerated: 0 });
      const { result } = await call('generator_getStatus');
      expect(result).toEqual({
        status: [
          {
            address: A.address,
            height: 0,
            maxHeightPrevoted: 0,
            maxHeightGenerated: 0,
            generatorKey: A.plain.generatorKey,
            blsKey: A.plain.blsKey,
            enabled: true,
          },
        ],
      });
      expect(await call('generator_updateStatus', request(A, { enable: false, height: 77 }))).toEqual({
        result: { address: A.address, enabled: false },
      });
      expect(enabled.size).toBe(0);
    });

    it('refuses non-zero values without a stored status, and values that differ from it', async () => {
      grow(20, 10);
      await call('generator_setKeys', { address: A.address, type: 'encrypted', data: encryptedA });
      expect(await call('generator_updateStatus', request(A, { height: 5 }))).toEqual({
        error: { code: -32602, message: 'Last generated information does not exist.' },
      });
      await call('generator_setStatus', { address: A.address, height: 5, maxHeightGenerated: 4, maxHeightPrevoted: 3 });
      for (const changed of [{ height: 6 }, { maxHeightGenerated: 3 }, { maxHeightPrevoted: 2 }]) {
        expect(
          await call('generator_updateStatus', request(A, { height: 5, maxHeightGenerated: 4, maxHeightPrevoted: 3, ...changed })),
        ).toEqual({
          error: { code: -32602, message: 'Request does not match last generated information.' },
        });
      }
      expect(enabled.size).toBe(0);
      expect(await call('generator_updateStatus', request(A, { height: 5, maxHeightGenerated: 4, maxHeightPrevoted: 3 }))).toEqual({
        result: { address: A.address, enabled: true },
      });
      expect(store.getInfo(decodeLisk32(A.address))).toEqual({ height: 5, maxHeightPrevoted: 3, maxHeightGenerated: 4 });
    });

    it("applies lisk-sdk's sync check against the tip", async () => {
      await call('generator_setKeys', { address: B.address, type: 'plain', data: plainData(B) });
      const notSynced = { error: { code: -32602, message: 'Failed to enable forging as the node is not synced to the network.' } };
      const attempt = async (height: number, maxHeightPrevoted: number) => {
        await call('generator_setStatus', { address: B.address, height, maxHeightGenerated: 0, maxHeightPrevoted });
        return call('generator_updateStatus', request(B, { password: 'anything', height, maxHeightPrevoted }));
      };
      // On the genesis block (version 0): both values at most its height.
      expect(await attempt(1, 0)).toEqual(notSynced);
      expect(await attempt(0, 1)).toEqual(notSynced);
      expect((await attempt(0, 0)).result).toEqual({ address: B.address, enabled: true });
      // Later: maxHeightPrevoted below the tip's, or equal to it with a lower height.
      grow(20, 15);
      expect((await attempt(30, 14)).result).toEqual({ address: B.address, enabled: true });
      expect((await attempt(19, 15)).result).toEqual({ address: B.address, enabled: true });
      expect(await attempt(20, 15)).toEqual(notSynced);
      expect(await attempt(0, 16)).toEqual(notSynced);
      // A syncing node never enables.
      syncing = true;
      expect(await attempt(0, 0)).toEqual(notSynced);
    });
  });

  it('estimateSafeStatus needs a finalized block after genesis at or after timeShutdown', async () => {
    grow(50, 40);
    expect(await call('generator_estimateSafeStatus', { timeShutdown: 0 })).toEqual({
      error: { code: -32602, message: 'At least one block after the genesis block must be finalized.' },
    });
    finalized = 30;
    // Blocks 1..30 at 10 s each, one every slot: nothing missed, safe = finalized height.
    expect(await call('generator_estimateSafeStatus', { timeShutdown: 1300 })).toEqual({
      result: { height: 30, maxHeightGenerated: 30, maxHeightPrevoted: 30 },
    });
    expect(await call('generator_estimateSafeStatus', { timeShutdown: 1301 })).toEqual({
      error: { code: -32602, message: 'A block at the time shutdown 1301 must be finalized.' },
    });
    // Five missed slots before the finalized block: the estimate moves up by five.
    headers.set(30, { ...(headers.get(30) as object), timestamp: 1000 + 10 * 35 });
    expect((await call('generator_estimateSafeStatus', { timeShutdown: 0 })).result).toEqual({
      height: 35,
      maxHeightGenerated: 35,
      maxHeightPrevoted: 35,
    });
    expect((await call('generator_estimateSafeStatus', {})).error?.code).toBe(-32602);
  });
});
