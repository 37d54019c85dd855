/**
 * The legacy module on Basalt's default devnet: a real `basalt start` on an empty data dir
 * finalizes blocks within about ten blocks (30 s) although every genesis validator started banned
 * and key-less; then the legacy validator that the bootstrap left out registers its keys with
 * `transaction:create legacy registerKeys 400000 --key-derivation-path=legacy --send`, answering
 * its prompts on a pseudo-terminal exactly as config/devnet/DEV_PASSPHRASES.md tells a newcomer,
 * and is unbanned; the legacy account reclaims its balance with `transaction:create legacy
 * reclaimLSK`; certification starts at genesis.minimumCertifyHeight; and no passphrase appears in
 * anything the node or the tools print.
 *
 * The time from the start of the process to the first finalized block is printed (not asserted:
 * timing depends on the machine; the block count is asserted instead).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codec, type Schema } from '../../src/codec/index.js';
import { decodeLisk32 } from '../../src/crypto/index.js';
import { accountReclaimedDataSchema, keysRegisteredDataSchema } from '../../src/modules/legacy/events.js';
import { ROOT, rpc, startBasaltNode, stopProcess, waitFor, type NodeProcess } from '../support/node-process.js';
import { runBasaltOnPty, type PtyResult } from '../support/pty.js';

// Published devnet passphrases (config/devnet/DEV_PASSPHRASES.md): public, devnet only.
const VALIDATORS_PASSPHRASE =
  'cash rather pizza south catch ensure planet sorry method million affair nasty enter pottery smooth begin record issue olive pen digital laptop oppose report';
const LEGACY_ACCOUNT_PASSPHRASE =
  'admit snow cruel stable ring kangaroo skirt tumble brief beach wing label equip ghost episode already gloom step garlic coffee photo gentle ready omit';
const LEGACY_VALIDATOR = 'lskkefqb2rhqovmyeabtwcnte8u5fykj2e39bysrb';
const LEGACY_VALIDATOR_INDEX = 8;
const RECLAIMER = 'lskjjg9np369vr9ph286hnhhkj7ab6pdx9h8h29oy';
const RECLAIMER_LEGACY_ADDRESS = 'd2a4680a91d33ee7';
const RECLAIMER_PUBLIC_KEY = 'f7e18a87a8c9a8f9eeb7c0ebd205c75620994f6d1f4a9d69ab8217dd220c1ff7';
const LEGACY_BALANCE = 500_000_000_000n;
const RECLAIMER_START_BALANCE = 1_000_000_000n;
const TOKEN_ID = '0400000000000000';
const FEE = 400_000n;
const MINIMUM_CERTIFY_HEIGHT = 36;

interface KeysEntry {
  address: string;
  keyPath: string;
  plain: { generatorKey: string; blsKey: string; blsProofOfPossession: string; generatorPrivateKey: string; blsPrivateKey: string };
  privateKey: string;
}
const legacyEntry = (JSON.parse(readFileSync(join(ROOT, 'config/devnet/dev-validators.json'), 'utf8')) as { keys: KeysEntry[] }).keys[
  LEGACY_VALIDATOR_INDEX
] as KeysEntry;

/** Everything the tools printed, scanned for secrets at the end. */
const printed: string[] = [];

async function runOnPty(args: string[], steps: [string, string][]): Promise<PtyResult> {
  const result = await runBasaltOnPty(args, steps);
  printed.push(result.transcript);
  return result;
}

interface NodeInfo {
  height: number;
  finalizedHeight: number;
}

interface EventJSON {
  module: string;
  name: string;
  data: string;
  topics: string[];
}

interface BlockJSON {
  header: { height: number; aggregateCommit: { height: number; aggregationBits: string; certificateSignature: string } };
  transactions: { id: string }[];
}

const decode = <T>(schema: Schema, event: EventJSON): T => codec.decode<T>(schema, Buffer.from(event.data, 'hex'));

describe('the legacy module on the default devnet (real node)', () => {
  let dataPath: string;
  let port: number;
  let node: NodeProcess | undefined;
  let startedAt: number;

  /** The height of the block that includes transaction `id`, once it is included. */
  async function inclusionHeight(id: string): Promise<number> {
    await waitFor('inclusion', async () => rpc<{ id: string }>(port, 'chain_getTransactionByID', { id }), 90_000);
    const tip = (await rpc<NodeInfo>(port, 'system_getNodeInfo')).height;
    const blocks = await rpc<BlockJSON[]>(port, 'chain_getBlocksByHeightBetween', { from: Math.max(1, tip - 20), to: tip });
    const block = blocks.find((candidate) => candidate.transactions.some((tx) => tx.id === id));
    expect(block).toBeDefined();
    return (block as BlockJSON).header.height;
  }

  /** The events of transaction `id` in the block at `height` (topic 0 is the transaction's topic). */
  async function transactionEvents(height: number, id: string): Promise<EventJSON[]> {
    const events = await rpc<EventJSON[]>(port, 'chain_getEvents', { height });
    // Topic 0 of a transaction's events: 0x04 ‖ transaction ID (lisk-sdk EVENT_TOPIC_TRANSACTION_EXECUTION).
    return events.filter((event) => event.topics[0] === `04${id}`);
  }

  beforeAll(async () => {
    dataPath = mkdtempSync(join(tmpdir(), 'basalt-devnet-legacy-'));
    startedAt = Date.now();
    // Default settings (devnet preset, its own keys and bootstrap): only the data dir and the RPC port differ.
    node = startBasaltNode(['--data-path', dataPath, '--log', 'info']);
    port = (await node.ports()).rpc;
  });

  afterAll(async () => {
    if (node) await stopProcess(node.child);
    rmSync(dataPath, { recursive: true, force: true });
  });

  it('finalizes within about ten blocks of the first start, with the legacy validator banned and key-less', async () => {
    const first = await waitFor(
      'the first finalized block',
      async () => {
        const info = await rpc<NodeInfo>(port, 'system_getNodeInfo');
        return info.finalizedHeight >= 1 ? info : undefined;
      },
      120_000,
    );
    const seconds = (Date.now() - startedAt) / 1000;
    console.info(
      `devnet: first finalized block ${seconds.toFixed(1)} s after the process started (tip height ${first.height}, finalized ${first.finalizedHeight})`,
    );
    // 7 init validators with weight 1 (precommit threshold 5) on 3 s blocks: about 10 blocks.
    expect(first.height).toBeLessThanOrEqual(12);

    // Block 1 holds the bootstrap: 8 key registrations and 8 self-stakes, all successful.
    const bootstrap = await rpc<{ module: string; command: string }[]>(port, 'chain_getTransactionsByHeight', { height: 1 });
    expect(bootstrap.filter((tx) => tx.module === 'legacy' && tx.command === 'registerKeys')).toHaveLength(8);
    expect(bootstrap.filter((tx) => tx.module === 'pos' && tx.command === 'stake')).toHaveLength(8);
    const events = await rpc<EventJSON[]>(port, 'chain_getEvents', { height: 1 });
    expect(events.filter((event) => event.name === 'keysRegistered')).toHaveLength(8);
    expect(events.filter((event) => event.name === 'commandExecutionResult').map((event) => event.data)).toEqual(
      new Array(16).fill('0801'),
    );

    const validator = await rpc<{ name: string; isBanned: boolean }>(port, 'pos_getValidator', { address: LEGACY_VALIDATOR });
    expect(validator).toMatchObject({ name: 'basalt_dev_legacy', isBanned: true });
    const keys = await rpc<{ generatorKey: string; blsKey: string }>(port, 'validators_getValidator', { address: LEGACY_VALIDATOR });
    expect(keys).toEqual({ generatorKey: legacyEntry.plain.generatorKey, blsKey: '00'.repeat(48) });
  }, 150_000);

  it('transaction:create legacy registerKeys --key-derivation-path=legacy --send: included, keysRegistered, unbanned', async () => {
    const created = await runOnPty(
      [
        'transaction:create',
        'legacy',
        'registerKeys',
        String(FEE),
        '--key-derivation-path=legacy',
        '--send',
        '--json',
        '--data-path',
        dataPath,
      ],
      [
        ['Please enter passphrase: ', VALIDATORS_PASSPHRASE],
        ['Please enter: blsKey: ', legacyEntry.plain.blsKey],
        ['Please enter: proofOfPossession: ', legacyEntry.plain.blsProofOfPossession],
        ['Please enter: generatorKey: ', legacyEntry.plain.generatorKey],
      ],
    );
    expect(created.answered).toBe(4);
    expect(created.code).toBe(0);
    const id = /Transaction with id: '([0-9a-f]{64})' received by node\./.exec(created.transcript)?.[1] as string;
    expect(id).toBeDefined();
    const json = /\{"transaction":\{.*\}\}/.exec(created.transcript)?.[0] as string;
    expect(JSON.parse(json)).toMatchObject({
      transaction: {
        module: 'legacy',
        command: 'registerKeys',
        fee: String(FEE),
        nonce: '0',
        senderPublicKey: legacyEntry.plain.generatorKey,
        params: {
          blsKey: legacyEntry.plain.blsKey,
          proofOfPossession: legacyEntry.plain.blsProofOfPossession,
          generatorKey: legacyEntry.plain.generatorKey,
        },
        id,
      },
    });

    const height = await inclusionHeight(id);
    const events = await transactionEvents(height, id);
    // The fee is locked before the command and settled after it (fee module); in between, the
    // keys and the legacy module's event (lisk-core register_keys.ts order).
    expect(events.map((event) => `${event.module}:${event.name}`)).toEqual([
      'token:lock',
      'validators:generatorKeyRegistration',
      'validators:blsKeyRegistration',
      'legacy:keysRegistered',
      'token:unlock',
      'token:transfer',
      'token:burn',
      'fee:generatorFeeProcessed',
      'legacy:commandExecutionResult',
    ]);
    const registered = events.find((event) => event.name === 'keysRegistered') as EventJSON;
    expect(decode<{ address: Buffer; generatorKey: Buffer; blsKey: Buffer }>(keysRegisteredDataSchema, registered)).toEqual({
      address: decodeLisk32(LEGACY_VALIDATOR),
      generatorKey: Buffer.from(legacyEntry.plain.generatorKey, 'hex'),
      blsKey: Buffer.from(legacyEntry.plain.blsKey, 'hex'),
    });
    expect(registered.topics).toEqual([
      `04${id}`,
      decodeLisk32(LEGACY_VALIDATOR).toString('hex'),
      legacyEntry.plain.generatorKey,
      legacyEntry.plain.blsKey,
    ]);
    expect(events.find((event) => event.name === 'commandExecutionResult')?.data).toBe('0801');

    const validator = await rpc<{ isBanned: boolean; selfStake: string }>(port, 'pos_getValidator', { address: LEGACY_VALIDATOR });
    expect(validator).toMatchObject({ isBanned: false, selfStake: '200000000000' });
    const keys = await rpc<{ generatorKey: string; blsKey: string }>(port, 'validators_getValidator', { address: LEGACY_VALIDATOR });
    expect(keys).toEqual({ generatorKey: legacyEntry.plain.generatorKey, blsKey: legacyEntry.plain.blsKey });
  }, 150_000);

  it('transaction:create legacy reclaimLSK --key-derivation-path=legacy --send moves the legacy balance', async () => {
    const before = await rpc<{ legacyAddress: string; balance: string }>(port, 'legacy_getLegacyAccount', {
      publicKey: RECLAIMER_PUBLIC_KEY,
    });
    expect(before).toEqual({ legacyAddress: RECLAIMER_LEGACY_ADDRESS, balance: LEGACY_BALANCE.toString() });

    const created = await runOnPty(
      ['transaction:create', 'legacy', 'reclaimLSK', String(FEE), '--key-derivation-path=legacy', '--send', '--data-path', dataPath],
      [
        ['Please enter passphrase: ', LEGACY_ACCOUNT_PASSPHRASE],
        ['Please enter: amount: ', LEGACY_BALANCE.toString()],
      ],
    );
    expect(created.answered).toBe(2);
    expect(created.code).toBe(0);
    const id = /Transaction with id: '([0-9a-f]{64})' received by node\./.exec(created.transcript)?.[1] as string;
    expect(id).toBeDefined();

    const height = await inclusionHeight(id);
    const events = await transactionEvents(height, id);
    expect(events.map((event) => `${event.module}:${event.name}`)).toEqual([
      'token:lock',
      'token:unlock',
      'token:transfer',
      'legacy:accountReclaimed',
      'token:unlock',
      'token:transfer',
      'token:burn',
      'fee:generatorFeeProcessed',
      'legacy:commandExecutionResult',
    ]);
    const reclaimed = events.find((event) => event.name === 'accountReclaimed') as EventJSON;
    expect(decode<{ legacyAddress: Buffer; address: Buffer; amount: bigint }>(accountReclaimedDataSchema, reclaimed)).toEqual({
      legacyAddress: Buffer.from(RECLAIMER_LEGACY_ADDRESS, 'hex'),
      address: decodeLisk32(RECLAIMER),
      amount: LEGACY_BALANCE,
    });
    expect(events.find((event) => event.name === 'commandExecutionResult')?.data).toBe('0801');

    const after = await rpc<{ balance: string }>(port, 'legacy_getLegacyAccount', { publicKey: RECLAIMER_PUBLIC_KEY });
    expect(after.balance).toBe('0');
    const balance = await rpc<{ availableBalance: string }>(port, 'token_getBalance', { address: RECLAIMER, tokenID: TOKEN_ID });
    expect(balance.availableBalance).toBe((RECLAIMER_START_BALANCE - FEE + LEGACY_BALANCE).toString());
  }, 150_000);

  it('certifies first the last height of the first elected round (genesis.minimumCertifyHeight)', async () => {
    const certifying = await waitFor(
      'the first certificate',
      async () => {
        const tip = (await rpc<NodeInfo>(port, 'system_getNodeInfo')).height;
        if (tip < MINIMUM_CERTIFY_HEIGHT) return undefined;
        const blocks = await rpc<BlockJSON[]>(port, 'chain_getBlocksByHeightBetween', { from: MINIMUM_CERTIFY_HEIGHT, to: tip });
        return blocks
          .filter((block) => block.header.aggregateCommit.certificateSignature !== '')
          .sort((a, b) => a.header.height - b.header.height)[0];
      },
      240_000,
      { intervalMs: 1_000 },
    );
    expect(certifying.header.aggregateCommit.height).toBe(MINIMUM_CERTIFY_HEIGHT);
    // All 7 active validators of the first elected set signed (bit i = i-th BLS key in order).
    expect(certifying.header.aggregateCommit.aggregationBits).toBe('7f');
  }, 300_000);

  it('no passphrase or private key appears in what the node or the tools printed', () => {
    const nodeLog = node?.output() ?? '';
    expect(nodeLog).toContain('Submitted the network bootstrap transactions');
    const everything = [...printed, nodeLog].join('\n');
    for (const secret of [
      VALIDATORS_PASSPHRASE,
      LEGACY_ACCOUNT_PASSPHRASE,
      'cash rather pizza',
      'admit snow cruel',
      legacyEntry.privateKey,
      legacyEntry.plain.generatorPrivateKey,
      legacyEntry.plain.blsPrivateKey,
    ]) {
      expect(everything.includes(secret)).toBe(false);
    }
  });
});
