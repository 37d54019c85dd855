/**
 * The commands that talk to a node, against a real in-process RpcServer serving IPC (Lisk's
 * ZeroMQ sockets under the data path) and HTTP: the generator methods on a real LMDB store,
 * stand-ins for the chain, system and app methods. Covers the IPC client (not running, method
 * disabled, errors), endpoint:invoke/list, block:get, system:*, keys:import/export,
 * generator:enable/disable/status/export/import.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open, type RootDatabase } from 'lmdb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { BlockHeader } from '../../../src/chain/block-header.js';
import { UsageError, type CliCommand } from '../../../src/cli/command.js';
import { blockGetCommand } from '../../../src/cli/commands/block-get.js';
import { endpointInvokeCommand } from '../../../src/cli/commands/endpoint-invoke.js';
import { endpointListCommand } from '../../../src/cli/commands/endpoint-list.js';
import { generatorDisableCommand } from '../../../src/cli/commands/generator-disable.js';
import { generatorEnableCommand } from '../../../src/cli/commands/generator-enable.js';
import { generatorExportCommand } from '../../../src/cli/commands/generator-export.js';
import { generatorImportCommand } from '../../../src/cli/commands/generator-import.js';
import { generatorStatusCommand } from '../../../src/cli/commands/generator-status.js';
import { keysExportCommand } from '../../../src/cli/commands/keys-export.js';
import { keysImportCommand } from '../../../src/cli/commands/keys-import.js';
import { systemMetadataCommand } from '../../../src/cli/commands/system-metadata.js';
import { systemNodeInfoCommand } from '../../../src/cli/commands/system-node-info.js';
import { keysFileEntry } from '../../../src/cli/support/keys-file.js';
import { plainKeysPlaintext } from '../../../src/cli/support/keys-file.js';
import { deriveValidatorKeys, encryptMessageWithPassword } from '../../../src/crypto/index.js';
import type { GeneratorKeypair } from '../../../src/engine/generator/generator-keypair.js';
import { GeneratorStore } from '../../../src/engine/generator/generator-store.js';
import { NotFoundError } from '../../../src/errors.js';
import { silentLogger } from '../../../src/logger.js';
import { createAppEndpoints } from '../../../src/rpc/endpoints/app-endpoints.js';
import { createGeneratorEndpoints } from '../../../src/rpc/endpoints/generator-endpoints.js';
import { IpcTransport } from '../../../src/rpc/ipc-transport.js';
import { RpcRegistry } from '../../../src/rpc/registry.js';
import { RpcServer } from '../../../src/rpc/server.js';
import { generatorControlFor } from '../../support/generator-control.js';
import { captureIO } from './support.js';

const PHRASE = 'target cancel solution recipe vague faint bomb convince pink vendor fresh patrol';
const keysA = deriveValidatorKeys(PHRASE, { chainIndex: 4, accountIndex: 0 });
const keysB = deriveValidatorKeys(PHRASE, { chainIndex: 4, accountIndex: 1 });
const PASSWORD = 'node-commands-pw';

const root = mkdtempSync(join(tmpdir(), 'bnc-'));
const dataPath = join(root, 'd');
const idle = join(root, 'idle');
let env: RootDatabase;
let server: RpcServer;
let restricted: RpcServer;
let restrictedPath: string;
const enabled = new Map<string, GeneratorKeypair>();

function registryFor(store: GeneratorStore): RpcRegistry {
  const registry = new RpcRegistry();
  const headers = new Map<number, Partial<BlockHeader>>([[0, { version: 0, height: 0, timestamp: 0, maxHeightPrevoted: 0 }]]);
  for (let h = 1; h <= 10; h += 1) headers.set(h, { version: 2, height: h, timestamp: 10 * h, maxHeightPrevoted: h - 2 });
  const methods = [
    ...createGeneratorEndpoints(
      generatorControlFor(store, enabled, {
        tipHeight: () => 10,
        finalizedHeight: () => 5,
        genesisHeight: () => 0,
        getHeaderByHeight: (h) => headers.get(h) as BlockHeader | undefined,
      }),
    ),
    { namespace: 'system', name: 'getNodeInfo', invoke: () => ({ chainID: '04000000', height: 10 }) },
    {
      namespace: 'system',
      name: 'getMetadata',
      invoke: () => ({
        modules: [
          { name: 'token', commands: [], endpoints: [{ name: 'getBalance', request: { type: 'object' } }, { name: 'getBalances' }] },
        ],
      }),
    },
    { namespace: 'token', name: 'getBalance', invoke: () => ({ availableBalance: '1' }) },
    { namespace: 'token', name: 'getBalances', invoke: () => ({ balances: [] }) },
    {
      namespace: 'chain',
      name: 'getBlockByHeight',
      request: { type: 'object', required: ['height'], properties: { height: { type: 'integer', minimum: 0 } } },
      invoke: (params: Record<string, unknown>) => {
        if ((params.height as number) > 10) throw new NotFoundError(`Block at height ${String(params.height)} does not exist.`);
        return { header: { height: params.height } };
      },
    },
    { namespace: 'chain', name: 'getBlockByID', invoke: (params: Record<string, unknown>) => ({ header: { id: params.id } }) },
    ...createAppEndpoints(registry),
  ];
  for (const method of methods) registry.register(method);
  return registry;
}

async function startServer(path: string, allowedMethods: string[]): Promise<RpcServer> {
  const rpc = new RpcServer(
    { modes: ['http', 'ws'], host: '127.0.0.1', port: 0, allowedMethods },
    registryFor(new GeneratorStore(env)),
    silentLogger,
  );
  rpc.addTransport(new IpcTransport(rpc.dispatcher, { dataPath: path }, silentLogger));
  await rpc.start();
  writeFileSync(join(path, 'basalt.lock'), String(process.pid));
  return rpc;
}

beforeAll(async () => {
  env = open({ path: join(root, 'db') });
  server = await startServer(dataPath, ['generator']);
  restrictedPath = join(root, 'r');
  restricted = await startServer(restrictedPath, []);
});

afterAll(async () => {
  await server?.stop();
  await restricted?.stop();
  env?.close();
  rmSync(root, { recursive: true, force: true });
});

async function run(command: CliCommand, args: string[], input = '') {
  const io = captureIO(input);
  const code = await command.run(args, io);
  return { code, out: io.out(), err: io.err() };
}

describe('talking to the node', () => {
  it('explains a node that is not running, and refuses usage errors before connecting', async () => {
    await expect(run(systemNodeInfoCommand, ['--data-path', idle])).rejects.toThrow(`Application at data path ${idle} is not running.`);
    await expect(run(endpointInvokeCommand, ['--data-path', idle])).rejects.toThrow(UsageError);
    await expect(run(endpointInvokeCommand, ['x_y', '{bad', '--data-path', idle])).rejects.toThrow('The params are not valid JSON.');
    await expect(run(generatorEnableCommand, ['lskxyz', '--use-status-value'])).rejects.toThrow('ADDRESS must be a lisk32 address.');
    await expect(run(generatorEnableCommand, [keysA.address, '--height', '1'])).rejects.toThrow(
      'All of the following must be provided: --height, --max-height-generated, --max-height-prevoted',
    );
    await expect(run(generatorEnableCommand, [keysA.address, '--height', '1', '--use-status-value'])).rejects.toThrow(UsageError);
    await expect(run(blockGetCommand, ['12x', '--data-path', dataPath])).rejects.toThrow(UsageError);
  });

  it('endpoint:invoke over IPC and HTTP; errors name the method and carry the node message', async () => {
    expect(await run(endpointInvokeCommand, ['system_getNodeInfo', '--data-path', dataPath])).toEqual({
      code: 0,
      out: '{"chainID":"04000000","height":10}\n',
      err: '',
    });
    const pretty = await run(endpointInvokeCommand, [
      'chain_getBlockByHeight',
      '{"height":3}',
      '--url',
      `http://127.0.0.1:${server.port}`,
      '--pretty',
    ]);
    expect(pretty.out).toBe('{\n  "header": {\n    "height": 3\n  }\n}\n');
    await expect(run(endpointInvokeCommand, ['chain_getBlockByHeight', '{"height":-1}', '--data-path', dataPath])).rejects.toThrow(
      'chain_getBlockByHeight: Invalid params: params.height: must be >= 0',
    );
    await expect(run(endpointInvokeCommand, ['nope_nothing', '--data-path', dataPath])).rejects.toThrow(
      'nope_nothing: Method "nope_nothing" not found.',
    );
    await expect(run(endpointInvokeCommand, ['generator_getStatus', '--data-path', restrictedPath])).rejects.toThrow(
      'generator_getStatus: Requested method or namespace is disabled in node config. (add "generator" or "generator_getStatus" to rpc.allowedMethods',
    );
    const file = join(root, 'params.json');
    writeFileSync(file, '{"height":4}');
    expect((await run(endpointInvokeCommand, ['chain_getBlockByHeight', '--file', file, '--data-path', dataPath])).out).toBe(
      '{"header":{"height":4}}\n',
    );
    await expect(
      run(endpointInvokeCommand, ['chain_getBlockByHeight', '--file', join(root, 'none.json'), '--data-path', dataPath]),
    ).rejects.toThrow('does not exist.');
  });

  it('--url ws:// uses the runtime WebSocket (Node 22+), and says so when there is none', async () => {
    const holder = globalThis as { WebSocket?: unknown };
    const original = holder.WebSocket;
    try {
      holder.WebSocket = undefined;
      await expect(run(systemNodeInfoCommand, ['--url', `ws://127.0.0.1:${server.port}`])).rejects.toThrow(
        'WebSocket --url needs Node 22 or later',
      );
      holder.WebSocket = WebSocket; // the `ws` package stands in for Node 22's global
      expect(JSON.parse((await run(systemNodeInfoCommand, ['--url', `ws://127.0.0.1:${server.port}`])).out)).toEqual({
        chainID: '04000000',
        height: 10,
      });
      await expect(run(endpointInvokeCommand, ['generator_getStatus', '--url', `ws://127.0.0.1:${restricted.port}`])).rejects.toThrow(
        'generator_getStatus: Requested method or namespace is disabled in node config.',
      );
    } finally {
      holder.WebSocket = original;
    }
    await expect(run(systemNodeInfoCommand, ['--url', 'ftp://127.0.0.1:1'])).rejects.toThrow('Unsupported --url ftp://');
    await expect(run(systemNodeInfoCommand, ['--url', 'http://127.0.0.1:1'])).rejects.toThrow(
      'system_getNodeInfo: cannot reach the node at http://127.0.0.1:1',
    );
  });

  it('endpoint:list, block:get, system:node-info, system:metadata', async () => {
    const all = JSON.parse((await run(endpointListCommand, ['--data-path', dataPath])).out) as string[];
    expect(all).toContain('generator_updateStatus');
    expect(all).toContain('token_getBalance');
    expect(JSON.parse((await run(endpointListCommand, ['--module', 'token', '--data-path', dataPath])).out)).toEqual([
      'token_getBalance',
      'token_getBalances',
    ]);
    expect(JSON.parse((await run(endpointListCommand, ['balance$', '-m', 'token', '-i', '--data-path', dataPath])).out)).toEqual([
      { name: 'token_getBalance', request: { type: 'object' } },
    ]);
    expect(JSON.parse((await run(blockGetCommand, ['3', '--data-path', dataPath])).out)).toEqual({ header: { height: 3 } });
    const id = 'AB'.repeat(32);
    expect(JSON.parse((await run(blockGetCommand, [id, '--data-path', dataPath])).out)).toEqual({ header: { id: id.toLowerCase() } });
    await expect(run(blockGetCommand, ['11', '--data-path', dataPath])).rejects.toThrow('Block with given id or height was not found.');
    expect(JSON.parse((await run(systemNodeInfoCommand, ['--data-path', dataPath])).out)).toEqual({ chainID: '04000000', height: 10 });
    expect(JSON.parse((await run(systemMetadataCommand, ['--data-path', dataPath])).out).modules[0].name).toBe('token');
  });

  it('keys:import (encrypted preferred), generator:status/enable/disable, keys:export, generator:export/import', async () => {
    const encrypted = await encryptMessageWithPassword(plainKeysPlaintext(keysFileEntry(keysA, undefined).plain as never), PASSWORD, {
      kdfparams: { memorySize: 64 },
    });
    const file = join(root, 'keys.json');
    writeFileSync(file, JSON.stringify({ keys: [keysFileEntry(keysA, encrypted), keysFileEntry(keysB, undefined)] }));
    expect(await run(keysImportCommand, ['--file-path', file, '--data-path', dataPath])).toEqual({ code: 0, out: '', err: '' });

    const exported = join(root, 'export', 'keys.json');
    await run(keysExportCommand, ['--output', exported, '--data-path', dataPath]);
    expect(statSync(exported).mode & 0o777).toBe(0o600);
    const { keys } = JSON.parse(readFileSync(exported, 'utf8')) as { keys: { address: string; encrypted?: object; plain?: object }[] };
    const { mac: _mac, ...storedEncrypted } = encrypted;
    const byAddress = new Map(keys.map((key) => [key.address, key]));
    expect(byAddress.get(keysA.address)).toEqual({ address: keysA.address, encrypted: storedEncrypted });
    expect(byAddress.get(keysB.address)).toEqual({
      address: keysB.address,
      plain: {
        generatorKey: keysB.generatorKey.toString('hex'),
        generatorPrivateKey: keysB.generatorPrivateKey.toString('hex'),
        blsKey: keysB.blsKey.toString('hex'),
        blsPrivateKey: keysB.blsPrivateKey.toString('hex'),
      },
    });

    expect(JSON.parse((await run(generatorStatusCommand, ['--data-path', dataPath])).out)).toEqual({ info: { status: [] } });
    await expect(
      run(generatorEnableCommand, [keysA.address, '--use-status-value', '--data-path', dataPath], `${PASSWORD}\n`),
    ).rejects.toThrow(`Status for ${keysA.address} not found in the node.`);
    await expect(
      run(
        generatorEnableCommand,
        [keysA.address, '--height', '0', '--max-height-generated', '0', '--max-height-prevoted', '0', '--data-path', dataPath],
        'wrong\n',
      ),
    ).rejects.toThrow('generator_updateStatus: Unsupported state or unable to authenticate data');
    const enable = await run(
      generatorEnableCommand,
      [keysA.address, '--height', '0', '--max-height-generated', '0', '--max-height-prevoted', '0', '--data-path', dataPath],
      `${PASSWORD}\n`,
    );
    expect(enable).toEqual({
      code: 0,
      out: `Enabled block generation for ${keysA.address}\n`,
      err: 'Enter password to decrypt the encrypted passphrase: \n',
    });
    expect(enabled.size).toBe(1);

    const info = join(root, 'generator_info.json');
    expect((await run(generatorExportCommand, ['--output', info, '--data-path', dataPath])).out).toBe(
      `Generator info is exported to ${info}\n`,
    );
    const exportedInfo = JSON.parse(readFileSync(info, 'utf8')) as { keys: unknown[]; generatorInfo: unknown[] };
    expect(exportedInfo.keys).toHaveLength(2);
    expect(exportedInfo.generatorInfo).toEqual([{ address: keysA.address, height: 0, maxHeightGenerated: 0, maxHeightPrevoted: 0 }]);

    const status = JSON.parse((await run(generatorStatusCommand, ['--data-path', dataPath])).out) as {
      info: { status: { enabled: boolean; generatorKey: string }[] };
    };
    expect(status.info.status).toMatchObject([{ enabled: true, generatorKey: keysA.generatorKey.toString('hex') }]);

    expect(await run(generatorDisableCommand, [keysA.address, '--data-path', dataPath, '--password', PASSWORD])).toEqual({
      code: 0,
      out: `Disabled block generation for ${keysA.address}\n`,
      err: '',
    });
    expect(enabled.size).toBe(0);

    writeFileSync(
      info,
      JSON.stringify({
        ...exportedInfo,
        generatorInfo: [{ address: keysB.address, height: 9, maxHeightGenerated: 8, maxHeightPrevoted: 7 }],
      }),
    );
    expect(await run(generatorImportCommand, ['--file-path', info, '--data-path', dataPath])).toEqual({ code: 0, out: '', err: '' });
    const after = JSON.parse((await run(generatorStatusCommand, ['--data-path', dataPath])).out) as {
      info: { status: { address: string; height: number }[] };
    };
    expect(after.info.status.find((entry) => entry.address === keysB.address)?.height).toBe(9);
    // B's keys are plain: the password is asked (as in Lisk) but not needed; status values must match.
    await run(generatorEnableCommand, [keysB.address, '--use-status-value', '--data-path', dataPath], 'anything\n');
    expect(enabled.size).toBe(1);
  });
});
