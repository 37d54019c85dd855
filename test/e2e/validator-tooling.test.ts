/**
 * The validator tooling end to end: a real devnet node whose key file leaves out one
 * dev validator; that validator's keys are derived with `keys:create` (passphrase and password
 * typed at hidden prompts on a pseudo-terminal driven by Python's pty module), imported with
 * `keys:import`, given a status with `generator_setStatus` through `endpoint:invoke`, enabled
 * with `generator:enable --use-status-value`, seen forging, and disabled. A transfer made with
 * `transaction:create ... --send` (params asked at prompts) lands in a block. No secret appears
 * in anything the tools or the node print, and the key file is 0600 and decrypts.
 *
 * The argon2id cost is lowered with the test-only BASALT_TEST_ONLY_ARGON2_MEMORY_KIB.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codec } from '../../src/codec/index.js';
import { decryptMessageWithPassword, type EncryptedMessageObject } from '../../src/crypto/index.js';
import { plainGeneratorKeysSchema } from '../../src/engine/generator/generator-store.js';
import { runBasalt, type CliResult } from '../support/cli.js';
import { loadJsonFixture } from '../support/fixtures.js';
import { ROOT, rpc, startBasaltNode, stopProcess, waitFor, waitForHeight, type NodeProcess } from '../support/node-process.js';
import { runBasaltOnPty, type PtyResult } from '../support/pty.js';

// Published devnet passphrases (config/devnet/DEV_PASSPHRASES.md).
const VALIDATORS_PASSPHRASE =
  'cash rather pizza south catch ensure planet sorry method million affair nasty enter pottery smooth begin record issue olive pen digital laptop oppose report';
const ACCOUNTS_PASSPHRASE =
  'balcony timber spider replace olympic innocent obvious slogan select tunnel health adjust setup fork scrub lion coconut wife ice color process access minute palace';
const PASSWORD = 'e2e-Pa55word-of-validator-2';
const WRONG_PASSWORD = 'Wr0ng-e2e-passw0rd-XYZ';
const LEFT_OUT_INDEX = 2;
const RECIPIENT = 'lsks4hkwer2d588ee4joya3rca9tgb4whqo6vedxz';
const TEST_ENV = { BASALT_TEST_ONLY_ARGON2_MEMORY_KIB: '1024' };

interface KeysEntry {
  address: string;
  keyPath: string;
  publicKey: string;
  privateKey: string;
  plain: Record<string, string>;
  encrypted: Record<string, unknown>;
}

const devKeys = JSON.parse(readFileSync(join(ROOT, 'config/devnet/dev-validators.json'), 'utf8')) as { keys: KeysEntry[] };
const leftOut = devKeys.keys[LEFT_OUT_INDEX] as KeysEntry;

/** Everything the tools and the node printed, scanned for secrets at the end. */
const printed: string[] = [];

async function runOnPty(args: string[], steps: [string, string][], env: Record<string, string> = {}): Promise<PtyResult> {
  const result = await runBasaltOnPty(args, steps, { env });
  printed.push(result.transcript);
  return result;
}

async function basalt(args: string[], input = '', env: Record<string, string> = {}): Promise<CliResult> {
  const result = await runBasalt(args, { input, env });
  printed.push(result.stdout, result.stderr);
  return result;
}

interface Header {
  height: number;
  maxHeightPrevoted: number;
  generatorAddress: string;
}

interface StatusEntry {
  address: string;
  height: number;
  maxHeightPrevoted: number;
  maxHeightGenerated: number;
  generatorKey: string;
  blsKey: string;
  enabled: boolean;
}

describe('validator tooling against a running devnet node', () => {
  let dir: string;
  let dataPath: string;
  let keysPath: string;
  let port: number;
  let node: NodeProcess | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'basalt-vt-'));
    dataPath = join(dir, 'data');
    keysPath = join(dir, 'validator', 'keys.json');
    // The node's own key file: every dev validator but one.
    const reducedKeys = join(dir, 'node-keys.json');
    writeFileSync(reducedKeys, JSON.stringify({ keys: devKeys.keys.filter((_, i) => i !== LEFT_OUT_INDEX) }));
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ generator: { keys: { fromFile: reducedKeys } } }));
    node = startBasaltNode(['--data-path', dataPath, '--config', config, '--log', 'info']);
    port = (await node.ports()).rpc;
    await waitForHeight(port, 2, 90_000, { output: node.output });
  }, 120_000);

  afterAll(async () => {
    if (node) await stopProcess(node.child);
    rmSync(dir, { recursive: true, force: true });
  });

  it('keys:create derives the left-out validator from hidden prompts into a 0600 key file', async () => {
    const result = await runOnPty(
      ['keys:create', '--chainid', '4', '--offset', String(LEFT_OUT_INDEX), '--count', '1', '--output', keysPath],
      [
        ['Please enter passphrase: ', VALIDATORS_PASSPHRASE],
        ['Please re-enter passphrase: ', VALIDATORS_PASSPHRASE],
        ['Please enter password: ', PASSWORD],
        ['Please re-enter password: ', PASSWORD],
      ],
      TEST_ENV,
    );
    expect(result.answered).toBe(4);
    expect(result.code).toBe(0);
    expect(result.transcript).toContain(`Successfully written data to ${keysPath}`);
    expect(statSync(keysPath).mode & 0o777).toBe(0o600);

    const file = JSON.parse(readFileSync(keysPath, 'utf8')) as { keys: KeysEntry[] };
    expect(file.keys).toHaveLength(1);
    const entry = file.keys[0] as KeysEntry;
    // The same keys as the devnet's published file, and the format of Lisk's key files.
    expect(entry.address).toBe(leftOut.address);
    expect(entry.keyPath).toBe(leftOut.keyPath);
    expect(entry.publicKey).toBe(leftOut.publicKey);
    expect(entry.privateKey).toBe(leftOut.privateKey);
    expect(entry.plain).toEqual(leftOut.plain);
    const fixture = loadJsonFixture<{ keys: KeysEntry[] }>('genesis/lisk-core-devnet/dev-validators.json').keys[0] as KeysEntry;
    expect(Object.keys(entry)).toEqual(Object.keys(fixture));
    expect(Object.keys(entry.plain)).toEqual(Object.keys(fixture.plain));
    expect(Object.keys(entry.encrypted)).toEqual(['ciphertext', 'mac', 'kdf', 'kdfparams', 'cipher', 'cipherparams', 'version']);
    const encrypted = entry.encrypted as unknown as EncryptedMessageObject;
    expect(encrypted).toMatchObject({
      kdf: 'argon2id',
      cipher: 'aes-128-gcm',
      version: '1',
      kdfparams: { parallelism: 4, iterations: 1, memorySize: 1024 },
    });

    const plaintext = await decryptMessageWithPassword(encrypted, PASSWORD);
    const decrypted = codec.decode<Record<string, Buffer>>(plainGeneratorKeysSchema, plaintext);
    expect(decrypted.generatorKey?.toString('hex')).toBe(leftOut.plain.generatorKey);
    expect(decrypted.generatorPrivateKey?.toString('hex')).toBe(leftOut.plain.generatorPrivateKey);
    expect(decrypted.blsKey?.toString('hex')).toBe(leftOut.plain.blsKey);
    expect(decrypted.blsPrivateKey?.toString('hex')).toBe(leftOut.plain.blsPrivateKey);
    await expect(decryptMessageWithPassword(encrypted, WRONG_PASSWORD)).rejects.toThrow();
  });

  it('keys:import sends the encrypted keys to the running node', async () => {
    const before = await basalt([
      'endpoint:invoke',
      'generator_hasKeys',
      JSON.stringify({ address: leftOut.address }),
      '--data-path',
      dataPath,
    ]);
    expect(before.code).toBe(0);
    expect(JSON.parse(before.stdout)).toEqual({ hasKey: false });

    const imported = await basalt(['keys:import', '--file-path', keysPath, '--data-path', dataPath]);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toBe('');

    const after = await basalt([
      'endpoint:invoke',
      'generator_hasKeys',
      JSON.stringify({ address: leftOut.address }),
      '--data-path',
      dataPath,
    ]);
    expect(JSON.parse(after.stdout)).toEqual({ hasKey: true });
    const all = await rpc<{ keys: { address: string; type: string; data: Record<string, unknown> }[] }>(port, 'generator_getAllKeys');
    const stored = all.keys.find((key) => key.address === leftOut.address);
    expect(stored?.type).toBe('encrypted');
    expect(stored?.data).not.toHaveProperty('mac');
  });

  it('generator:status, generator_setStatus, generator:enable --use-status-value: the validator forges', async () => {
    const first = await basalt(['generator:status', '--data-path', dataPath]);
    expect(first.code).toBe(0);
    const before = (JSON.parse(first.stdout) as { info: { status: StatusEntry[] } }).info.status;
    // Keys without a status record are not listed (lisk-sdk getStatus); the node's own are, enabled.
    expect(before.find((entry) => entry.address === leftOut.address)).toBeUndefined();
    expect(before.some((entry) => entry.enabled)).toBe(true);

    const tip = await waitFor(
      'a prevoted height',
      async () => {
        const block = await rpc<{ header: Header }>(port, 'chain_getLastBlock');
        return block.header.maxHeightPrevoted >= 1 ? block.header : undefined;
      },
      90_000,
    );
    const status = {
      address: leftOut.address,
      height: tip.height,
      maxHeightGenerated: tip.height,
      maxHeightPrevoted: tip.maxHeightPrevoted - 1,
    };
    const set = await basalt(['endpoint:invoke', 'generator_setStatus', JSON.stringify(status), '--data-path', dataPath]);
    expect(set.stderr).toBe('');
    expect(JSON.parse(set.stdout)).toEqual({});

    const second = await basalt(['generator:status', '--data-path', dataPath, '--pretty']);
    const listed = (JSON.parse(second.stdout) as { info: { status: StatusEntry[] } }).info.status.find(
      (entry) => entry.address === leftOut.address,
    );
    expect(listed).toEqual({ ...status, generatorKey: '', blsKey: '', enabled: false });

    // A wrong password (from a pipe) changes nothing and says why.
    const wrong = await basalt(['generator:enable', leftOut.address, '--use-status-value', '--data-path', dataPath], `${WRONG_PASSWORD}\n`);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('Unsupported state or unable to authenticate data');

    const enabled = await runOnPty(
      ['generator:enable', leftOut.address, '--use-status-value', '--data-path', dataPath],
      [['Enter password to decrypt the encrypted passphrase: ', PASSWORD]],
    );
    expect(enabled.answered).toBe(1);
    expect(enabled.code).toBe(0);
    expect(enabled.transcript).toContain(`Enabled block generation for ${leftOut.address}`);

    const third = await basalt(['generator:status', '--data-path', dataPath]);
    const now = (JSON.parse(third.stdout) as { info: { status: StatusEntry[] } }).info.status.find(
      (entry) => entry.address === leftOut.address,
    );
    expect(now).toMatchObject({ enabled: true, generatorKey: leftOut.plain.generatorKey, blsKey: leftOut.plain.blsKey });

    const forged = await waitFor(
      'a block by the enabled validator',
      async () => {
        const last = await rpc<{ header: Header }>(port, 'chain_getLastBlock');
        const from = Math.max(tip.height + 1, last.header.height - 20);
        const blocks = await rpc<{ header: Header }[]>(port, 'chain_getBlocksByHeightBetween', { from, to: last.header.height });
        return blocks.find((block) => block.header.generatorAddress === leftOut.address)?.header;
      },
      150_000,
    );
    expect(forged.height).toBeGreaterThan(tip.height);
  }, 240_000);

  it('generator:disable stops it (password from a pipe)', async () => {
    const disabled = await basalt(['generator:disable', leftOut.address, '--data-path', dataPath], `${PASSWORD}\n`);
    expect(disabled.stderr).toContain('Enter password to decrypt the encrypted passphrase: ');
    expect(disabled.code).toBe(0);
    expect(disabled.stdout).toBe(`Disabled block generation for ${leftOut.address}\n`);
    const status = await basalt(['generator:status', '--data-path', dataPath]);
    const entry = (JSON.parse(status.stdout) as { info: { status: StatusEntry[] } }).info.status.find(
      (item) => item.address === leftOut.address,
    );
    expect(entry?.enabled).toBe(false);
    // The status written by its blocks stays for the next --use-status-value.
    expect(entry?.height).toBeGreaterThan(0);
  });

  it('transaction:create token transfer --send (params asked at prompts) is included in a block', async () => {
    const created = await runOnPty(
      ['transaction:create', 'token', 'transfer', '1000000', '--send', '--json', '--data-path', dataPath],
      [
        ['Please enter passphrase: ', ACCOUNTS_PASSPHRASE],
        ['Please enter: tokenID: ', '0400000000000000'],
        ['Please enter: amount: ', '100000000'],
        ['Please enter: recipientAddress: ', RECIPIENT],
        ['Please enter: data: ', 'validator tooling e2e'],
      ],
    );
    expect(created.answered).toBe(5);
    expect(created.code).toBe(0);
    const id = /Transaction with id: '([0-9a-f]{64})' received by node\./.exec(created.transcript)?.[1];
    expect(id).toBeDefined();
    const json = /\{"transaction":\{.*\}\}/.exec(created.transcript)?.[0];
    const transaction = (JSON.parse(json as string) as { transaction: Record<string, unknown> }).transaction;
    expect(transaction).toMatchObject({
      module: 'token',
      command: 'transfer',
      fee: '1000000',
      params: { tokenID: '0400000000000000', amount: '100000000', recipientAddress: RECIPIENT, data: 'validator tooling e2e' },
      id,
    });
    const included = await waitFor('inclusion', async () => rpc<{ id: string }>(port, 'chain_getTransactionByID', { id }), 90_000);
    expect(included.id).toBe(id);
  }, 150_000);

  it('transaction:create with --params from a pipe-fed passphrase and --send is included too', async () => {
    const params = JSON.stringify({ tokenID: '0400000000000000', amount: 5, recipientAddress: RECIPIENT, data: '' });
    const sent = await basalt(
      [
        'transaction:create',
        'token',
        'transfer',
        '1000000',
        '--params',
        params,
        '--key-derivation-path',
        "m/44'/134'/1'",
        '--send',
        '--data-path',
        dataPath,
      ],
      `${ACCOUNTS_PASSPHRASE}\n`,
    );
    expect(sent.code).toBe(0);
    const id = /Transaction with id: '([0-9a-f]{64})'/.exec(sent.stdout)?.[1];
    const hex = (JSON.parse(sent.stdout.split('\n')[0] as string) as { transaction: string }).transaction;
    expect(hex).toMatch(/^[0-9a-f]+$/);
    const included = await waitFor('inclusion', async () => rpc<{ id: string }>(port, 'chain_getTransactionByID', { id }), 90_000);
    expect(included.id).toBe(id);
  }, 120_000);

  it('no passphrase, password or private key appears in what the tools or the node printed', () => {
    const secrets = [
      VALIDATORS_PASSPHRASE,
      ACCOUNTS_PASSPHRASE,
      PASSWORD,
      WRONG_PASSWORD,
      leftOut.privateKey,
      leftOut.plain.generatorPrivateKey as string,
      leftOut.plain.blsPrivateKey as string,
      // Words of the passphrases are too common to scan alone; a run of three is not.
      'cash rather pizza',
      'balcony timber spider',
    ];
    const nodeLog = node?.output() ?? '';
    const everything = [...printed, nodeLog].join('\n');
    expect(everything.length).toBeGreaterThan(0);
    expect(nodeLog).toContain('Block generation enabled');
    for (const secret of secrets) expect(everything.includes(secret)).toBe(false);
  });
});
