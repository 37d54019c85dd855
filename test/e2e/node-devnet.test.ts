/**
 * `basalt start` with default settings on an empty data dir gives a live devnet
 * — heights rise every block time, finality follows, a transfer sent over RPC lands in a block
 * with its events — and a restart continues the same chain. A second node on the same data dir
 * is refused without touching it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBasalt } from '../support/cli.js';
import { rpc, startBasaltNode, stopProcess, waitFor, type NodeProcess } from '../support/node-process.js';
import { signedTransfer } from '../support/token-transfer.js';

const ACCOUNTS_PASSPHRASE =
  'balcony timber spider replace olympic innocent obvious slogan select tunnel health adjust setup fork scrub lion coconut wife ice color process access minute palace';
const CHAIN_ID = Buffer.from('04000000', 'hex');
const TOKEN_ID = Buffer.from('0400000000000000', 'hex');

interface Heights {
  height: number;
  finalizedHeight: number;
}

describe('basalt start (devnet defaults)', () => {
  let dataPath: string;
  let port: number;
  let node: NodeProcess;
  /** Starts the node and reads the RPC port it bound. */
  const start = async (): Promise<void> => {
    node = startBasaltNode(['--data-path', dataPath]);
    port = (await node.ports()).rpc;
  };

  beforeAll(async () => {
    dataPath = mkdtempSync(join(tmpdir(), 'basalt-devnet-'));
    await start();
  });

  afterAll(async () => {
    if (node) await stopProcess(node.child);
    rmSync(dataPath, { recursive: true, force: true });
  });

  it('produces a block every block time and finalizes them', async () => {
    const first = await waitFor(
      'height 2',
      async () => {
        const info = await rpc<Heights>(port, 'system_getNodeInfo');
        return info.height >= 2 ? info : undefined;
      },
      60_000,
    );
    const later = await waitFor(
      'finality',
      async () => {
        const info = await rpc<Heights>(port, 'system_getNodeInfo');
        return info.finalizedHeight >= 1 && info.height >= first.height + 3 ? info : undefined;
      },
      60_000,
    );
    expect(later.height).toBeGreaterThan(first.height);
    const blocks = await rpc<{ header: { height: number; timestamp: number } }[]>(port, 'chain_getBlocksByHeightBetween', {
      from: later.height - 2,
      to: later.height,
    });
    // One block per 3 s slot: consecutive blocks sit in strictly later slots.
    const slots = blocks.map((block) => Math.floor(block.header.timestamp / 3));
    for (let i = 0; i < slots.length - 1; i += 1) expect(slots[i] as number).toBeGreaterThan(slots[i + 1] as number);
  });

  it('includes a transfer sent through the pool, with its events', async () => {
    const transaction = signedTransfer({
      passphrase: ACCOUNTS_PASSPHRASE,
      chainID: CHAIN_ID,
      tokenID: TOKEN_ID,
      recipient: 'lsks4hkwer2d588ee4joya3rca9tgb4whqo6vedxz',
      amount: 100_000_000n,
      fee: 1_000_000n,
      data: 'e2e',
    });
    const { transactionId } = await rpc<{ transactionId: string }>(port, 'txpool_postTransaction', {
      transaction: transaction.bytes.toString('hex'),
    });
    expect(transactionId).toBe(transaction.id.toString('hex'));

    const included = await waitFor(
      'inclusion',
      async () => {
        try {
          return await rpc<{ id: string }>(port, 'chain_getTransactionByID', { id: transactionId });
        } catch {
          return undefined;
        }
      },
      60_000,
    );
    expect(included.id).toBe(transactionId);
    const tip = await rpc<{ header: { height: number } }>(port, 'chain_getLastBlock');
    let found: { name: string; data: string }[] | undefined;
    for (let height = tip.header.height; height > 0 && !found; height -= 1) {
      const transactions = await rpc<{ id: string }[]>(port, 'chain_getTransactionsByHeight', { height });
      if (transactions.some((tx) => tx.id === transactionId)) found = await rpc(port, 'chain_getEvents', { height });
    }
    const names = (found ?? []).map((event) => event.name);
    expect(names).toContain('transfer');
    expect(found?.find((event) => event.name === 'commandExecutionResult')?.data).toBe('0801');
  });

  it('refuses a second node on the same data dir', async () => {
    const second = await runBasalt(['start', '--data-path', dataPath, '--api-port', '0']);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain('is in use by another Basalt node');
  });

  it('continues the same chain after a restart', async () => {
    const before = await rpc<Heights & { lastBlockID: string }>(port, 'system_getNodeInfo');
    expect(await stopProcess(node.child)).toBe(0);
    await start();
    const after = await waitFor(
      'the restarted node to grow',
      async () => {
        const info = await rpc<Heights>(port, 'system_getNodeInfo');
        return info.height > before.height ? info : undefined;
      },
      60_000,
    );
    const old = await rpc<{ header: { id: string } }>(port, 'chain_getBlockByHeight', { height: before.height });
    expect(old.header.id).toBe(before.lastBlockID);
    expect(after.finalizedHeight).toBeGreaterThanOrEqual(before.finalizedHeight);
  });
});
