/**
 * The legacy forging HTTP API end to end: a devnet node with `legacyApi` enabled reads a Lisk Core
 * 2.x config naming basalt_dev_legacy (its v3 encryptedPassphrase made here with Basalt's own
 * encryptPassphraseV3), and answers as docs/protocol/legacy-forging-api.md lists: enable/disable
 * with the right password, wrong password (no state change), unknown key, a non-validator, a
 * non-whitelisted remote address (simulated through legacyApi.trustedProxyHeader), a malformed
 * body. The switch is the engine's: generator_getStatus shows the same state. Lisk Core 3.x's
 * PATCH /api/forging on the same delegate (by its address, with the generated info it resumes
 * from), and a loop of malformed requests to this API and to the RPC that must get JSON answers
 * and leave the node running.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateHashOnion } from '../../src/crypto/hash-onion.js';
import { addressFromPublicKey } from '../../src/crypto/address.js';
import { encryptPassphraseV3 } from '../../src/crypto/passphrase-v3.js';
import { mulberry32 } from '../support/seeded-random.js';
import { rpc, startBasaltNode, stopProcess, waitFor, waitForHeight, type NodeProcess } from '../support/node-process.js';

// config/devnet/DEV_PASSPHRASES.md: public, devnet only.
const VALIDATORS_PASSPHRASE =
  'cash rather pizza south catch ensure planet sorry method million affair nasty enter pottery smooth begin record issue olive pen digital laptop oppose report';
const LEGACY_PUBLIC_KEY = '24cd45e37a7bb412cd7b65b2aa3db6d54527a7747b8a1be67342c20e9cff4e30';
const LEGACY_ADDRESS = 'lskkefqb2rhqovmyeabtwcnte8u5fykj2e39bysrb';
const RECLAIM_PASSPHRASE =
  'admit snow cruel stable ring kangaroo skirt tumble brief beach wing label equip ghost episode already gloom step garlic coffee photo gentle ready omit';
const RECLAIM_PUBLIC_KEY = 'f7e18a87a8c9a8f9eeb7c0ebd205c75620994f6d1f4a9d69ab8217dd220c1ff7';
const PASSWORD = 'elephant tree paris dragon chair galaxy';
// Fewer PBKDF2 rounds than Lisk's default 1 000 000 keep the test light; the format is the same.
const ITERATIONS = 100_000;
const PROXY_HEADER = 'x-forwarded-for';
// A Core 3.x-style hashOnion {count, distance, hashes} for the delegate; hashes[last] is the seed.
const ONION_SEED = Buffer.from('0f1e2d3c4b5a69788796a5b4c3d2e1f0', 'hex');
const HASH_ONION = { count: 1000, distance: 100, hashes: generateHashOnion(ONION_SEED, 1000, 100).map((hash) => hash.toString('hex')) };

interface Answer {
  status: number;
  body: any;
}

describe('legacy forging HTTP API (devnet)', () => {
  let dir: string;
  let rpcPort: number;
  let apiPort: number;
  let node: NodeProcess;

  const call = async (method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Answer> => {
    const response = await fetch(`http://127.0.0.1:${apiPort}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      ...(body !== undefined ? { body } : {}),
    });
    return { status: response.status, body: await response.json() };
  };
  const put = (body: unknown, headers?: Record<string, string>): Promise<Answer> =>
    call('PUT', '/api/node/status/forging', typeof body === 'string' ? body : JSON.stringify(body), headers);
  const forgingOf = async (publicKey: string): Promise<boolean> => {
    const { body } = await call('GET', `/api/node/status/forging?publicKey=${publicKey}`);
    return body.data[0].forging as boolean;
  };
  const generatorEnabled = async (): Promise<boolean | undefined> => {
    const { status } = await rpc<{ status: { address: string; enabled: boolean }[] }>(rpcPort, 'generator_getStatus');
    return status.find((entry) => entry.address === LEGACY_ADDRESS)?.enabled;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'basalt-legacy-api-'));
    const legacyConfig = join(dir, 'lisk-core-2-config.json');
    writeFileSync(
      legacyConfig,
      JSON.stringify({
        modules: {
          chain: {
            forging: {
              force: false,
              delegates: [
                {
                  publicKey: LEGACY_PUBLIC_KEY,
                  encryptedPassphrase: encryptPassphraseV3(VALIDATORS_PASSPHRASE, PASSWORD, { iterations: ITERATIONS }),
                  hashOnion: HASH_ONION,
                },
                {
                  publicKey: RECLAIM_PUBLIC_KEY,
                  encryptedPassphrase: encryptPassphraseV3(RECLAIM_PASSPHRASE, PASSWORD, { iterations: ITERATIONS }),
                },
              ],
            },
          },
          http_api: {
            access: { public: false, whiteList: ['127.0.0.1', '10.0.0.0/8'] },
            forging: { access: { whiteList: ['127.0.0.1', '10.1.2.3'] } },
          },
        },
      }),
    );
    const config = join(dir, 'config.json');
    writeFileSync(
      config,
      JSON.stringify({
        rpc: { modes: ['ipc', 'ws', 'http'], allowedMethods: ['generator', 'random'] },
        legacyApi: {
          enabled: true,
          host: '127.0.0.1',
          port: 0,
          configFile: legacyConfig,
          trustedProxyHeader: PROXY_HEADER,
          // Off here, for the malformed-request loop below; the limit itself is tested in test/unit/legacy-api/server-v3.test.ts.
          rateLimit: { max: 0, windowMs: 60_000 },
        },
      }),
    );
    node = startBasaltNode(['--config', config, '--data-path', join(dir, 'data')]);
    const ports = await node.ports();
    rpcPort = ports.rpc;
    apiPort = ports.legacyApi ?? Number.NaN;
    expect(apiPort, 'the legacy API port in the log').toBeGreaterThan(0);
    await waitForHeight(rpcPort, 1, 90_000, { output: node.output });
    await waitFor('the legacy API', async () => (await call('GET', '/api/node/status')).status === 200 || undefined, 30_000, {
      output: node.output,
    });
  }, 150_000);

  afterAll(async () => {
    if (node) await stopProcess(node.child);
    rmSync(dir, { recursive: true, force: true });
  });

  it('GET /api/node/status answers the node status in the 2.x envelope', async () => {
    const { status, body } = await call('GET', '/api/node/status');
    expect(status).toBe(200);
    expect(body.meta).toEqual({});
    expect(body.links).toEqual({});
    expect(body.data.height).toBeGreaterThanOrEqual(1);
    expect(body.data).toMatchObject({ loaded: true, syncing: false, consensus: 100 });
    expect(body.data.broadhash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('GET /api/node/status/forging lists every configured delegate', async () => {
    const { status, body } = await call('GET', '/api/node/status/forging');
    expect(status).toBe(200);
    // The node's devnet key file already enables basalt_dev_legacy; the reclaim account is no validator.
    expect(body).toEqual({
      meta: {},
      data: [
        { forging: true, publicKey: LEGACY_PUBLIC_KEY },
        { forging: false, publicKey: RECLAIM_PUBLIC_KEY },
      ],
      links: {},
    });
    expect((await call('GET', `/api/node/status/forging?publicKey=${'ab'.repeat(32)}`)).body.data).toEqual([]);
    const bad = await call('GET', '/api/node/status/forging?publicKey=xyz');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Validation errors');
    expect(bad.body.errors[0]).toMatchObject({ code: 'INVALID_REQUEST_PARAMETER', in: 'query', name: 'publicKey' });
  });

  it('disables and enables with the right password, idempotently, through the engine generator', async () => {
    const off = await put({ publicKey: LEGACY_PUBLIC_KEY, password: PASSWORD, forging: false });
    expect(off).toEqual({ status: 200, body: { meta: {}, data: [{ publicKey: LEGACY_PUBLIC_KEY, forging: false }], links: {} } });
    expect(await forgingOf(LEGACY_PUBLIC_KEY)).toBe(false);
    // generator_getStatus lists only validators with stored generator info, which may not exist yet.
    expect((await generatorEnabled()) ?? false).toBe(false);

    const on = await put({ publicKey: LEGACY_PUBLIC_KEY, password: PASSWORD, forging: true });
    expect(on).toEqual({ status: 200, body: { meta: {}, data: [{ publicKey: LEGACY_PUBLIC_KEY, forging: true }], links: {} } });
    const again = await put({ publicKey: LEGACY_PUBLIC_KEY, password: PASSWORD, forging: true });
    expect(again).toEqual(on);
    expect(await forgingOf(LEGACY_PUBLIC_KEY)).toBe(true);
    expect(await generatorEnabled()).toBe(true);
    // The configured hash onion became the delegate's seed-reveal source.
    const { seeds } = await rpc<{ seeds: { address: string; seed: string; count: number; distance: number }[] }>(
      rpcPort,
      'random_getHashOnionSeeds',
    );
    expect(seeds.find((entry) => entry.address === LEGACY_ADDRESS)).toEqual({
      address: LEGACY_ADDRESS,
      seed: ONION_SEED.toString('hex'),
      count: 1000,
      distance: 100,
    });
  });

  it('refuses a wrong password with 404 and changes nothing', async () => {
    const wrong = await put({ publicKey: LEGACY_PUBLIC_KEY, password: 'not the password', forging: false });
    expect(wrong).toEqual({ status: 404, body: { message: 'Invalid password and public key combination' } });
    expect(await forgingOf(LEGACY_PUBLIC_KEY)).toBe(true);
    expect(await generatorEnabled()).toBe(true);
    expect(node.output()).not.toContain('not the password');
    expect(node.output()).not.toContain(PASSWORD);
  });

  it('answers 404 for an unknown public key (exact match) and for an account that is no validator', async () => {
    const unknown = 'ab'.repeat(32);
    expect(await put({ publicKey: unknown, password: PASSWORD, forging: true })).toEqual({
      status: 404,
      body: { message: `Delegate with publicKey: ${unknown} not found` },
    });
    const upper = LEGACY_PUBLIC_KEY.toUpperCase();
    expect(await put({ publicKey: upper, password: PASSWORD, forging: true })).toEqual({
      status: 404,
      body: { message: `Delegate with publicKey: ${upper} not found` },
    });
    expect(await put({ publicKey: RECLAIM_PUBLIC_KEY, password: PASSWORD, forging: true })).toEqual({
      status: 404,
      body: { message: 'Delegate not found' },
    });
  });

  it('answers 400 for a malformed or invalid body, before the whitelist', async () => {
    const malformed = await put('{"publicKey": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({
      message: 'Validation errors',
      errors: [
        {
          code: 'INVALID_REQUEST_PARAMETER',
          errors: [{ code: 'INVALID_JSON', message: 'Request body is not valid JSON', path: [] }],
          in: 'body',
          message: 'Invalid parameter (data): Request body is not valid JSON',
          name: 'data',
        },
      ],
    });
    const invalid = await put({ publicKey: LEGACY_PUBLIC_KEY, password: 'abc' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors[0].message).toBe('Invalid parameter (data): Value failed JSON Schema validation');
    expect(invalid.body.errors[0].errors).toEqual([
      { code: 'OBJECT_MISSING_REQUIRED_PROPERTY', message: 'Missing required property: forging', path: [] },
      { code: 'MIN_LENGTH', message: 'String is too short (3 chars), minimum 5', path: ['password'] },
    ]);
    const tooLarge = await put({ publicKey: LEGACY_PUBLIC_KEY, password: 'x'.repeat(10_000), forging: true });
    expect(tooLarge).toEqual({ status: 413, body: { message: 'Request body too large' } });
    // As in Core 2.x, validation comes before the forging whitelist.
    expect((await put('not json', { [PROXY_HEADER]: '10.9.9.9' })).status).toBe(400);
  });

  it('answers 403 to a remote address outside the forging whitelist, and lets a whitelisted one in', async () => {
    const remote = { [PROXY_HEADER]: '10.9.9.9' };
    expect(await put({ publicKey: LEGACY_PUBLIC_KEY, password: PASSWORD, forging: false }, remote)).toEqual({
      status: 403,
      body: { message: 'Access Denied' },
    });
    expect(await call('GET', '/api/node/status/forging', undefined, remote)).toEqual({ status: 403, body: { message: 'Access Denied' } });
    expect(await forgingOf(LEGACY_PUBLIC_KEY)).toBe(true);
    // In the API whitelist but not the forging one: node status is open to it.
    expect((await call('GET', '/api/node/status', undefined, remote)).status).toBe(200);
    // Outside both: the general API gate answers first.
    expect(await call('GET', '/api/node/status', undefined, { [PROXY_HEADER]: '192.168.7.7' })).toEqual({
      status: 403,
      body: { message: 'API access denied', errors: ['API access blocked.'] },
    });
    const whitelisted = await call('GET', '/api/node/status/forging', undefined, { [PROXY_HEADER]: '10.1.2.3' });
    expect(whitelisted.status).toBe(200);
    // The proxy appends the address it saw: an entry the client wrote before it grants nothing.
    const spoofed = { [PROXY_HEADER]: '10.1.2.3, 192.168.7.7' };
    expect((await call('GET', '/api/node/status/forging', undefined, spoofed)).status).toBe(403);
    const appended = { [PROXY_HEADER]: '192.168.7.7, 10.1.2.3' };
    expect((await call('GET', '/api/node/status/forging', undefined, appended)).status).toBe(200);
  });

  it('disables with the right password', async () => {
    const off = await put({ publicKey: LEGACY_PUBLIC_KEY, password: PASSWORD, forging: false });
    expect(off.body.data).toEqual([{ publicKey: LEGACY_PUBLIC_KEY, forging: false }]);
    expect(await forgingOf(LEGACY_PUBLIC_KEY)).toBe(false);
    expect(await generatorEnabled()).toBe(false);
    // The forging status in Core's terms, in the data dir, to be copied to another node.
    const file = JSON.parse(readFileSync(join(dir, 'data', 'forger_info.json'), 'utf8')) as { forgerInfo: { address: string }[] };
    expect(file.forgerInfo.map((entry) => entry.address)).toContain(LEGACY_ADDRESS);
    expect(Object.keys(file.forgerInfo[0] as object)).toEqual(['address', 'height', 'maxHeightPrevoted', 'maxHeightPreviouslyForged']);
  });

  const patch = (body: unknown, headers?: Record<string, string>): Promise<Answer> =>
    call('PATCH', '/api/forging', typeof body === 'string' ? body : JSON.stringify(body), headers);
  const LEGACY_HEX = addressFromPublicKey(Buffer.from(LEGACY_PUBLIC_KEY, 'hex')).toString('hex');

  it('PATCH /api/forging (Lisk Core 3.x) enables by address with the stored forger info, refuses others, disables', async () => {
    const { status } = await rpc<{ status: { address: string; height: number; maxHeightPrevoted: number; maxHeightGenerated: number }[] }>(
      rpcPort,
      'generator_getStatus',
    );
    const stored = status.find((entry) => entry.address === LEGACY_ADDRESS);
    expect(stored).toBeDefined();
    const { height, maxHeightPrevoted, maxHeightGenerated } = stored as NonNullable<typeof stored>;
    const claim = { address: LEGACY_HEX, password: PASSWORD, height, maxHeightPreviouslyForged: maxHeightGenerated, maxHeightPrevoted };

    // A claim that differs from the stored info in one height, which the sync check does not look at.
    const wrong = await patch({ ...claim, forging: true, maxHeightPreviouslyForged: maxHeightGenerated + 1 });
    expect(wrong.status).toBe(500);
    const current = JSON.stringify({ height, maxHeightPrevoted, maxHeightPreviouslyForged: maxHeightGenerated });
    const contradicting = `Failed to enable forging due to contradicting forger info. Current stored: ${current}`;
    expect(wrong.body).toEqual({
      errors: [
        {
          message: contradicting,
          response: { jsonrpc: '2.0', id: null, error: { message: 'Internal error', code: -32603, data: contradicting } },
        },
      ],
    });
    expect((await patch({ ...claim, forging: true, password: 'not the password' })).body.errors[0].message).toBe(
      'Invalid password and public key combination',
    );
    expect((await patch({ ...claim, forging: true, address: 'ab'.repeat(20) })).body.errors[0].message).toBe(
      `Delegate with address: ${'ab'.repeat(20)} not found`,
    );
    expect(await generatorEnabled()).toBe(false);

    const on = await patch({ ...claim, forging: true });
    expect(on).toEqual({
      status: 200,
      body: {
        meta: { count: 1 },
        data: { address: LEGACY_HEX, forging: true, height, maxHeightPreviouslyForged: maxHeightGenerated, maxHeightPrevoted },
      },
    });
    expect(await generatorEnabled()).toBe(true);
    expect(await forgingOf(LEGACY_PUBLIC_KEY)).toBe(true);

    const off = await patch({ ...claim, forging: false });
    expect(off.status).toBe(200);
    expect(off.body.data.forging).toBe(false);
    expect(await generatorEnabled()).toBe(false);
  });

  it('PATCH /api/forging answers 3.x validation errors (400) and whitelist refusals (401)', async () => {
    expect(await patch({ address: LEGACY_HEX, password: 1 })).toEqual({
      status: 400,
      body: {
        errors: [
          {
            message:
              "Lisk validator found 2 error[s]:\nMissing property, must have required property 'forging'\nProperty '.password' should be of type 'string'",
          },
        ],
      },
    });
    expect(await patch({ address: 'zz', password: PASSWORD, forging: true })).toEqual({
      status: 400,
      body: { errors: [{ message: 'The address parameter should be a hex string.' }] },
    });
    expect((await patch({ address: LEGACY_HEX, password: PASSWORD, forging: true, height: 1 })).body.errors[0].message).toBe(
      'The maxHeightPreviouslyForged, maxHeightPrevoted, height parameter must be specified and greater than or equal to 0.',
    );
    expect(await patch({ address: LEGACY_HEX, password: PASSWORD, forging: false }, { [PROXY_HEADER]: '10.9.9.9' })).toEqual({
      status: 401,
      body: { errors: { message: 'Access Denied' } },
    });
  });

  it('answers 2,000 malformed requests to the legacy API and the RPC with JSON errors and keeps running', async () => {
    const random = mulberry32(0x5eed);
    const bodies = malformedBodies(random);
    const targets = [
      { method: 'PUT', url: `http://127.0.0.1:${apiPort}/api/node/status/forging` },
      { method: 'PATCH', url: `http://127.0.0.1:${apiPort}/api/forging` },
      { method: 'GET', url: `http://127.0.0.1:${apiPort}/api/node/status/forging?publicKey=` },
      { method: 'POST', url: `http://127.0.0.1:${rpcPort}/rpc` },
    ];
    let answered = 0;
    const notJson: string[] = [];
    for (let i = 0; i < 2_000; i += 1) {
      const target = targets[i % targets.length] as (typeof targets)[number];
      const body = bodies[Math.floor(random() * bodies.length)] as string;
      const get = target.method === 'GET';
      const response = await fetch(get ? `${target.url}${encodeURIComponent(body.slice(0, 80))}` : target.url, {
        method: target.method,
        headers: { 'content-type': 'application/json' },
        ...(get ? {} : { body }),
      });
      const text = await response.text();
      try {
        JSON.parse(text);
        // An error answer: an HTTP error status from the legacy API, a JSON-RPC error from the RPC.
        const isError = target.method === 'POST' ? text.includes('"error"') : response.status >= 400 || get;
        if (!isError) notJson.push(`${target.method} ${body} -> ${response.status} ${text.slice(0, 80)}`);
      } catch {
        notJson.push(`${target.method} ${body} -> ${response.status} ${text.slice(0, 80)}`);
      }
      answered += 1;
    }
    console.log(
      `malformed requests: ${answered} answered, ${notJson.length} without a JSON error answer, node exit code ${node.child.exitCode}`,
    );
    expect(notJson).toEqual([]);
    expect(node.child.exitCode).toBeNull();
    expect((await call('GET', '/api/node/status')).status).toBe(200);
    expect(await rpc(rpcPort, 'system_getNodeInfo')).toBeDefined();
  }, 120_000);
});

/** Bodies that are not valid requests: broken JSON, wrong shapes and types, odd text. */
function malformedBodies(random: () => number): string[] {
  const values = ['null', 'true', '-1', '1e309', '"x"', '[]', '{}', '"\\u0000"', '1.5', `"${'a'.repeat(300)}"`, '{"a":{"b":[[]]}}'];
  const pick = (): string => values[Math.floor(random() * values.length)] as string;
  const fixed = [
    '',
    '{',
    '}',
    '[',
    'null',
    '[1,2,3]',
    '"string"',
    '{"jsonrpc":"2.0"}',
    '{"jsonrpc":"2.0","id":1,"method":null}',
    '{"jsonrpc":"2.0","id":{},"method":"system_getNodeInfo","params":[]}',
    '{"jsonrpc":"2.0","id":1,"method":"token_getBalance","params":{"address":1}}',
    '{"jsonrpc":"2.0","id":1,"method":"chain_getBlockByHeight","params":{"height":-1}}',
    '[{"jsonrpc":"2.0"},{}]',
    '\u0000\u0001',
    '\xff\xfe',
    '{"publicKey":"zz","password":null,"forging":"yes"}',
    '{"address":"","password":"","forging":true,"height":-5,"maxHeightPreviouslyForged":null,"maxHeightPrevoted":"1"}',
    '{"__proto__":{"forging":true}}',
  ];
  const generated = Array.from({ length: 60 }, () => {
    const keys = ['publicKey', 'password', 'forging', 'address', 'height', 'jsonrpc', 'method', 'params', 'id', 'overwrite'];
    const entries = Array.from({ length: 1 + Math.floor(random() * 4) }, () => `"${keys[Math.floor(random() * keys.length)]}":${pick()}`);
    const json = `{${entries.join(',')}}`;
    // Some are cut short, to be invalid JSON.
    return random() < 0.3 ? json.slice(0, Math.floor(random() * json.length)) : json;
  });
  return [...fixed, ...generated];
}
