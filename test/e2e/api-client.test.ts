/**
 * Lisk's own `@liskhq/lisk-api-client` against a real `basalt start` devnet
 * process serving ipc + ws + http. Both clients connect (their init calls system_getMetadata,
 * system_getSchema and system_getNodeInfo), read blocks and accounts, create and sign a token
 * transfer with the client's own code, send it, and receive the chain_newBlock event of the
 * block that includes it. The node runs with `rpc.allowedMethods: []`, which proves the client
 * needs no sensitive method, and lets the test check which methods the registry marks sensitive.
 * The last part checks each row of the README's "Deliberate differences from lisk-sdk 6.1's
 * RPC" on this node.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createIPCClient, createWSClient, type APIClient } from '@liskhq/lisk-api-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startBasaltNode, stopProcess, waitFor, waitForHeight, type NodeProcess } from '../support/node-process.js';
import { Transaction } from '../../src/chain/transaction.js';
import {
  addressFromPublicKey,
  ed25519KeyPairFromPassphrase,
  encodeLisk32,
  MESSAGE_TAG_TRANSACTION,
  verifyData,
} from '../../src/crypto/index.js';

// config/devnet/DEV_PASSPHRASES.md, "Funded accounts": public, devnet only.
const ACCOUNTS_PASSPHRASE =
  'balcony timber spider replace olympic innocent obvious slogan select tunnel health adjust setup fork scrub lion coconut wife ice color process access minute palace';
const CHAIN_ID = '04000000';
const LSK = '0400000000000000';
const INITIAL_BALANCE = 100_000_000_000_000n; // 1,000,000 LSK in beddows
const ALLOWED_ORIGIN = 'http://wallet.example';

/** Methods the README lists as sensitive, decided from the name alone. */
const SYSTEM_PUBLIC = new Set(['getNodeInfo', 'getMetadata', 'getSchema']);
const RANDOM_HASH_ONION = new Set(['setHashOnion', 'getHashOnionSeeds', 'setHashOnionUsage', 'getHashOnionUsage', 'hasHashOnion']);
function sensitiveByIssue(fullName: string): boolean {
  const [namespace, name] = fullName.split('_') as [string, string];
  if (namespace === 'generator') return true;
  if (namespace === 'system') return !SYSTEM_PUBLIC.has(name);
  if (namespace === 'random') return RANDOM_HASH_ONION.has(name);
  return false;
}

interface JsonRpcAnswer {
  jsonrpc: string;
  id: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

async function post(port: number, body: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`http://127.0.0.1:${port}/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body, ...init });
}

async function rpc(port: number, method: string, params?: unknown): Promise<JsonRpcAnswer> {
  return (await (await post(port, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))).json()) as JsonRpcAnswer;
}

/** A raw WebSocket that collects what it receives. */
async function openSocket(
  port: number,
  headers: Record<string, string> = {},
): Promise<{ socket: WebSocket; received: string[]; next: () => Promise<string> }> {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/rpc-ws`, { headers });
  const received: string[] = [];
  let wake: (() => void) | undefined;
  socket.on('message', (data) => {
    received.push(String(data));
    wake?.();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
    socket.once('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
  });
  let cursor = 0;
  const next = async (): Promise<string> => {
    const deadline = Date.now() + 10_000;
    while (received.length <= cursor) {
      if (Date.now() > deadline) throw new Error('no WebSocket message within 10 s');
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 100);
      });
    }
    cursor += 1;
    return received[cursor - 1] as string;
  };
  return { socket, received, next };
}

/** Resolves with the first `event` notification (its params) that `accept` returns a value for. */
function firstEvent<T>(client: APIClient, event: string, accept: (data: unknown) => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    let done = false;
    const timer = setTimeout(() => {
      done = true;
      reject(new Error(`no matching ${event} within ${timeoutMs} ms`));
    }, timeoutMs);
    client.subscribe(event, (data) => {
      if (done) return;
      accept(data).then(
        (value) => {
          if (value === undefined || done) return;
          done = true;
          clearTimeout(timer);
          resolve(value);
        },
        () => undefined,
      );
    });
  });
}

describe('@liskhq/lisk-api-client against a running devnet node', () => {
  let dataPath: string;
  let port: number;
  let node: NodeProcess | undefined;
  let ws: APIClient;
  let ipc: APIClient;
  const sender = ed25519KeyPairFromPassphrase(ACCOUNTS_PASSPHRASE, "m/44'/134'/0'");
  const senderAddress = encodeLisk32(addressFromPublicKey(sender.publicKey));
  const recipientAddress = encodeLisk32(addressFromPublicKey(ed25519KeyPairFromPassphrase(ACCOUNTS_PASSPHRASE, "m/44'/134'/1'").publicKey));

  beforeAll(async () => {
    dataPath = mkdtempSync(join(tmpdir(), 'basalt-api-client-'));
    const configFile = join(dataPath, 'override.json');
    writeFileSync(
      configFile,
      JSON.stringify({ rpc: { modes: ['ipc', 'ws', 'http'], allowedMethods: [], accessControlAllowOrigin: ALLOWED_ORIGIN } }),
    );
    node = startBasaltNode(['--data-path', join(dataPath, 'node'), '--config', configFile]);
    port = (await node.ports()).rpc;
    await waitForHeight(port, 2, 60_000, { output: node.output });
    ws = await createWSClient(`ws://127.0.0.1:${port}/rpc-ws`);
    ipc = await createIPCClient(join(dataPath, 'node'));
  });

  afterAll(async () => {
    await ws?.disconnect().catch(() => undefined);
    await ipc?.disconnect().catch(() => undefined);
    if (node) await stopProcess(node.child);
    rmSync(dataPath, { recursive: true, force: true });
  });

  it('connects over WS and IPC: init read the metadata, the schemas and the node info', async () => {
    for (const client of [ws, ipc]) {
      expect(client.metadata.map((module) => module.name)).toEqual(
        expect.arrayContaining(['auth', 'dynamicReward', 'fee', 'interoperability', 'pos', 'random', 'token', 'validators']),
      );
      expect(Object.keys(client.schema).sort()).toEqual(['asset', 'block', 'event', 'header', 'standardEvent', 'transaction']);
      const info = await client.node.getNodeInfo();
      expect(info.chainID).toBe(CHAIN_ID);
      expect(info.genesisHeight).toBe(0);
    }
    // Both transports serve the same registry.
    expect(await ipc.invoke('app_getRegisteredEndpoints')).toEqual(await ws.invoke('app_getRegisteredEndpoints'));
  });

  it('reads blocks with the client, the same over both transports', async () => {
    const byHeight = (await ws.block.getByHeight(1)) as unknown as { header: { id: string; height: number; previousBlockID: string } };
    expect(byHeight.header.height).toBe(1);
    const byID = (await ws.block.get(byHeight.header.id)) as unknown as { header: { id: string } };
    expect(byID.header.id).toBe(byHeight.header.id);
    expect(await ipc.block.getByHeight(1)).toEqual(byHeight);
    const genesis = (await ipc.invoke('chain_getBlockByHeight', { height: 0 })) as { header: { id: string } };
    expect(byHeight.header.previousBlockID).toBe(genesis.header.id);
    const last = (await ws.invoke('chain_getLastBlock')) as { header: { height: number } };
    expect(last.header.height).toBeGreaterThanOrEqual(2);
  });

  it('reads accounts: auth_getAuthAccount and token_getBalances of a funded devnet account', async () => {
    expect(await ws.invoke('auth_getAuthAccount', { address: senderAddress })).toEqual({
      nonce: '0',
      numberOfSignatures: 0,
      mandatoryKeys: [],
      optionalKeys: [],
    });
    expect(await ipc.invoke('token_getBalances', { address: senderAddress })).toEqual({
      balances: [{ tokenID: LSK, availableBalance: INITIAL_BALANCE.toString(), lockedBalances: [] }],
    });
  });

  it('creates and signs a transfer with the client, sends it, and sees the new block that includes it', async () => {
    const privateKey = sender.privateKey.toString('hex');
    const input = {
      module: 'token',
      command: 'transfer',
      fee: '1000000',
      params: { tokenID: LSK, amount: '100000000', recipientAddress, data: 'sent by lisk-api-client' },
    };
    const created = await ws.transaction.create(input, privateKey);
    expect(created.nonce).toBe('0');
    expect(created.senderPublicKey).toBe(sender.publicKey.toString('hex'));
    // sign() again from an unsigned copy: ed25519 is deterministic, so the signature is the same.
    const signed = await ws.transaction.sign({ ...created, signatures: [] }, [privateKey]);
    expect(signed.signatures).toEqual(created.signatures);
    expect(signed.id).toBe(created.id);

    // What Basalt makes of the client's bytes: the same ID, and a signature valid for chain 04000000.
    const bytes = ws.transaction.encode(ws.transaction.fromJSON(signed));
    const decoded = Transaction.fromBytes(bytes);
    expect(decoded.id.toString('hex')).toBe(signed.id);
    const signature = decoded.signatures[0] as Buffer;
    expect(verifyData(MESSAGE_TAG_TRANSACTION, Buffer.from(CHAIN_ID, 'hex'), decoded.signingBytes(), signature, sender.publicKey)).toBe(
      true,
    );

    const includedOverWs = firstEvent(
      ws,
      'chain_newBlock',
      async (data) => {
        const { height } = (data as { blockHeader: { height: number } }).blockHeader;
        const block = (await ws.block.getByHeight(height)) as unknown as {
          transactions: { id: string; params: Record<string, unknown> }[];
        };
        const transaction = block.transactions.find((tx) => tx.id === signed.id);
        return transaction === undefined ? undefined : { height, transaction };
      },
      60_000,
    );
    const heightsOverIpc: number[] = [];
    ipc.subscribe('chain_newBlock', (data) => void heightsOverIpc.push((data as { blockHeader: { height: number } }).blockHeader.height));

    expect(await ws.transaction.send(signed)).toEqual({ transactionId: signed.id });
    const { height, transaction } = await includedOverWs;
    // The client decoded the params with the metadata schema.
    expect(transaction.params).toEqual(input.params);
    await waitFor('the IPC subscriber to see the same block', async () => (heightsOverIpc.includes(height) ? true : undefined), 10_000);

    const stored = (await ipc.transaction.get(signed.id)) as unknown as { id: Buffer; params: { amount: bigint } };
    expect(stored.id.toString('hex')).toBe(signed.id);
    expect(stored.params.amount).toBe(100_000_000n);
    // The client decodes event data with the metadata schemas; the fee module's transfer to the
    // generator is in the same block, so look for ours among the transfers.
    const events = (await ws.event.get(height, { module: 'token', name: 'transfer' })) as unknown as {
      data: Record<string, unknown>;
      topics: string[];
    }[];
    const ours = events.filter((event) => event.topics[0] === `04${signed.id}` && event.data.recipientAddress === recipientAddress);
    expect(ours.map((event) => event.data)).toEqual([{ senderAddress, recipientAddress, tokenID: LSK, amount: '100000000', result: 0 }]);
    const balance = (address: string) => ws.invoke('token_getBalance', { address, tokenID: LSK }) as Promise<{ availableBalance: string }>;
    expect((await balance(recipientAddress)).availableBalance).toBe((INITIAL_BALANCE + 100_000_000n).toString());
    expect((await balance(senderAddress)).availableBalance).toBe((INITIAL_BALANCE - 100_000_000n - 1_000_000n).toString());
    expect(((await ws.invoke('auth_getAuthAccount', { address: senderAddress })) as { nonce: string }).nonce).toBe('1');
  });

  it('marks exactly the methods the README names as sensitive (-32002 with allowedMethods [])', async () => {
    const names = (await ws.invoke('app_getRegisteredEndpoints')) as string[];
    const disabled: string[] = [];
    for (const name of names) {
      const answer = await rpc(port, name, {});
      if (answer.error?.code === -32002) disabled.push(name);
    }
    const expected = names.filter(sensitiveByIssue);
    expect(disabled).toEqual(expected);
    // The rule is not vacuous on this node: these are registered and refused.
    expect(expected).toEqual(
      expect.arrayContaining(['system_getMetricsReport', ...[...RANDOM_HASH_ONION].map((name) => `random_${name}`)]),
    );
    expect(names).toEqual(
      expect.arrayContaining(['system_getNodeInfo', 'system_getMetadata', 'system_getSchema', 'random_isSeedRevealValid']),
    );
    // Through the client the refusal is an Error with the node's message.
    await expect(ws.invoke('random_getHashOnionSeeds')).rejects.toThrow('Requested method or namespace is disabled in node config.');
  });

  describe('the documented differences from lisk-sdk 6.1, on this node', () => {
    it('error codes: a real error object with a standard code, from every namespace', async () => {
      const missing = (await rpc(port, 'chain_getBlockByHeight', { height: 10_000_000 })).error;
      expect(missing?.code).toBe(-32001);
      expect(missing?.message).toMatch(/^No block at height 10000000 \(the tip is at \d+\)\.$/);
      expect((await rpc(port, 'token_getBalance', { address: 'lsk1', tokenID: LSK })).error?.code).toBe(-32602);
      expect((await rpc(port, 'chain_getBlockByHeight', { height: -1 })).error).toEqual({
        code: -32602,
        message: 'Invalid params: params.height: must be >= 0',
      });
      // The client turns error objects into Errors carrying the message (it reads `data` or `message`).
      await expect(ws.invoke('chain_getBlockByHeight', { height: 10_000_000 })).rejects.toThrow('No block at height 10000000');
      await expect(ipc.invoke('chain_getBlockByHeight', { height: 10_000_000 })).rejects.toThrow('No block at height 10000000');
    });

    it('parse error: -32700 on HTTP and on WS', async () => {
      const http = (await (await post(port, '{"jsonrpc":')).json()) as JsonRpcAnswer;
      expect(http).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } });
      const raw = await openSocket(port);
      raw.socket.send('{"jsonrpc":');
      expect(JSON.parse(await raw.next())).toEqual(http);
      raw.socket.close();
    });

    it('batch: answered in request order', async () => {
      const response = await post(
        port,
        JSON.stringify([
          { jsonrpc: '2.0', id: 'a', method: 'system_getNodeInfo' },
          { jsonrpc: '2.0', id: 'b', method: 'nope_nothing' },
          { jsonrpc: '2.0', id: 'c', method: 'chain_getLastBlock' },
        ]),
      );
      const answers = (await response.json()) as JsonRpcAnswer[];
      expect(answers.map((answer) => [answer.id, answer.error?.code ?? 'ok'])).toEqual([
        ['a', 'ok'],
        ['b', -32601],
        ['c', 'ok'],
      ]);
    });

    it('notifications: no answer (HTTP 204)', async () => {
      const response = await post(port, JSON.stringify({ jsonrpc: '2.0', method: 'system_getNodeInfo' }));
      expect(response.status).toBe(204);
      expect(await response.text()).toBe('');
    });

    it('subscribe / unsubscribe: answered (the client ignores these answers and still gets events)', async () => {
      const raw = await openSocket(port);
      raw.socket.send(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'subscribe', params: { topics: ['chain_newBlock'] } }));
      expect(JSON.parse(await raw.next())).toEqual({ jsonrpc: '2.0', id: 7, result: { subscribed: ['chain_newBlock'] } });
      const event = JSON.parse(
        await waitFor(
          'a chain_newBlock notification',
          async () => raw.received.find((text) => text.includes('"method":"chain_newBlock"')),
          15_000,
        ),
      ) as {
        method: string;
        params: { blockHeader: { height: number } };
      };
      expect(event).toMatchObject({ jsonrpc: '2.0', method: 'chain_newBlock' });
      expect(event).not.toHaveProperty('id');
      raw.socket.send(JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'unsubscribe', params: { topics: ['chain_newBlock'] } }));
      expect(await waitFor('the unsubscribe answer', async () => raw.received.find((text) => text.includes('"id":8')), 10_000)).toBe(
        '{"jsonrpc":"2.0","id":8,"result":{"unsubscribed":["chain_newBlock"]}}',
      );
      raw.socket.close();
    });

    it('allowedMethods: [] leaves public methods open (the client works on this node at all)', async () => {
      expect((await rpc(port, 'auth_getAuthAccount', { address: recipientAddress })).result).toMatchObject({ numberOfSignatures: 0 });
    });

    it('unknown method: -32601 naming it', async () => {
      expect((await rpc(port, 'token_getNothing')).error).toEqual({ code: -32601, message: 'Method "token_getNothing" not found.' });
      await expect(ws.invoke('token_getNothing')).rejects.toThrow('Method "token_getNothing" not found.');
    });

    it('CORS: OPTIONS preflight 204, and every answer carries the configured origin', async () => {
      const preflight = await fetch(`http://127.0.0.1:${port}/rpc`, { method: 'OPTIONS', headers: { origin: ALLOWED_ORIGIN } });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
      expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
      const answer = await post(port, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'system_getNodeInfo' }));
      expect(answer.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    });

    it('body size: 413 above 1 MiB, and the node goes on serving', async () => {
      const response = await fetch(`http://127.0.0.1:${port}/rpc`, { method: 'POST', body: new Uint8Array(1024 * 1024 + 1).fill(0x20) });
      expect(response.status).toBe(413);
      expect(await response.text()).toBe('The request body exceeds the limit of 1048576 bytes.');
      expect((await rpc(port, 'system_getNodeInfo')).result).toMatchObject({ chainID: CHAIN_ID });
    });

    it('WS origin check: exact match, and clients without an Origin (the api-client) pass', async () => {
      await expect(openSocket(port, { origin: 'http://evil.example' })).rejects.toThrow('HTTP 403');
      await expect(openSocket(port, { origin: `${ALLOWED_ORIGIN}.evil` })).rejects.toThrow('HTTP 403');
      const allowed = await openSocket(port, { origin: ALLOWED_ORIGIN });
      allowed.socket.close();
    });

    it('slow WS clients: closed with 1008 once their backlog passes the limit', async () => {
      const raw = await openSocket(port);
      const closed = new Promise<number>((resolve) => raw.socket.on('close', (code) => resolve(code)));
      let closeCode: number | undefined;
      void closed.then((code) => (closeCode = code));
      // Stop reading, then ask for much more than the 4 MiB backlog allowed (metadata is tens of kB).
      raw.socket.pause();
      for (let i = 0; i < 600 && closeCode === undefined && raw.socket.readyState === WebSocket.OPEN; i += 1) {
        raw.socket.send(JSON.stringify({ jsonrpc: '2.0', id: i, method: 'system_getMetadata' }));
        if (i % 50 === 49) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      raw.socket.resume();
      expect(await closed).toBe(1008);
      // The node is fine and serves other clients.
      expect(((await ws.invoke('system_getNodeInfo')) as { chainID: string }).chainID).toBe(CHAIN_ID);
    });

    it('/rpc?query: served like /rpc', async () => {
      const response = await fetch(`http://127.0.0.1:${port}/rpc?x=1`, {
        method: 'POST',
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'system_getNodeInfo' }),
      });
      expect(((await response.json()) as JsonRpcAnswer).result).toMatchObject({ chainID: CHAIN_ID });
    });
  });
});
