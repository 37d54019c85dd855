/**
 * examples/hello through Basalt's real state machine and RPC layer (no node process): the
 * createHello command's verify and execute, the stores, the newHello event, the hello_*
 * endpoints with their error codes, the module metadata, the config, and the plugin's feed.
 */
import { describe, expect, it } from 'vitest';
import { HelloFeed } from '../../../examples/hello/hello-feed.js';
import { parseHelloConfig } from '../../../examples/hello/hello-module/config.js';
import { HelloModule } from '../../../examples/hello/hello-module/index.js';
import { createHelloParamsSchema, newHelloEventSchema } from '../../../examples/hello/hello-module/schemas.js';
import helloPlugin from '../../../examples/hello/plugin.js';
import { Transaction } from '../../../src/chain/transaction.js';
import { codec, encodeLisk32Address } from '../../../src/codec/index.js';
import { addressFromPublicKey } from '../../../src/crypto/index.js';
import { ValidationError } from '../../../src/errors.js';
import { silentLogger } from '../../../src/logger.js';
import { EventQueue, VerifyStatus } from '../../../src/modules/base/index.js';
import { computeStorePrefix } from '../../../src/modules/base/store-prefix.js';
import { StateMachine, TransactionExecutionResult, type BlockExecution } from '../../../src/engine/state-machine/state-machine.js';
import { checkPluginDefinition } from '../../../src/plugins/check-plugin-definition.js';
import { committedChainContext, moduleRpcMethods } from '../../../src/rpc/endpoint-adapter.js';
import { RpcDispatcher } from '../../../src/rpc/dispatcher.js';
import { RpcRegistry } from '../../../src/rpc/registry.js';
import { MemoryState } from '../../../src/state/memory-state.js';
import { OverlayState } from '../../../src/state/overlay-state.js';
import { DEV_CHAIN_ID, makeHeader, testGenesisConfig } from '../../support/module-harness.js';

const ALICE = Buffer.alloc(32, 1);
const BOB = Buffer.alloc(32, 2);

function helloTransaction(senderPublicKey: Buffer, message: string, nonce = 0n): Transaction {
  return new Transaction({
    module: 'hello',
    command: 'createHello',
    nonce,
    fee: 1_000_000n,
    senderPublicKey,
    params: codec.encode(createHelloParamsSchema, { message }),
    signatures: [Buffer.alloc(64)],
  });
}

function helloChain(moduleConfig: Record<string, unknown> = {}) {
  const module = new HelloModule();
  module.init({ genesisConfig: testGenesisConfig, moduleConfig });
  const stateMachine = new StateMachine([module], DEV_CHAIN_ID, silentLogger);
  const base = new MemoryState();
  return { module, stateMachine, base };
}

/** Executes `transactions` as one block over `base` and commits the changes into it. */
async function executeBlock(stateMachine: StateMachine, base: MemoryState, transactions: readonly Transaction[], height = 5) {
  const state = new OverlayState(base);
  const execution: BlockExecution = {
    state,
    events: EventQueue.forBlock(height),
    contextStore: new Map(),
    header: makeHeader({ height }),
    assets: { getAsset: () => undefined },
    setNextValidators: () => undefined,
  };
  const results: TransactionExecutionResult[] = [];
  for (const transaction of transactions) results.push(await stateMachine.executeTransaction(execution, transaction));
  for (const change of state.changes()) base.put(change.key, change.value);
  return { results, events: execution.events.events() };
}

describe('hello:createHello', () => {
  it.each([
    ['Hi', 'The hello message must have at least 3 characters.'],
    ['x'.repeat(11), 'The hello message must have at most 10 characters.'],
    ['so EVIL', 'The hello message contains the blacklisted word "evil".'],
  ])('verify refuses %j', async (message, reason) => {
    const { stateMachine, base } = helloChain({ maxMessageLength: 10, blacklist: ['Evil'] });
    const result = await stateMachine.verifyTransaction(helloTransaction(ALICE, message), base, { height: 5, timestamp: 0 });
    expect(result.status).toBe(VerifyStatus.FAIL);
    expect(result.error?.message).toBe(reason);
  });

  it('verify refuses params the schema refuses (an empty message)', async () => {
    const { stateMachine, base } = helloChain();
    const result = await stateMachine.verifyTransaction(helloTransaction(ALICE, ''), base, { height: 5, timestamp: 0 });
    expect(result.status).toBe(VerifyStatus.FAIL);
    expect(result.error?.message).toContain('message');
  });

  it('stores the latest message and the counts, and emits newHello with the sender as a topic', async () => {
    const { stateMachine, base } = helloChain();
    const first = helloTransaction(ALICE, 'Hello one');
    const second = helloTransaction(ALICE, 'Hello two', 1n);
    const third = helloTransaction(BOB, 'Hello from Bob');
    for (const transaction of [first, second, third]) {
      expect((await stateMachine.verifyTransaction(transaction, base, { height: 5, timestamp: 0 })).status).toBe(VerifyStatus.OK);
    }
    const { results, events } = await executeBlock(stateMachine, base, [first, second, third]);
    expect(results).toEqual([TransactionExecutionResult.OK, TransactionExecutionResult.OK, TransactionExecutionResult.OK]);

    const alice = addressFromPublicKey(ALICE);
    const bob = addressFromPublicKey(BOB);
    const hellos = events.filter((event) => event.name === 'newHello');
    expect(hellos.map((event) => codec.decode(newHelloEventSchema, event.data))).toEqual([
      { senderAddress: alice, message: 'Hello one' },
      { senderAddress: alice, message: 'Hello two' },
      { senderAddress: bob, message: 'Hello from Bob' },
    ]);
    expect(hellos[0]?.topics).toEqual([Buffer.concat([Buffer.from([4]), first.id]), alice]);
    expect(events.filter((event) => event.name === 'commandExecutionResult')).toHaveLength(3);

    // Through the RPC layer, as the node serves module endpoints.
    const registry = new RpcRegistry();
    const { module } = helloChain();
    const chainStore = { tipHeight: () => 5, getHeaderByHeight: () => undefined };
    for (const method of moduleRpcMethods(
      [module],
      committedChainContext({ chainStore, moduleState: base, chainID: DEV_CHAIN_ID, logger: silentLogger }),
    )) {
      registry.register(method);
    }
    const dispatcher = new RpcDispatcher(registry, { allowedMethods: [], maxBatchSize: 10, logger: silentLogger });
    const ask = async (method: string, params?: object) =>
      JSON.parse((await dispatcher.handle(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))) as string) as Record<string, unknown>;
    expect((await ask('hello_getHello', { address: encodeLisk32Address(alice) })).result).toEqual({ message: 'Hello two', count: 2 });
    expect((await ask('hello_getHello', { address: encodeLisk32Address(bob) })).result).toEqual({ message: 'Hello from Bob', count: 1 });
    expect((await ask('hello_getHelloCounter')).result).toEqual({ counter: '3' });
    const nobody = encodeLisk32Address(Buffer.alloc(20, 9));
    expect((await ask('hello_getHello', { address: nobody })).error).toEqual({ code: -32001, message: `No hello from ${nobody}.` });
    expect(((await ask('hello_getHello', { address: 'lsk123' })).error as { code: number }).code).toBe(-32602);
    expect(((await ask('hello_getHello', {})).error as { message: string }).message).toBe(
      "Invalid params: params: must have required property 'address'",
    );
  });
});

describe('the hello module', () => {
  it('describes its command, event, stores and endpoints in system_getMetadata form', () => {
    const metadata = new HelloModule().metadata();
    const prefix = computeStorePrefix('hello').toString('hex');
    expect(metadata.commands).toEqual([{ name: 'createHello', params: createHelloParamsSchema }]);
    expect(metadata.events).toEqual([{ name: 'newHello', data: newHelloEventSchema }]);
    expect(metadata.stores.map((store) => store.key)).toEqual([`${prefix}0000`, `${prefix}8000`]);
    expect(metadata.endpoints.map((endpoint) => endpoint.name)).toEqual(['getHello', 'getHelloCounter']);
    expect(metadata.assets).toEqual([]);
  });

  it('reads modules.hello with defaults and refuses bad values, naming each key', () => {
    expect(parseHelloConfig({})).toEqual({ minMessageLength: 3, maxMessageLength: 256, blacklist: [] });
    expect(parseHelloConfig({ blacklist: ['BaD'] }).blacklist).toEqual(['bad']);
    expect(() => parseHelloConfig({ minMessageLength: 0, maxMessageLength: 300, blacklist: [''] })).toThrow(
      new ValidationError([
        '.modules.hello.minMessageLength: must be an integer from 1 to 256',
        '.modules.hello.maxMessageLength: must be an integer from 1 to 256',
        '.modules.hello.blacklist: must be an array of non-empty strings',
      ]),
    );
    expect(() => parseHelloConfig({ minMessageLength: 9, maxMessageLength: 4 })).toThrow(
      'minMessageLength must not exceed maxMessageLength',
    );
  });
});

describe('the helloFeed plugin', () => {
  it('is a valid plugin definition that adds the hello module', () => {
    expect(checkPluginDefinition(helloPlugin, 'helloFeed', '.plugins.helloFeed')).toBe(helloPlugin);
    const modules = helloPlugin.modules?.({} as never) ?? [];
    expect(modules.map((module) => module.name)).toEqual(['hello']);
    expect(helloPlugin.events).toEqual(['newHello']);
    expect(helloPlugin.endpoints?.clearHistory?.sensitive).toBe(true);
    expect(helloPlugin.endpoints?.getLatestHellos?.sensitive).toBeUndefined();
  });

  it('reads hellos from block events and keeps the newest first, within its capacity', () => {
    const txA = Buffer.alloc(32, 0xaa);
    const sender = Buffer.alloc(20, 3);
    const hello = (message: string, height: number, index: number) => ({
      module: 'hello',
      name: 'newHello',
      data: codec.encode(newHelloEventSchema, { senderAddress: sender, message }),
      topics: [Buffer.concat([Buffer.from([4]), txA]), sender],
      height,
      index,
    });
    const other = { module: 'token', name: 'transfer', data: Buffer.alloc(0), topics: [], height: 7, index: 0 };
    const found = HelloFeed.hellosIn([other, hello('one', 7, 1), hello('two', 7, 2)]);
    expect(found).toEqual([
      { height: 7, transactionID: txA.toString('hex'), senderAddress: encodeLisk32Address(sender), message: 'one' },
      { height: 7, transactionID: txA.toString('hex'), senderAddress: encodeLisk32Address(sender), message: 'two' },
    ]);
    const feed = new HelloFeed(3);
    feed.add(found);
    feed.add(HelloFeed.hellosIn([hello('three', 8, 1), hello('four', 8, 2)]));
    expect(feed.latest(10).map((entry) => entry.message)).toEqual(['four', 'three', 'two']);
    expect(feed.latest(1).map((entry) => entry.message)).toEqual(['four']);
    feed.dropFrom(8);
    expect(feed.latest(10).map((entry) => entry.message)).toEqual(['two']);
    expect(feed.clear()).toBe(1);
    expect(feed.size).toBe(0);
  });
});
