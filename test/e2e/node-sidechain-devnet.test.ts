/**
 * `basalt start --network devnet-sidechain` gives a live sidechain of the devnet network (chain
 * 04000001): the sidechain module set with its interoperability endpoints, blocks every block
 * time from its own validators, certified and finalized, and a transfer of its own token.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIDECHAIN_DEVNET_SPEC } from '../../src/genesis/devnet/sidechain-devnet.js';
import { rpc, startBasaltNode, stopProcess, waitFor, type NodeProcess } from '../support/node-process.js';
import { signedTransfer } from '../support/token-transfer.js';

const CHAIN_ID = Buffer.from('04000001', 'hex');
const TOKEN_ID = Buffer.from('0400000100000000', 'hex');

interface NodeInfo {
  chainID: string;
  height: number;
  finalizedHeight: number;
}

describe('basalt start --network devnet-sidechain', () => {
  let dataPath: string;
  let port: number;
  let node: NodeProcess;

  beforeAll(async () => {
    dataPath = mkdtempSync(join(tmpdir(), 'basalt-sidechain-devnet-'));
    node = startBasaltNode(['--network', 'devnet-sidechain', '--data-path', dataPath]);
    port = (await node.ports()).rpc;
  });

  afterAll(async () => {
    if (node) await stopProcess(node.child);
    rmSync(dataPath, { recursive: true, force: true });
  });

  it('runs as a sidechain: its chain ID, the sidechain interoperability endpoints and no own chain account yet', async () => {
    const info = await rpc<NodeInfo>(port, 'system_getNodeInfo');
    expect(info.chainID).toBe('04000001');
    expect(await rpc(port, 'interoperability_getMainchainID', { chainID: '04000001' })).toEqual({ mainchainID: '04000000' });
    const metadata = await rpc<{ modules: { name: string; commands: { name: string }[] }[] }>(port, 'system_getMetadata');
    const interoperability = metadata.modules.find((module) => module.name === 'interoperability');
    expect(interoperability?.commands.map((command) => command.name)).toEqual([
      'registerMainchain',
      'submitSidechainCrossChainUpdate',
      'initializeStateRecovery',
      'recoverState',
    ]);
    expect(metadata.modules.map((module) => module.name)).not.toContain('legacy');
  });

  it('produces a block every block time and finalizes them', async () => {
    const first = await waitFor(
      'height 2',
      async () => {
        const info = await rpc<NodeInfo>(port, 'system_getNodeInfo');
        return info.height >= 2 ? info : undefined;
      },
      60_000,
    );
    const later = await waitFor(
      'finality',
      async () => {
        const info = await rpc<NodeInfo>(port, 'system_getNodeInfo');
        return info.finalizedHeight >= 1 && info.height >= first.height + 3 ? info : undefined;
      },
      60_000,
    );
    expect(later.height).toBeGreaterThan(first.height);
  });

  it('includes a transfer of the sidechain token sent through the pool', async () => {
    const transaction = signedTransfer({
      passphrase: SIDECHAIN_DEVNET_SPEC.accountPassphrase,
      chainID: CHAIN_ID,
      tokenID: TOKEN_ID,
      recipient: 'lsks4hkwer2d588ee4joya3rca9tgb4whqo6vedxz',
      amount: 100_000_000n,
      fee: 10_000_000n,
    });
    const { transactionId } = await rpc<{ transactionId: string }>(port, 'txpool_postTransaction', {
      transaction: transaction.bytes.toString('hex'),
    });
    const included = await waitFor(
      'inclusion',
      async () => rpc<{ id: string }>(port, 'chain_getTransactionByID', { id: transactionId }),
      60_000,
    );
    expect(included.id).toBe(transaction.id.toString('hex'));
  });
});
