/**
 * The IPC transport of a real RpcServer (modes ['ipc']) on a temporary data path, driven by
 * Lisk's own `@liskhq/lisk-api-client` (`createIPCClient`) and by raw zeromq sockets: init,
 * requests and errors, concurrency, events on the PUB socket, stop, restart after a crash.
 */
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createIPCClient } from '@liskhq/lisk-api-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Dealer, Request, Subscriber } from 'zeromq';
import { NotFoundError } from '../../src/errors.js';
import { silentLogger } from '../../src/logger.js';
import { IpcTransport, MULTI_FRAME_REQUEST_RESPONSE, type IpcTransportOptions } from '../../src/rpc/ipc-transport.js';
import { RpcRegistry, type RpcMethod } from '../../src/rpc/registry.js';
import { RpcServer } from '../../src/rpc/server.js';
import { loadJsonFixture } from '../support/fixtures.js';
import { sleep, waitFor } from '../unit/rpc/live-server.js';
import { EVENT_NAMES, buildTestMethods } from '../unit/rpc/test-methods.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

interface BlockLine {
  height: number;
  id: string;
  blockJson: { header: Record<string, unknown>; transactions: Record<string, unknown>[]; assets: Record<string, unknown>[] };
}
interface StateEntry {
  method: string;
  result?: unknown;
}

// Real answers of a lisk-sdk 6.1.0 node (test/fixtures/chains/dev): what the api-client's init decodes.
const metadata = loadJsonFixture<{ modules: unknown[] }>('chains/dev/metadata.json');
const schema = loadJsonFixture<Record<string, unknown>>('chains/dev/schema.json');
const nodeInfo = (
  loadJsonFixture<{ global: StateEntry[] }>('chains/dev/final_state.json').global.find(
    (entry) => entry.method === 'system_getNodeInfo',
  ) as StateEntry
).result as Record<string, unknown>;
const blocks = new Map<number, BlockLine>();
for (const line of readFileSync(join(ROOT, 'test/fixtures/chains/dev/blocks.ndjson'), 'utf8').split('\n')) {
  if (line === '') continue;
  const block = JSON.parse(line) as BlockLine;
  if (block.height <= 5) blocks.set(block.height, block);
}

/** Stand-ins of the engine endpoints the api-client calls, answering real lisk-sdk data. */
function chainMethods(): RpcMethod[] {
  return [
    { namespace: 'system', name: 'getMetadata', invoke: () => metadata },
    { namespace: 'system', name: 'getSchema', invoke: () => schema },
    { namespace: 'system', name: 'getNodeInfo', invoke: () => nodeInfo },
    {
      namespace: 'chain',
      name: 'getBlockByHeight',
      request: { type: 'object', required: ['height'], properties: { height: { type: 'integer', minimum: 0 } } },
      invoke: async (params) => {
        await Promise.resolve();
        const block = blocks.get(params.height as number);
        if (block === undefined) throw new NotFoundError(`Block at height ${String(params.height)} does not exist.`);
        return block.blockJson;
      },
    },
  ];
}

/** How many `test_tracked` calls run at once, at most, since the last reset. */
const tracked = { active: 0, peak: 0 };
const trackedMethod: RpcMethod = {
  namespace: 'test',
  name: 'tracked',
  invoke: async (params) => {
    tracked.active += 1;
    tracked.peak = Math.max(tracked.peak, tracked.active);
    await sleep(Number(params.ms));
    tracked.active -= 1;
    return { n: params.n };
  },
};

function buildRegistry(): RpcRegistry {
  const registry = new RpcRegistry();
  for (const method of [...chainMethods(), ...buildTestMethods(), trackedMethod]) registry.register(method);
  for (const name of EVENT_NAMES) registry.registerEvent(name);
  return registry;
}

interface IpcNode {
  server: RpcServer;
  transport: IpcTransport;
}

async function startIpcNode(dataPath: string, options: Partial<IpcTransportOptions> = {}): Promise<IpcNode> {
  const server = new RpcServer({ modes: ['ipc'], host: '127.0.0.1', port: 0, allowedMethods: [] }, buildRegistry(), silentLogger);
  const transport = new IpcTransport(server.dispatcher, { dataPath, ...options }, silentLogger);
  server.addTransport(transport);
  await server.start();
  return { server, transport };
}

const tempRoots: string[] = [];
function tempDataPath(): string {
  const root = mkdtempSync(join(tmpdir(), 'basalt-ipc-'));
  tempRoots.push(root);
  return root;
}
afterAll(() => {
  for (const root of tempRoots) rmSync(root, { recursive: true, force: true });
});

function socketFiles(transport: IpcTransport): string[] {
  return Object.values(transport.socketPaths);
}

/** Publishes `eventName` every 25 ms until `arrived` holds (ZeroMQ subscriptions reach the publisher asynchronously). */
async function publishUntil(server: RpcServer, eventName: string, data: unknown, arrived: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!arrived() && Date.now() < deadline) {
    server.publish(eventName, data);
    await sleep(25);
  }
  expect(arrived()).toBe(true);
}

describe('with @liskhq/lisk-api-client createIPCClient', () => {
  let dataPath: string;
  let node: IpcNode;
  let client: Awaited<ReturnType<typeof createIPCClient>>;

  beforeAll(async () => {
    dataPath = tempDataPath();
    node = await startIpcNode(dataPath);
  });

  afterAll(async () => {
    await node.server.stop();
  });

  it('binds the three sockets under <dataPath>/tmp/sockets with the names Lisk uses', () => {
    expect(node.transport.socketDir).toBe(join(dataPath, 'tmp', 'sockets'));
    expect(node.transport.socketPaths).toEqual({
      rpc: join(dataPath, 'tmp', 'sockets', 'engine.external.rpc.ipc'),
      pub: join(dataPath, 'tmp', 'sockets', 'external.pub.ipc'),
      sub: join(dataPath, 'tmp', 'sockets', 'external.sub.ipc'),
    });
    for (const path of socketFiles(node.transport)) expect(lstatSync(path).isSocket()).toBe(true);
    expect(statSync(node.transport.socketDir).mode & 0o777).toBe(0o700);
    // Nobody is connected yet: the server need not serialize events for IPC.
    expect(node.transport.hasSubscribers()).toBe(false);
  });

  it('connects and runs init: system_getMetadata, system_getSchema, system_getNodeInfo', async () => {
    client = await createIPCClient(dataPath);
    expect(client.metadata).toEqual(metadata.modules);
    expect(client.schema).toEqual(schema);
    expect(await client.node.getNodeInfo()).toEqual(nodeInfo);
    expect(await waitFor(() => node.transport.hasSubscribers(), 5_000)).toBe(true);
  });

  it('invokes methods and decodes a real block with the metadata it fetched', async () => {
    expect(await client.invoke('test_sum', { a: 2, b: 40 })).toBe(42);
    expect(await client.invoke('test_echo', { text: 'héllo', nested: { list: [1, 2] } })).toEqual({
      text: 'héllo',
      nested: { list: [1, 2] },
    });
    expect(await client.invoke('test_raw')).toEqual({ cached: true });
    expect(await client.invoke('test_nothing')).toEqual({});

    const expected = blocks.get(2) as BlockLine;
    const block = (await client.block.getByHeight(2)) as unknown as {
      header: Record<string, unknown>;
      transactions: { module: string; command: string; params: Record<string, unknown> }[];
      assets: { module: string; data: Record<string, unknown> }[];
    };
    expect(block.header).toEqual(expected.blockJson.header);
    expect(block.header.id).toBe('ec666b973fbb3e7a1a516ad50fc690fe8b2e2c5abe108a37890daa2b24d24330');
    expect(block.transactions[0]?.module).toBe('pos');
    expect(block.transactions[0]?.command).toBe('registerValidator');
    // params were hex on the wire; the client decoded them with the command schema from the metadata.
    expect(block.transactions[0]?.params.name).toBe('oracle_val_one');
    expect(block.assets.map((asset) => asset.module)).toEqual(expected.blockJson.assets.map((asset) => asset.module));
  });

  it('turns every JSON-RPC error into a rejected promise with the message', async () => {
    await expect(client.invoke('chain_getBlockByHeight', { height: 999_999 })).rejects.toThrow('Block at height 999999 does not exist.');
    await expect(client.invoke('chain_getBlockByHeight', { height: -1 })).rejects.toThrow('Invalid params: params.height: must be >= 0');
    await expect(client.invoke('foo_bar')).rejects.toThrow('Method "foo_bar" not found.');
    await expect(client.invoke('test_secret')).rejects.toThrow('Requested method or namespace is disabled in node config.');
    await expect(client.invoke('test_crash')).rejects.toThrow(/^Internal error\.$/);
    await expect(client.invoke('test_crashAsync')).rejects.toThrow(/^Internal error\.$/);
    // The connection is still fine afterwards.
    expect(await client.invoke('test_sum', { a: 1, b: 1 })).toBe(2);
  });

  it('answers concurrent requests in completion order', async () => {
    const order: string[] = [];
    await Promise.all([
      client.invoke('test_slow', { ms: 300 }).then((result) => order.push(`slow:${JSON.stringify(result)}`)),
      client.invoke('test_echo', { fast: true }).then((result) => order.push(`fast:${JSON.stringify(result)}`)),
    ]);
    expect(order).toEqual(['fast:{"fast":true}', 'slow:{"waited":300}']);
  });

  it('delivers a subscribed event published by RpcServer.publish', async () => {
    const received: unknown[] = [];
    client.subscribe('chain_newBlock', (params) => {
      received.push(params);
    });
    const header = (blocks.get(3) as BlockLine).blockJson.header;
    await publishUntil(node.server, 'chain_newBlock', { blockHeader: header }, () => received.length > 0);
    expect(received[0]).toEqual({ blockHeader: header });
  });

  it('disconnects; the transport sees the subscriber leave', async () => {
    await client.disconnect();
    expect(await waitFor(() => !node.transport.hasSubscribers(), 5_000)).toBe(true);
  });

  it('stops: the socket files are removed, the directory stays', async () => {
    const files = socketFiles(node.transport);
    await node.server.stop();
    for (const path of files) expect(existsSync(path)).toBe(false);
    expect(existsSync(node.transport.socketDir)).toBe(true);
    expect(node.transport.hasSubscribers()).toBe(false);
    // Publishing after stop is a no-op, not a crash.
    node.server.publish('chain_newBlock', { blockHeader: {} });
    node.transport.publish('chain_newBlock', '{}');
  });
});

describe('wire framing with raw zeromq sockets', () => {
  let node: IpcNode;
  let dealer: Dealer;
  const MAX_MESSAGE = 4096;

  beforeAll(async () => {
    node = await startIpcNode(tempDataPath(), { maxMessageBytes: MAX_MESSAGE });
    dealer = new Dealer({ linger: 0, receiveTimeout: 5_000 });
    dealer.connect(`ipc://${node.transport.socketPaths.rpc}`);
  });

  afterAll(async () => {
    dealer.close();
    await node.server.stop();
  });

  async function ask(frames: string[]): Promise<string[]> {
    await dealer.send(frames);
    return (await dealer.receive()).map(String);
  }

  it('answers a one-frame request with exactly one frame', async () => {
    expect(await ask(['{"jsonrpc":"2.0","id":7,"method":"test_echo","params":{"x":1}}'])).toEqual([
      '{"jsonrpc":"2.0","id":7,"result":{"x":1}}',
    ]);
    expect(await ask(['{"jsonrpc":"2.0","id":"abc","method":"test_sum","params":{"a":1,"b":-1}}'])).toEqual([
      '{"jsonrpc":"2.0","id":"abc","error":{"code":-32602,"message":"Invalid params: params.b: must be >= 0"}}',
    ]);
  });

  it('answers parse errors, batches and multi-frame requests', async () => {
    expect(await ask(['{not json'])).toEqual([
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the request is not valid JSON."}}',
    ]);
    expect(
      await ask(['[{"jsonrpc":"2.0","id":1,"method":"test_sum","params":{"a":1,"b":2}},{"jsonrpc":"2.0","id":2,"method":"test_raw"}]']),
    ).toEqual(['[{"jsonrpc":"2.0","id":1,"result":3},{"jsonrpc":"2.0","id":2,"result":{"cached":true}}]']);
    expect(await ask(['{"jsonrpc":"2.0","id":1,', '"method":"test_raw"}'])).toEqual([MULTI_FRAME_REQUEST_RESPONSE]);
  });

  it("sends nothing for a notification: the next answer is the next request's", async () => {
    await dealer.send('{"jsonrpc":"2.0","method":"test_echo","params":{"n":1}}');
    await dealer.send('{"jsonrpc":"2.0","method":"test_crash"}');
    expect(await ask(['{"jsonrpc":"2.0","id":9,"method":"test_echo","params":{"n":2}}'])).toEqual([
      '{"jsonrpc":"2.0","id":9,"result":{"n":2}}',
    ]);
  });

  it('serves REQ clients too, echoing their empty delimiter frame', async () => {
    const request = new Request({ linger: 0, receiveTimeout: 5_000 });
    request.connect(`ipc://${node.transport.socketPaths.rpc}`);
    try {
      await request.send('{"jsonrpc":"2.0","id":1,"method":"test_sum","params":{"a":20,"b":22}}');
      expect((await request.receive()).map(String)).toEqual(['{"jsonrpc":"2.0","id":1,"result":42}']);
    } finally {
      request.close();
    }
  });

  it('keeps serving after a client leaves before its answer and after an oversized frame', async () => {
    const leaver = new Dealer({ linger: 0 });
    leaver.connect(`ipc://${node.transport.socketPaths.rpc}`);
    await leaver.send('{"jsonrpc":"2.0","id":1,"method":"test_slow","params":{"ms":100}}');
    await leaver.send(`{"jsonrpc":"2.0","id":2,"method":"test_echo","params":{"pad":"${'x'.repeat(MAX_MESSAGE)}"}}`);
    leaver.close();
    await sleep(200);
    expect(await ask(['{"jsonrpc":"2.0","id":10,"method":"test_sum","params":{"a":5,"b":5}}'])).toEqual([
      '{"jsonrpc":"2.0","id":10,"result":10}',
    ]);
  });

  it('publishes events as two frames [eventName, notification], filtered by prefix', async () => {
    const chainOnly = new Subscriber({ linger: 0, receiveTimeout: 5_000 });
    const everything = new Subscriber({ linger: 0, receiveTimeout: 5_000 });
    try {
      for (const subscriber of [chainOnly, everything]) subscriber.connect(`ipc://${node.transport.socketPaths.pub}`);
      chainOnly.subscribe('chain_');
      everything.subscribe('');
      // Wait until both subscriptions reached the publisher, with a probe event both match.
      const readyAt = [false, false];
      const probes = [chainOnly, everything].map(async (subscriber, index) => {
        const [name] = await subscriber.receive();
        expect(String(name)).toBe('chain_probe');
        readyAt[index] = true;
      });
      await publishUntil(node.server, 'chain_probe', {}, () => readyAt[0] === true && readyAt[1] === true);
      await Promise.all(probes);

      node.server.publish('network_newBlock', { blockHeader: { height: 1 } });
      node.server.publish('chain_newBlock', { blockHeader: { height: 2 } });

      const nextNonProbe = async (subscriber: Subscriber): Promise<string[]> => {
        for (;;) {
          const frames = (await subscriber.receive()).map(String);
          if (frames[0] !== 'chain_probe') return frames;
        }
      };
      expect(await nextNonProbe(chainOnly)).toEqual([
        'chain_newBlock',
        '{"jsonrpc":"2.0","method":"chain_newBlock","params":{"blockHeader":{"height":2}}}',
      ]);
      expect(await nextNonProbe(everything)).toEqual([
        'network_newBlock',
        '{"jsonrpc":"2.0","method":"network_newBlock","params":{"blockHeader":{"height":1}}}',
      ]);
      expect(await nextNonProbe(everything)).toEqual([
        'chain_newBlock',
        '{"jsonrpc":"2.0","method":"chain_newBlock","params":{"blockHeader":{"height":2}}}',
      ]);
    } finally {
      chainOnly.close();
      everything.close();
    }
  });
});

describe('concurrency limit', () => {
  it('runs at most maxConcurrentRequests at once and still answers every request', async () => {
    const node = await startIpcNode(tempDataPath(), { maxConcurrentRequests: 2 });
    const dealer = new Dealer({ linger: 0, receiveTimeout: 5_000 });
    try {
      dealer.connect(`ipc://${node.transport.socketPaths.rpc}`);
      tracked.active = 0;
      tracked.peak = 0;
      for (let n = 1; n <= 6; n += 1) await dealer.send(`{"jsonrpc":"2.0","id":${n},"method":"test_tracked","params":{"ms":30,"n":${n}}}`);
      const answers: string[] = [];
      for (let n = 1; n <= 6; n += 1) answers.push(String((await dealer.receive())[0]));
      expect(answers.sort()).toEqual([1, 2, 3, 4, 5, 6].map((n) => `{"jsonrpc":"2.0","id":${n},"result":{"n":${n}}}`).sort());
      expect(tracked.peak).toBe(2);
    } finally {
      dealer.close();
      await node.server.stop();
    }
  });

  it('stops promptly while requests are running and more wait for a slot', async () => {
    const node = await startIpcNode(tempDataPath(), { maxConcurrentRequests: 1 });
    const dealer = new Dealer({ linger: 0 });
    try {
      dealer.connect(`ipc://${node.transport.socketPaths.rpc}`);
      for (let n = 1; n <= 3; n += 1) await dealer.send(`{"jsonrpc":"2.0","id":${n},"method":"test_tracked","params":{"ms":200,"n":${n}}}`);
      await sleep(50);
    } finally {
      await node.server.stop();
      dealer.close();
    }
    for (const path of socketFiles(node.transport)) expect(existsSync(path)).toBe(false);
    // The running request ends after the sockets closed; its answer is dropped without an error.
    await sleep(250);
  });
});

describe('start and stop around other processes', () => {
  it('starts again after a node was killed and left its socket files behind', async () => {
    const dataPath = tempDataPath();
    const script = join(dataPath, 'crashing-node.mts');
    writeFileSync(
      script,
      [
        `import { silentLogger } from ${JSON.stringify(pathToFileURL(join(ROOT, 'src/logger.ts')).href)};`,
        `import { IpcTransport } from ${JSON.stringify(pathToFileURL(join(ROOT, 'src/rpc/ipc-transport.ts')).href)};`,
        `import { RpcRegistry } from ${JSON.stringify(pathToFileURL(join(ROOT, 'src/rpc/registry.ts')).href)};`,
        `import { RpcServer } from ${JSON.stringify(pathToFileURL(join(ROOT, 'src/rpc/server.ts')).href)};`,
        `const server = new RpcServer({ modes: ['ipc'], host: '127.0.0.1', port: 0, allowedMethods: [] }, new RpcRegistry(), silentLogger);`,
        `server.addTransport(new IpcTransport(server.dispatcher, { dataPath: ${JSON.stringify(dataPath)} }, silentLogger));`,
        `await server.start();`,
        `process.stdout.write('ready\\n');`,
        `setInterval(() => undefined, 1_000);`,
      ].join('\n'),
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('ready')) resolve();
      });
      child.on('exit', () => reject(new Error('the crashing node exited before it was ready')));
    });
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const socketDir = join(dataPath, 'tmp', 'sockets');
    const stale = ['engine.external.rpc.ipc', 'external.pub.ipc', 'external.sub.ipc'].map((name) => join(socketDir, name));
    for (const path of stale) expect(lstatSync(path).isSocket()).toBe(true);

    const node = await startIpcNode(dataPath);
    try {
      const client = await createIPCClient(dataPath);
      expect(await client.invoke('test_sum', { a: 3, b: 4 })).toBe(7);
      await client.disconnect();
    } finally {
      await node.server.stop();
    }
    for (const path of stale) expect(existsSync(path)).toBe(false);
  });

  it('refuses to take over the sockets of a node that is running', async () => {
    const dataPath = tempDataPath();
    const running = await startIpcNode(dataPath);
    try {
      const server = new RpcServer({ modes: ['ipc'], host: '127.0.0.1', port: 0, allowedMethods: [] }, buildRegistry(), silentLogger);
      server.addTransport(new IpcTransport(server.dispatcher, { dataPath }, silentLogger));
      await expect(server.start()).rejects.toMatchObject({
        code: 'ERR_RPC_IPC_IN_USE',
        message: expect.stringContaining('is another node running on this data path?'),
      });
      // The running node keeps its files and its clients.
      const client = await createIPCClient(dataPath);
      expect(await client.invoke('test_sum', { a: 1, b: 2 })).toBe(3);
      await client.disconnect();
    } finally {
      await running.server.stop();
    }
    for (const path of socketFiles(running.transport)) expect(existsSync(path)).toBe(false);
  });

  it('leaves a file that is not a socket alone and binds nothing', async () => {
    const dataPath = tempDataPath();
    const socketDir = join(dataPath, 'tmp', 'sockets');
    mkdirSync(socketDir, { recursive: true });
    writeFileSync(join(socketDir, 'external.pub.ipc'), 'not a socket');
    const server = new RpcServer({ modes: ['ipc'], host: '127.0.0.1', port: 0, allowedMethods: [] }, buildRegistry(), silentLogger);
    server.addTransport(new IpcTransport(server.dispatcher, { dataPath }, silentLogger));
    await expect(server.start()).rejects.toMatchObject({ code: 'ERR_RPC_IPC_PATH' });
    expect(readFileSync(join(socketDir, 'external.pub.ipc'), 'utf8')).toBe('not a socket');
    expect(existsSync(join(socketDir, 'engine.external.rpc.ipc'))).toBe(false);
    expect(existsSync(join(socketDir, 'external.sub.ipc'))).toBe(false);
  });

  it('refuses a data path too long for a Unix domain socket before creating anything', async () => {
    const dataPath = join(tempDataPath(), 'd'.repeat(100));
    const server = new RpcServer({ modes: ['ipc'], host: '127.0.0.1', port: 0, allowedMethods: [] }, buildRegistry(), silentLogger);
    server.addTransport(new IpcTransport(server.dispatcher, { dataPath }, silentLogger));
    await expect(server.start()).rejects.toMatchObject({
      code: 'ERR_RPC_IPC_PATH',
      message: expect.stringContaining('use a shorter data path'),
    });
    expect(existsSync(dataPath)).toBe(false);
  });
});
