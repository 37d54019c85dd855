/**
 * Lisk's own CLI against Basalt: lisk-commander 6.1.0 (installed from npm into LISK_COMMANDER_DIR,
 * default /tmp/lisk-commander, when missing; it is no dependency of ours) drives a Basalt devnet
 * node over IPC, which it finds through `<dataPath>/tmp/pids/controller.pid`:
 * `lisk endpoint:invoke` answers must equal Basalt's own RPC answers, and a key file written by
 * `lisk keys:create` (passphrase and password as flags) must import with `basalt keys:import` and
 * show in generator_getAllKeys. About 40 s, plus about 30 s to install lisk-commander the first time.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBasalt } from '../support/cli.js';
import { liskPeerPresent } from '../support/lisk-peer.js';
import { rpc, startBasaltNode, stopProcess, waitForHeight, type NodeProcess } from '../support/node-process.js';

const run = promisify(execFile);
const INSTALL = process.env.LISK_COMMANDER_DIR ?? '/tmp/lisk-commander';
const LISK = join(INSTALL, 'node_modules', '.bin', 'lisk');
// config/devnet/DEV_PASSPHRASES.md: public, devnet only.
const PASSPHRASE =
  'cash rather pizza south catch ensure planet sorry method million affair nasty enter pottery smooth begin record issue olive pen digital laptop oppose report';
const ADDRESS = 'lskkefqb2rhqovmyeabtwcnte8u5fykj2e39bysrb';
const TOKEN_ID = '0400000000000000';

/** Runs lisk-commander's `lisk` and parses its JSON output. */
async function lisk<T>(args: readonly string[]): Promise<T> {
  const { stdout } = await run(LISK, [...args], { timeout: 120_000, env: { ...process.env, NODE_NO_WARNINGS: '1' } });
  return JSON.parse(stdout) as T;
}

// Runs with the other interop tests (which need the tools directory) so that `npm test` stays offline.
describe.skipIf(!liskPeerPresent)('lisk-commander 6.1.0 against a Basalt node', () => {
  let dir: string;
  let dataPath: string;
  let rpcPort: number;
  let node: NodeProcess;

  beforeAll(async () => {
    if (!existsSync(LISK)) {
      mkdirSync(INSTALL, { recursive: true });
      if (!existsSync(join(INSTALL, 'package.json'))) writeFileSync(join(INSTALL, 'package.json'), '{"private":true}\n');
      await run('npm', ['install', '--no-audit', '--no-fund', 'lisk-commander@6.1.0'], { cwd: INSTALL, timeout: 600_000 });
    }
    dir = mkdtempSync(join(tmpdir(), 'basalt-lisk-commander-'));
    dataPath = join(dir, 'data');
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ rpc: { modes: ['ipc', 'http'], allowedMethods: ['generator', 'random'] } }));
    node = startBasaltNode(['--config', config, '--data-path', dataPath]);
    rpcPort = (await node.ports()).rpc;
    await waitForHeight(rpcPort, 2, 90_000, { output: node.output });
  }, 700_000);

  afterAll(async () => {
    if (node) await stopProcess(node.child);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('finds the node through controller.pid and answers endpoint:invoke as Basalt RPC does', async () => {
    expect(existsSync(join(dataPath, 'tmp', 'pids', 'controller.pid'))).toBe(true);
    const info = await lisk<{ chainID: string; height: number }>(['endpoint:invoke', 'system_getNodeInfo', '-d', dataPath]);
    const own = await rpc<{ chainID: string; height: number }>(rpcPort, 'system_getNodeInfo');
    // Blocks keep coming between the two calls: compare all but the moving fields.
    const still = ({ height, lastBlockID, finalizedHeight, unconfirmedTransactions, ...rest }: Record<string, unknown>) => rest;
    expect(still(info as never)).toEqual(still(own as never));
    expect(info.chainID).toBe('04000000');

    const last = await lisk<{ header: { height: number; id: string } }>(['endpoint:invoke', 'chain_getLastBlock', '-d', dataPath]);
    const same = await rpc<unknown>(rpcPort, 'chain_getBlockByHeight', { height: last.header.height });
    expect(last).toEqual(same);

    const params = JSON.stringify({ address: ADDRESS, tokenID: TOKEN_ID });
    const balance = await lisk<unknown>(['endpoint:invoke', 'token_getBalance', params, '-d', dataPath]);
    expect(balance).toEqual(await rpc(rpcPort, 'token_getBalance', { address: ADDRESS, tokenID: TOKEN_ID }));
  }, 120_000);

  it('imports a key file from lisk keys:create with basalt keys:import', async () => {
    const file = join(dir, 'keys.json');
    await run(LISK, ['keys:create', '--passphrase', PASSPHRASE, '--password', 'elephant tree paris', '--chainid', '4', '--output', file], {
      timeout: 120_000,
    });
    const created = JSON.parse(readFileSync(file, 'utf8')) as { keys: { address: string; encrypted: unknown }[] };
    // The account of m/44'/134'/0' (not the legacy key of the devnet validator).
    const address = created.keys[0]?.address;
    expect(address).toMatch(/^lsk[a-z0-9]{38}$/);
    const imported = await runBasalt(['keys:import', '--file-path', file, '--data-path', dataPath]);
    expect(imported.code, imported.stderr).toBe(0);
    const { keys } = await rpc<{ keys: { address: string; type: string }[] }>(rpcPort, 'generator_getAllKeys');
    expect(keys.find((entry) => entry.address === address)?.type).toBe('encrypted');
  }, 180_000);
});
