/**
 * The plugin API end to end: `basalt start --config examples/hello/config.json` runs
 * the hello example (a custom `hello` module added through the plugin API, plus the helloFeed
 * plugin's methods and event). Lisk's api-client sends `hello:createHello`, sees the block's
 * `newHello` event, the plugin's `helloFeed_newHello` notification (WS and IPC) and the
 * `hello_getHello` answer. The plugin's sensitive method is refused until a restart with
 * `--overwrite-config` and `rpc.allowedMethods` naming the plugin, and the chain's custom state
 * survives that restart.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createIPCClient, createWSClient, type APIClient } from '@liskhq/lisk-api-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressFromPublicKey, ed25519KeyPairFromPassphrase, encodeLisk32 } from '../../src/crypto/index.js';
import { runBasalt } from '../support/cli.js';
import {
  ROOT,
  rpcAnswer as rpc,
  startBasaltNode as startNode,
  stopProcess as stopNode,
  waitFor,
  waitForHeight as waitForTip,
  type NodeProcess,
} from '../support/node-process.js';
const EXAMPLE_CONFIG = join(ROOT, 'examples/hello/config.json');
// config/devnet/DEV_PASSPHRASES.md, "Funded accounts": public, devnet only.
const ACCOUNTS_PASSPHRASE =
  'balcony timber spider replace olympic innocent obvious slogan select tunnel health adjust setup fork scrub lion coconut wife ice color process access minute palace';

interface FeedEntry {
  height: number;
  transactionID: string;
  senderAddress: string;
  message: string;
}

const waitForHeight = (port: number, height: number, node: NodeProcess): Promise<number> =>
  waitForTip(port, height, 60_000, { output: node.output });

describe('the hello example as a plugin of a running node', () => {
  let dir: string;
  let dataPath: string;
  let port: number;
  let node: NodeProcess | undefined;
  let ws: APIClient | undefined;
  let ipc: APIClient | undefined;
  const sender = ed25519KeyPairFromPassphrase(ACCOUNTS_PASSPHRASE, "m/44'/134'/2'");
  const senderAddress = encodeLisk32(addressFromPublicKey(sender.publicKey));
  let hello: FeedEntry;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'basalt-plugins-'));
    dataPath = join(dir, 'hello-node');
    node = startNode(['--config', EXAMPLE_CONFIG, '--data-path', dataPath]);
    port = (await node.ports()).rpc;
    await waitForHeight(port, 1, node);
    ws = await createWSClient(`ws://127.0.0.1:${port}/rpc-ws`);
    ipc = await createIPCClient(dataPath);
  });

  afterAll(async () => {
    await ws?.disconnect().catch(() => undefined);
    await ipc?.disconnect().catch(() => undefined);
    if (node) await stopNode(node.child);
    rmSync(dir, { recursive: true, force: true });
  });

  it('registers the custom module, its endpoints and the plugin methods and event', async () => {
    const client = ws as APIClient;
    const helloMetadata = client.metadata.find((module) => module.name === 'hello') as unknown as {
      commands: { name: string }[];
      events: { name: string }[];
      endpoints: { name: string }[];
      stores: unknown[];
    };
    expect(helloMetadata.commands.map((command) => command.name)).toEqual(['createHello']);
    expect(helloMetadata.events.map((event) => event.name)).toEqual(['newHello']);
    expect(helloMetadata.endpoints.map((endpoint) => endpoint.name)).toEqual(['getHello', 'getHelloCounter']);
    expect(helloMetadata.stores).toHaveLength(2);
    const endpoints = (await client.invoke('app_getRegisteredEndpoints')) as string[];
    expect(endpoints).toEqual(
      expect.arrayContaining(['hello_getHello', 'hello_getHelloCounter', 'helloFeed_getLatestHellos', 'helloFeed_clearHistory']),
    );
    expect(await client.invoke('app_getRegisteredEvents')).toContain('helloFeed_newHello');
    // The stored config points at the plugin file by an absolute path, so a restart from anywhere finds it.
    const stored = JSON.parse(readFileSync(join(dataPath, 'config', 'config.json'), 'utf8')) as {
      plugins: { helloFeed: { path: string } };
    };
    expect(stored.plugins.helloFeed.path).toBe(join(ROOT, 'examples/hello/plugin.ts'));
  });

  it('runs hello:createHello sent with the api-client: newHello event, plugin notification, hello_getHello', async () => {
    const client = ws as APIClient;
    const overWs: FeedEntry[] = [];
    const overIpc: FeedEntry[] = [];
    client.subscribe('helloFeed_newHello', (data) => void overWs.push(data as unknown as FeedEntry));
    (ipc as APIClient).subscribe('helloFeed_newHello', (data) => void overIpc.push(data as unknown as FeedEntry));
    expect(await client.invoke('hello_getHelloCounter')).toEqual({ counter: '0' });

    const transaction = await client.transaction.create(
      { module: 'hello', command: 'createHello', fee: '1000000', params: { message: 'Hello from the api-client' } },
      sender.privateKey.toString('hex'),
    );
    expect(await client.transaction.send(transaction)).toEqual({ transactionId: transaction.id });

    hello = await waitFor('helloFeed_newHello over WS', async () => overWs[0], 60_000, { output: node?.output });
    expect(hello).toEqual({
      height: expect.any(Number),
      transactionID: transaction.id,
      senderAddress,
      message: 'Hello from the api-client',
    });
    await waitFor('helloFeed_newHello over IPC', async () => overIpc[0], 10_000);
    expect(overIpc).toEqual([hello]);

    // The module's own event, in the block, decoded by the client with the module's metadata.
    const events = (await client.event.get(hello.height, { module: 'hello' })) as unknown as {
      name: string;
      data: unknown;
      topics: string[];
    }[];
    const newHello = events.filter((event) => event.name === 'newHello');
    expect(newHello.map((event) => event.data)).toEqual([{ senderAddress, message: 'Hello from the api-client' }]);
    expect(newHello[0]?.topics[0]).toBe(`04${transaction.id}`);
    expect(events.find((event) => event.name === 'commandExecutionResult')?.data).toEqual({ success: true });
    const block = (await client.block.getByHeight(hello.height)) as unknown as { transactions: { id: string; params: unknown }[] };
    expect(block.transactions.find((tx) => tx.id === transaction.id)?.params).toEqual({ message: 'Hello from the api-client' });

    expect(await client.invoke('hello_getHello', { address: senderAddress })).toEqual({ message: 'Hello from the api-client', count: 1 });
    expect(await (ipc as APIClient).invoke('hello_getHelloCounter')).toEqual({ counter: '1' });
    expect(await client.invoke('helloFeed_getLatestHellos', { limit: 5 })).toEqual({ hellos: [hello] });
  });

  it("answers the custom module's errors with standard codes", async () => {
    const nobody = encodeLisk32(Buffer.alloc(20, 7));
    expect((await rpc(port, 'hello_getHello', { address: nobody })).error).toEqual({ code: -32001, message: `No hello from ${nobody}.` });
    expect((await rpc(port, 'hello_getHello', {})).error).toEqual({
      code: -32602,
      message: "Invalid params: params: must have required property 'address'",
    });
    expect((await rpc(port, 'helloFeed_getLatestHellos', { limit: 0 })).error).toEqual({
      code: -32602,
      message: 'Invalid params: params.limit: must be >= 1',
    });
    // The module's verify (config blacklist) keeps a bad hello out of the pool.
    const bad = await (ws as APIClient).transaction.create(
      { module: 'hello', command: 'createHello', fee: '1000000', params: { message: 'an illegalWord1 here' } },
      sender.privateKey.toString('hex'),
    );
    await expect((ws as APIClient).transaction.send(bad)).rejects.toThrow(
      'The hello message contains the blacklisted word "illegalword1".',
    );
  });

  it("refuses the plugin's sensitive method unless rpc.allowedMethods names it, after a restart with --overwrite-config", async () => {
    expect((await rpc(port, 'helloFeed_clearHistory')).error).toEqual({
      code: -32002,
      message: 'Requested method or namespace is disabled in node config.',
    });
    // The example config allows random: its sensitive hash-onion methods answer.
    expect((await rpc(port, 'random_hasHashOnion', { address: senderAddress })).error).toBeUndefined();

    await ws?.disconnect();
    await ipc?.disconnect();
    ws = undefined;
    ipc = undefined;
    expect(await stopNode((node as NodeProcess).child)).toBe(0);
    node = undefined;

    const example = JSON.parse(readFileSync(EXAMPLE_CONFIG, 'utf8')) as {
      rpc: { allowedMethods: string[] };
      plugins: { helloFeed: { path: string } };
    };
    example.rpc.allowedMethods = [...example.rpc.allowedMethods, 'helloFeed'];
    example.plugins.helloFeed.path = join(ROOT, 'examples/hello/plugin.ts');
    const opened = join(dir, 'opened.json');
    writeFileSync(opened, JSON.stringify(example));

    // A changed config is refused without --overwrite-config, leaving the data directory as it was.
    const refused = await runBasalt(['start', '--config', opened, '--data-path', dataPath, '--api-port', '0']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--overwrite-config');

    node = startNode(['--config', opened, '--overwrite-config', '--data-path', dataPath]);
    port = (await node.ports()).rpc;
    await waitForHeight(port, hello.height + 1, node);
    // Chain state of the custom module survived; the plugin refilled its feed from the stored events.
    expect((await rpc(port, 'hello_getHello', { address: senderAddress })).result).toEqual({
      message: 'Hello from the api-client',
      count: 1,
    });
    expect((await rpc(port, 'helloFeed_getLatestHellos')).result).toEqual({ hellos: [hello] });
    expect((await rpc(port, 'helloFeed_clearHistory')).result).toEqual({ cleared: 1 });
    expect((await rpc(port, 'helloFeed_getLatestHellos')).result).toEqual({ hellos: [] });
  });
});
