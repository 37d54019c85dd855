/**
 * The chain connector in a running `basalt start` devnet node: turned on by
 * --enable-chain-connector-plugin with the config's `plugins.chainConnector` settings, refused at
 * start without them, and, with a receiving chain that is not there, the node starts, produces
 * blocks and serves RPC all the same while the connector records every block; the sensitive
 * `authorize` answers a wrong password with a clear -32602.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encryptMessageWithPassword } from '../../src/crypto/encrypted-message.js';
import { stringifyEncryptedMessage } from '../../src/crypto/encrypted-message-string.js';
import { runBasalt } from '../support/cli.js';
import { type NodeProcess, rpc, rpcAnswer, startBasaltNode, stopProcess, waitFor } from '../support/node-process.js';

describe('chain connector in a devnet node', () => {
  const dir = mkdtempSync(join(tmpdir(), 'basalt-connector-node-'));
  let node: NodeProcess | undefined;
  afterAll(async () => {
    if (node) await stopProcess(node.child);
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses to start with the flag but without the settings, naming the missing one', async () => {
    const result = await runBasalt([
      'start',
      '--data-path',
      join(dir, 'bare'),
      '--api-port',
      '0',
      '--port',
      '0',
      '--enable-chain-connector-plugin',
    ]);
    expect(result.code).not.toBe(0);
    expect(result.stdout + result.stderr).toContain('.plugins.chainConnector.receivingChainID: must be a non-empty string');
  });

  it('runs with an unreachable receiving chain: blocks, RPC and records go on', async () => {
    const privateKey = Buffer.alloc(64, 3).toString('hex');
    const encrypted = await encryptMessageWithPassword(Buffer.from(privateKey, 'utf8'), 'right', {
      kdf: 'PBKDF2',
      kdfparams: { iterations: 1000 },
    });
    const configFile = join(dir, 'config.json');
    writeFileSync(
      configFile,
      JSON.stringify({
        rpc: { allowedMethods: ['chainConnector'] },
        plugins: {
          chainConnector: {
            receivingChainID: '04000001',
            receivingChainWsURL: 'ws://127.0.0.1:9/rpc-ws',
            encryptedPrivateKey: stringifyEncryptedMessage(encrypted),
          },
        },
      }),
    );
    node = startBasaltNode(['--data-path', join(dir, 'data'), '--config', configFile, '--enable-chain-connector-plugin']);
    const { rpc: port } = await node.ports(60_000);
    await waitFor(
      'three recorded blocks',
      async () => {
        const headers = await rpc<{ height: number }[]>(port, 'chainConnector_getBlockHeaders');
        return headers.length >= 3 ? headers : undefined;
      },
      60_000,
      { output: () => (node as NodeProcess).output() },
    );
    const info = await rpc<{ height: number }>(port, 'system_getNodeInfo');
    expect(info.height).toBeGreaterThanOrEqual(3);
    expect(await rpc(port, 'chainConnector_getSentCCUs')).toEqual([]);

    const wrong = await rpcAnswer(port, 'chainConnector_authorize', { password: 'wrong', enable: true });
    expect(wrong.error?.code).toBe(-32602);
    expect(wrong.error?.message).toContain('the password does not decrypt the configured encryptedPrivateKey');
    expect(await rpc(port, 'chainConnector_authorize', { password: 'right', enable: true })).toEqual({
      result: 'Successfully enabled the chain connector plugin.',
    });

    const log = node.output();
    expect(log).not.toContain(privateKey);
    expect(log.match(/the receiving chain is unreachable/g)).toHaveLength(1);
  });
});
