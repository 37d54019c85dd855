/**
 * A Lisk Core 3 chain carried into v4 and producing again, with the real CLI and real processes:
 * `basalt migrate` turns the h309 devnet snapshot of the migration oracle into a mainnet-labelled
 * genesis block (height 310), and `basalt start --network mainnet --genesis` runs a node on it
 * whose keys are the v3 node's forging delegates' (passphrases decrypted from the v3 config, keys
 * derived as `keys:create --add-legacy` derives them: the v3 key pair is the generator key the
 * genesis block registers). Then:
 * - the 101 initial validators of the bootstrap period generate blocks 311, 312, ..., each in its
 *   own slot, signed with its v3 key;
 * - a migrated validator, banned like all of them until it registers its keys, sends
 *   `legacy registerKeys` with `transaction:create ... --key-derivation-path=legacy --send` and is
 *   unbanned with its BLS key, paying the fee from its migrated balance;
 * - one validator follows lisk-migrator's commandsToExecute.txt for real (passphrase:decrypt,
 *   keys:create --add-legacy, keys:import, random_setHashOnion, generator_setStatus with its
 *   forgingStatus.json record, generator:enable --use-status-value) and generates in its next
 *   slot from that status, without a double-signing refusal.
 *
 * Needs the migration oracle beside the repository; skipped (with a line saying so) without it.
 * The mainnet block time is 10 s: the whole file takes about two minutes.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeysFileEntry } from '../../src/config/keys-file-entry.js';
import { runBasalt, type CliResult } from '../support/cli.js';
import { extractV3DataDir, MIGRATION_ORACLE_DIR, migrationOraclePresent, oracleFile } from '../support/migration-fixtures.js';
import {
  legacyKeysEntry,
  v3ConfigPath,
  v3ForgingDelegates,
  writeMigratedNodeConfig,
  type V3ForgingDelegate,
} from '../support/migrated-node.js';
import { rpc, startBasaltNode, stopProcess, waitFor, waitForHeight, type NodeProcess } from '../support/node-process.js';

if (!migrationOraclePresent) {
  process.stdout.write(`migrated node e2e skipped: ${MIGRATION_ORACLE_DIR} does not exist\n`);
}

const SNAPSHOT_HEIGHT = 309;
const GENESIS_HEIGHT = SNAPSHOT_HEIGHT + 1;
const BLOCK_TIME = 10;
const REGISTER_KEYS_FEE = 400_000n;
/** token module's minimum remaining balance (lisk-sdk v6.1.0 framework/src/modules/token/constants.ts). */
const MIN_REMAINING_BALANCE = 5_000_000n;
const KEYS_PASSWORD = 'migrated-e2e-Pa55word';
const TEST_ENV = { BASALT_TEST_ONLY_ARGON2_MEMORY_KIB: '1024' };
const NO_BLS_KEY = '00'.repeat(48);

interface Header {
  id: string;
  height: number;
  timestamp: number;
  previousBlockID: string;
  generatorAddress: string;
  maxHeightGenerated: number;
  maxHeightPrevoted: number;
}

interface GenesisAssets {
  assets: { module: string; data: Record<string, unknown> }[];
}

interface PosValidatorAsset {
  address: string;
  name: string;
  generatorKey: string;
  isBanned: boolean;
}

interface UserAsset {
  address: string;
  tokenID: string;
  availableBalance: string;
}

interface ForgingStatusRecord {
  lskAddress: string;
  height: number;
  maxHeightPrevoted: number;
  maxHeightPreviouslyForged: number;
}

interface StatusEntry {
  address: string;
  height: number;
  maxHeightGenerated: number;
  maxHeightPrevoted: number;
  enabled: boolean;
}

/** The 8-byte address a v3 public key had before Lisk Core 3 (LIP 0018), as hex. */
const legacyAddressOf = (publicKey: string): string =>
  createHash('sha256').update(Buffer.from(publicKey, 'hex')).digest().subarray(0, 8).reverse().toString('hex');

describe.skipIf(!migrationOraclePresent)('a node started on a migrated Lisk Core 3 snapshot', () => {
  let dir: string;
  let v3Root: string;
  let dataPath: string;
  let genesisFile: string;
  let node: NodeProcess | undefined;
  let port: number;
  let password: string;
  let delegates: V3ForgingDelegate[];
  /** The legacy key file entry of every forging delegate, by lisk32 address. */
  const entries = new Map<string, KeysFileEntry>();
  const delegateOf = new Map<string, V3ForgingDelegate>();
  let initValidators: string[];
  let posValidators: Map<string, PosValidatorAsset>;
  let users: UserAsset[];

  const basalt = (args: string[], input = '', env: Record<string, string> = {}): Promise<CliResult> =>
    runBasalt(args, { input, env: { ...TEST_ENV, ...env } });
  const nodeOutput = (): string => node?.output() ?? '';
  const header = async (height: number): Promise<Header> =>
    (await rpc<{ header: Header }>(port, 'chain_getBlockByHeight', { height })).header;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'basalt-migrated-'));
    const v3 = extractV3DataDir('h309');
    v3Root = v3.root;
    const output = join(dir, 'migration');
    const migrated = await basalt([
      'migrate',
      '--snapshot-path',
      v3.blockchainDb,
      '--network',
      'mainnet',
      '--snapshot-height',
      String(SNAPSHOT_HEIGHT),
      '--output',
      output,
    ]);
    expect(migrated.code, migrated.stderr).toBe(0);
    genesisFile = join(output, 'genesis_block.blob');
    // The genesis block is the one lisk-migrator made from this snapshot.
    expect(readFileSync(genesisFile)).toEqual(oracleFile('h309-mainnet/genesis_block.blob'));

    const { assets } = JSON.parse(readFileSync(join(output, 'genesis_assets.json'), 'utf8')) as GenesisAssets;
    const data = (module: string): Record<string, unknown> => assets.find((asset) => asset.module === module)?.data ?? {};
    const pos = data('pos') as { validators: PosValidatorAsset[]; genesisData: { initValidators: string[] } };
    initValidators = pos.genesisData.initValidators;
    posValidators = new Map(pos.validators.map((validator) => [validator.address, validator]));
    users = (data('token') as { userSubstore: UserAsset[] }).userSubstore;

    // The v3 node's forging delegates, and their keys as keys:create --add-legacy derives them.
    ({ password, delegates } = v3ForgingDelegates(v3ConfigPath(v3Root)));
    for (const delegate of delegates) {
      const entry = legacyKeysEntry(delegate.passphrase);
      entries.set(entry.address, entry);
      delegateOf.set(entry.address, delegate);
    }
    const keysFile = join(dir, 'keys.json');
    writeFileSync(keysFile, JSON.stringify({ keys: [...entries.values()] }), { mode: 0o600 });
    const config = join(dir, 'config.json');
    writeMigratedNodeConfig(config, keysFile, '127.0.0.1');

    dataPath = join(dir, 'node');
    node = startBasaltNode(['--network', 'mainnet', '--genesis', genesisFile, '--config', config, '--data-path', dataPath]);
    port = (await node.ports()).rpc;
  }, 120_000);

  afterAll(async () => {
    if (node) await stopProcess(node.child);
    if (dir) rmSync(dir, { recursive: true, force: true });
    if (v3Root) rmSync(v3Root, { recursive: true, force: true });
  });

  it('every initial validator is a v3 forging delegate whose v3 key is its generator key', () => {
    expect(initValidators).toHaveLength(101);
    for (const address of initValidators) {
      const validator = posValidators.get(address);
      expect(validator?.generatorKey, address).toBe(entries.get(address)?.publicKey);
      expect(entries.get(address)?.plain?.generatorKey).toBe(validator?.generatorKey);
      // Banned until the validator registers its BLS key (legacy registerKeys).
      expect(validator?.isBanned).toBe(true);
    }
  });

  it('generates blocks 311, 312, 313 on the genesis block, each by the validator of its slot', async () => {
    const info = await rpc<{ chainID: string; genesisHeight: number }>(port, 'system_getNodeInfo');
    expect(info).toMatchObject({ chainID: '00000000', genesisHeight: GENESIS_HEIGHT });
    const genesis = await header(GENESIS_HEIGHT);
    const oracleGenesis = JSON.parse(oracleFile('h309-mainnet/genesis_block.json').toString('utf8')) as { header: { id: string } };
    expect(genesis.id).toBe(oracleGenesis.header.id);

    await waitForHeight(port, GENESIS_HEIGHT + 3, 60_000, { output: nodeOutput });
    // During the bootstrap period the generators are the 101 initial validators; slot n belongs to
    // entry n mod 101 (lisk-sdk v6.1.0 framework/src/modules/validators/method.ts). The list of
    // the first round stands until height 413, far beyond this test.
    const { list } = await rpc<{ list: { address: string; nextAllocatedTime: number }[] }>(port, 'chain_getGeneratorList');
    expect(list.map((entry) => entry.address).sort()).toEqual([...initValidators].sort());
    const bySlot = new Map(list.map((entry) => [Math.floor(entry.nextAllocatedTime / BLOCK_TIME) % list.length, entry.address]));

    let previous = genesis;
    for (let height = GENESIS_HEIGHT + 1; height <= GENESIS_HEIGHT + 3; height += 1) {
      const block = await header(height);
      expect(block.previousBlockID).toBe(previous.id);
      const slot = Math.floor(block.timestamp / BLOCK_TIME);
      expect(slot).toBeGreaterThan(Math.floor(previous.timestamp / BLOCK_TIME));
      expect(block.generatorAddress, `block ${height}`).toBe(bySlot.get(slot % list.length));
      // The node signed with the v3 key the chain knows for that validator.
      const keys = await rpc<{ generatorKey: string }>(port, 'validators_getValidator', { address: block.generatorAddress });
      expect(keys.generatorKey).toBe(entries.get(block.generatorAddress)?.publicKey);
      previous = block;
    }
  }, 90_000);

  it('legacy registerKeys sent with the v3 key unbans a migrated validator and sets its BLS key', async () => {
    // An initial validator with enough of its migrated balance free to pay the fee.
    const available = (address: string): bigint => BigInt(users.find((user) => user.address === address)?.availableBalance ?? '0');
    const address = initValidators.find((candidate) => available(candidate) >= REGISTER_KEYS_FEE + MIN_REMAINING_BALANCE);
    expect(address).toBeDefined();
    const sender = address as string;
    const entry = entries.get(sender) as KeysFileEntry;
    const plain = entry.plain as NonNullable<KeysFileEntry['plain']>;
    const publicKey = entry.publicKey as string;

    const validatorBefore = await rpc<{ isBanned: boolean; name: string; lastGeneratedHeight: number }>(port, 'pos_getValidator', {
      address: sender,
    });
    expect(validatorBefore).toMatchObject({ isBanned: true, name: posValidators.get(sender)?.name });
    expect(await rpc(port, 'validators_getValidator', { address: sender })).toEqual({ generatorKey: publicKey, blsKey: NO_BLS_KEY });
    const balancesBefore = await rpc<{ balances: { availableBalance: string; lockedBalances: unknown[] }[] }>(port, 'token_getBalances', {
      address: sender,
    });
    expect(balancesBefore.balances).toHaveLength(1);
    const balanceBefore = balancesBefore.balances[0] as { availableBalance: string; lockedBalances: unknown[] };
    expect(BigInt(balanceBefore.availableBalance)).toBe(available(sender));
    expect(await rpc(port, 'auth_getAuthAccount', { address: sender })).toMatchObject({ nonce: '0' });
    // A v3 account with a public key was migrated into the token module: nothing is left to reclaim.
    const legacyAccount = { legacyAddress: legacyAddressOf(publicKey), balance: '0' };
    expect(await rpc(port, 'legacy_getLegacyAccount', { publicKey })).toEqual(legacyAccount);

    const params = { blsKey: plain.blsKey, proofOfPossession: plain.blsProofOfPossession, generatorKey: plain.generatorKey };
    const passphrase = delegateOf.get(sender)?.passphrase as string;
    const sent = await basalt(
      [
        'transaction:create',
        'legacy',
        'registerKeys',
        String(REGISTER_KEYS_FEE),
        '--key-derivation-path=legacy',
        '--params',
        JSON.stringify(params),
        '--send',
        '--data-path',
        dataPath,
      ],
      `${passphrase}\n`,
    );
    expect(sent.code, sent.stderr).toBe(0);
    const id = /Transaction with id: '([0-9a-f]{64})' received by node\./.exec(sent.stdout)?.[1];
    expect(id).toBeDefined();
    const included = await waitFor(
      'the registerKeys transaction in a block',
      async () => rpc<{ id: string; senderPublicKey: string }>(port, 'chain_getTransactionByID', { id }),
      60_000,
      { output: nodeOutput },
    );
    expect(included).toMatchObject({ id, senderPublicKey: publicKey });

    const validatorAfter = await rpc<{ isBanned: boolean; lastGeneratedHeight: number }>(port, 'pos_getValidator', {
      address: sender,
    });
    // Unbanned, with a generator key this node holds, the validator may already have forged in a
    // slot after the inclusion: that moves its generation record only.
    expect(validatorAfter).toMatchObject({
      ...validatorBefore,
      isBanned: false,
      consecutiveMissedBlocks: expect.any(Number),
      lastGeneratedHeight: expect.any(Number),
    });
    expect(validatorAfter.lastGeneratedHeight).toBeGreaterThanOrEqual(validatorBefore.lastGeneratedHeight);
    expect(await rpc(port, 'validators_getValidator', { address: sender })).toEqual({ generatorKey: publicKey, blsKey: plain.blsKey });
    const balancesAfter = await rpc<{ balances: { availableBalance: string; lockedBalances: unknown[] }[] }>(port, 'token_getBalances', {
      address: sender,
    });
    expect(balancesAfter.balances).toEqual([
      { ...balanceBefore, availableBalance: String(BigInt(balanceBefore.availableBalance) - REGISTER_KEYS_FEE) },
    ]);
    expect(await rpc(port, 'auth_getAuthAccount', { address: sender })).toMatchObject({ nonce: '1' });
    expect(await rpc(port, 'legacy_getLegacyAccount', { publicKey })).toEqual(legacyAccount);
  }, 90_000);

  it("commandsToExecute.txt's steps for one validator: its v3 forging status becomes its generator info and it generates", async () => {
    // A validator that has not generated on this chain yet and whose slot is a minute away: time
    // enough for the six commands, and a status that no block of this chain contradicts.
    const now = Date.now() / 1000;
    const { list } = await rpc<{ list: { address: string; nextAllocatedTime: number }[] }>(port, 'chain_getGeneratorList');
    let chosen: { address: string; nextAllocatedTime: number } | undefined;
    for (const candidate of list) {
      if (candidate.nextAllocatedTime < now + 60) continue;
      const { lastGeneratedHeight } = await rpc<{ lastGeneratedHeight: number }>(port, 'pos_getValidator', { address: candidate.address });
      if (lastGeneratedHeight <= SNAPSHOT_HEIGHT) {
        chosen = candidate;
        break;
      }
    }
    expect(chosen).toBeDefined();
    const { address, nextAllocatedTime } = chosen as { address: string; nextAllocatedTime: number };
    const delegate = delegateOf.get(address) as V3ForgingDelegate;

    // Its record in the forging status captured from the v3 node, and the command the migrator wrote.
    const forgingStatus = JSON.parse(oracleFile('capture/forgingStatus.json').toString('utf8')) as ForgingStatusRecord[];
    const record = forgingStatus.find((entry) => entry.lskAddress === address) as ForgingStatusRecord;
    expect(record).toBeDefined();
    const status = {
      address,
      height: record.height,
      maxHeightGenerated: record.maxHeightPreviouslyForged,
      maxHeightPrevoted: record.maxHeightPrevoted,
    };
    const commands = oracleFile('h309-mainnet/commandsToExecute.txt').toString('utf8');
    const setStatusLine = commands.split('\n').find((line) => line.includes('generator_setStatus') && line.includes(address)) as string;
    expect(JSON.parse(/'(\{.*\})'/.exec(setStatusLine)?.[1] as string)).toEqual(status);

    // passphrase:decrypt reads the v3 config's encrypted passphrase.
    const encryptedFile = join(dir, 'encrypted-passphrase.json');
    writeFileSync(encryptedFile, JSON.stringify({ encryptedPassphrase: delegate.encryptedPassphrase }), { mode: 0o600 });
    const decrypted = await basalt(['passphrase:decrypt', '--file-path', encryptedFile], `${password}\n`);
    expect(decrypted.code, decrypted.stderr).toBe(0);
    expect(JSON.parse(decrypted.stdout)).toBe(delegate.passphrase);

    // lisk-core keys:create --chainid 0 --output <output>/keys.json --add-legacy
    const keysDir = join(dir, 'validator');
    mkdirSync(keysDir);
    const keysPath = join(keysDir, 'keys.json');
    const created = await basalt(['keys:create', '--chainid', '0', '--output', keysPath, '--add-legacy'], '', {
      BASALT_PASSPHRASE: delegate.passphrase,
      BASALT_PASSWORD: KEYS_PASSWORD,
    });
    expect(created.code, created.stderr).toBe(0);
    const [createdEntry] = (JSON.parse(readFileSync(keysPath, 'utf8')) as { keys: KeysFileEntry[] }).keys;
    expect(createdEntry).toMatchObject({ address, keyPath: 'legacy', publicKey: posValidators.get(address)?.generatorKey });
    expect(createdEntry?.plain).toEqual(entries.get(address)?.plain);

    // lisk-core keys:import --file-path <output>/keys.json: the encrypted keys replace the plain ones.
    const imported = await basalt(['keys:import', '--file-path', keysPath, '--data-path', dataPath]);
    expect(imported.code, imported.stderr).toBe(0);
    const { keys } = await rpc<{ keys: { address: string; type: string }[] }>(port, 'generator_getAllKeys');
    expect(keys.find((key) => key.address === address)?.type).toBe('encrypted');

    // lisk-core endpoint:invoke random_setHashOnion '{ "address": ... }'
    const onion = await basalt(['endpoint:invoke', 'random_setHashOnion', JSON.stringify({ address }), '--data-path', dataPath]);
    expect(onion.code, onion.stderr).toBe(0);

    // lisk-core endpoint:invoke generator_setStatus '{...}' --pretty
    const set = await basalt(['endpoint:invoke', 'generator_setStatus', JSON.stringify(status), '--data-path', dataPath, '--pretty']);
    expect(set.code, set.stderr).toBe(0);
    const statusOf = async (): Promise<StatusEntry | undefined> =>
      (await rpc<{ status: StatusEntry[] }>(port, 'generator_getStatus')).status.find((entry) => entry.address === address);
    expect(await statusOf()).toMatchObject({ ...status, enabled: false });

    // lisk-core generator:enable <address> --use-status-value
    expect(Date.now() / 1000).toBeLessThan(nextAllocatedTime);
    const enabled = await basalt(['generator:enable', address, '--use-status-value', '--data-path', dataPath], `${KEYS_PASSWORD}\n`);
    expect(enabled.code, enabled.stderr).toBe(0);
    expect(enabled.stdout).toBe(`Enabled block generation for ${address}\n`);
    expect(await statusOf()).toMatchObject({ ...status, enabled: true });

    // Its slot comes: it generates, resuming from the v3 status, and the chain goes on.
    const waitMs = (nextAllocatedTime - Date.now() / 1000 + 3 * BLOCK_TIME) * 1000;
    const generated = await waitFor(
      `a block by ${address} at ${nextAllocatedTime}`,
      async () => {
        const last = await rpc<{ header: Header }>(port, 'chain_getLastBlock');
        if (last.header.timestamp < nextAllocatedTime) return undefined;
        for (let height = last.header.height; height > GENESIS_HEIGHT; height -= 1) {
          const block = await header(height);
          if (block.timestamp < nextAllocatedTime) break;
          if (block.generatorAddress === address) return block;
        }
        throw new Error(`slot ${nextAllocatedTime} passed without a block by ${address}`);
      },
      waitMs,
      { output: nodeOutput },
    );
    expect(generated.maxHeightGenerated).toBe(status.height);
    expect(await statusOf()).toMatchObject({
      height: generated.height,
      maxHeightGenerated: status.height,
      maxHeightPrevoted: generated.maxHeightPrevoted,
      enabled: true,
    });
    await waitForHeight(port, generated.height + 1, 30_000, { output: nodeOutput });
  }, 180_000);

  it('the node logged no warning or error on the way (BLS keys of the genesis block included)', () => {
    const records = nodeOutput()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(records.some((record) => record.msg === 'Generated block')).toBe(true);
    // pino levels: 40 warn, 50 error, 60 fatal.
    expect(records.filter((record) => record.level >= 40)).toEqual([]);
  });
});
