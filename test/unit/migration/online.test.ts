import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ForgingStatusEntry } from '../../../src/migration/forging-status.js';
import { captureForgingStatusAtSnapshot, v3BlockHeight } from '../../../src/migration/online/forging-capture.js';
import { checkV3Node, compareVersion, waitForFinality, type V3NodeInfo } from '../../../src/migration/online/online-checks.js';
import { V3WsClient, v3NodeAnswers } from '../../../src/migration/online/v3-ws-client.js';
import { FakeV3Node, SAMPLE_FORGING_STATUS, v3BlockHex } from './fake-v3-node.js';

const MAINNET_ID = '4c09e6a781fc4c7bdb936ee815de8f94190f8a7519becd9de2081832be309a99';
const DEVNET_ID = 'cc14918c7db716f6245193fcf17a5a3e722055fce027fc79caca39f01a6ec575';

const v31Info = (over: Partial<V3NodeInfo> = {}): V3NodeInfo => ({
  version: '3.1.1',
  networkIdentifier: MAINNET_ID,
  height: 23390991,
  finalizedHeight: 23390900,
  backup: { height: 23390991 },
  ...over,
});

describe('online checks of the v3 node', () => {
  const options = { snapshotHeight: 23390991, autoStart: false, unsafeSkipV3Checks: false };

  it('accepts a Lisk Core 3.1 mainnet node whose backup height is the snapshot height', () => {
    expect(checkV3Node(v31Info(), options)).toEqual({
      network: { name: 'mainnet', tokenId: '0000000000000000' },
      networkIdentifier: MAINNET_ID,
      hasBackup: true,
      skipped: [],
    });
  });

  it('fails in the migrator order with its messages', () => {
    expect(() => checkV3Node(v31Info({ backup: { height: 5 } }), { ...options, snapshotHeight: 7 })).toThrow(
      'Lisk Core v3 backup height mismatch. Actual: 5, Expected: 7.',
    );
    expect(() => checkV3Node(v31Info({ backup: { height: 1000 } }), { ...options, snapshotHeight: 1000 })).toThrow(
      'Invalid snapshot height provided: 1000. It must be an exact multiple of round length (103).',
    );
    expect(() => checkV3Node(v31Info({ networkIdentifier: DEVNET_ID }), { ...options, autoStart: true })).toThrow(
      `Unknown network detected. No NETWORK_CONSTANT defined for networkID: ${DEVNET_ID}.`,
    );
    expect(() => checkV3Node(v31Info({ version: 'three' }), options)).toThrow(
      'Invalid Lisk Core version detected: three. Minimum supported version is 3.1.0.',
    );
    expect(() => checkV3Node(v31Info({ version: '3.1.0-rc.1' }), options)).toThrow(
      'Lisk Migrator is not compatible with Lisk Core version 3.1.0-rc.1. Minimum supported version is 3.1.0.',
    );
  });

  it('names the missing backup field of Lisk Core 3.0.x instead of a TypeError', () => {
    const info = v31Info({ version: '3.0.3', backup: undefined });
    expect(() => checkV3Node(info, options)).toThrow(/reports no backup height .*--unsafe-skip-v3-checks/);
    expect(() => checkV3Node({ ...info, backup: null }, options)).toThrow(/reports no backup height/);
  });

  it('under --unsafe-skip-v3-checks skips the backup, round-multiple and version checks, naming each, and keeps the others', () => {
    const info = v31Info({ version: '3.0.3', backup: undefined, networkIdentifier: DEVNET_ID });
    const result = checkV3Node(info, { ...options, snapshotHeight: 309, unsafeSkipV3Checks: true });
    expect(result.network).toBeUndefined();
    expect(result.hasBackup).toBe(false);
    expect(result.skipped).toEqual([
      'Skipped check: backup height (the node reports no backup.height; the live blockchain.db is read once the node is stopped).',
      'Skipped check: Lisk Core version (3.0.3 is below 3.1.0 or not a version).',
    ]);
    expect(checkV3Node(info, { ...options, snapshotHeight: 312, unsafeSkipV3Checks: true }).skipped).toContain(
      'Skipped check: snapshot height (312 is not a multiple of the round length 103).',
    );
    expect(() => checkV3Node(v31Info({ backup: { height: 1 } }), { ...options, unsafeSkipV3Checks: true })).toThrow(
      /backup height mismatch/,
    );
  });

  it('compares versions as semver', () => {
    expect(compareVersion('3.1.0', '3.1.0')).toBe(0);
    expect(compareVersion('3.10.0', '3.9.0')).toBe(1);
    expect(compareVersion('3.0.3', '3.1.0')).toBe(-1);
    expect(compareVersion('3.1', '3.1.0')).toBeUndefined();
  });
});

describe('talking to a v3 node over its WebSocket API', () => {
  let node: FakeV3Node;
  let client: V3WsClient;
  beforeAll(async () => {
    node = new FakeV3Node();
    await new Promise((resolve) => node.server.once('listening', resolve));
    client = await V3WsClient.connect(node.url);
  });
  afterAll(async () => {
    await client.close();
    await node.close();
  });

  it('calls actions and reports RPC errors', async () => {
    node.nodeInfo = { version: '3.0.3', networkIdentifier: DEVNET_ID, height: 12 };
    expect(await client.invoke('app:getNodeInfo')).toEqual(node.nodeInfo);
    await expect(client.invoke('app:nope')).rejects.toThrow(
      "The Lisk Core v3 node answered an error: Action 'app:nope' is not registered to bus.",
    );
  });

  it('reads the height of an encoded v3 block', () => {
    expect(v3BlockHeight(v3BlockHex(309))).toBe(309);
    expect(v3BlockHeight(v3BlockHex(23390991))).toBe(23390991);
    expect(v3BlockHeight('zz')).toBeUndefined();
  });

  it('captures the forging status when the snapshot block arrives, once', async () => {
    node.forgingStatus = [{ ...SAMPLE_FORGING_STATUS }];
    const captured = new Promise<ForgingStatusEntry[]>((resolve, reject) => captureForgingStatusAtSnapshot(client, 309, resolve, reject));
    const before = node.requests.length;
    node.publishBlock(308);
    node.publishBlock(309);
    node.publishBlock(309);
    expect(await captured).toEqual([{ ...(node.forgingStatus[0] as object), lskAddress: 'lsktrqfj84n34tn97vraaq2ztmrgwgwakmqyskqw4' }]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(node.requests.slice(before)).toEqual(['app:getForgingStatus']);
  });

  it('waits until the snapshot height is final, reporting progress', async () => {
    let finalized = 300;
    const seen: (number | undefined)[] = [];
    await waitForFinality(
      async () => {
        node.nodeInfo = { height: 320, finalizedHeight: finalized };
        finalized += 5;
        return client.invoke<V3NodeInfo>('app:getNodeInfo');
      },
      309,
      { intervalMs: 1, onProgress: (progress) => seen.push(progress.finalizedHeight) },
    );
    expect(seen).toEqual([300, 305, 310]);
  });

  it('waits only for the snapshot block when finality is not awaited (a chain that never finalizes)', async () => {
    const heights = [307, 308, 309, 310];
    const seen: (number | undefined)[] = [];
    await waitForFinality(async () => ({ height: heights.shift(), finalizedHeight: 0 }), 309, {
      intervalMs: 1,
      finalized: false,
      onProgress: (progress) => seen.push(progress.height),
    });
    expect(seen).toEqual([307, 308, 309]);
  });

  it('tells whether a node answers, and fails to connect with a clear message', async () => {
    expect(await v3NodeAnswers(node.url)).toBe(true);
    const closed = new FakeV3Node();
    await new Promise((resolve) => closed.server.once('listening', resolve));
    const url = closed.url;
    await closed.close();
    expect(await v3NodeAnswers(url, 500)).toBe(false);
    await expect(V3WsClient.connect(url, 500)).rejects.toThrow(/Cannot reach the Lisk Core v3 node at ws:\/\/127\.0\.0\.1:\d+\/ws/);
  });
});
