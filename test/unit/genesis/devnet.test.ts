/**
 * Basalt's devnet (config/devnet/): every generated file regenerates byte for byte from
 * src/genesis/devnet and config.json, the genesis block is valid and opens a real chain, and its
 * validators, keys, accounts and legacy account are what DEV_PASSPHRASES.md says.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Block } from '../../../src/chain/block.js';
import { codec } from '../../../src/codec/index.js';
import { PRESETS_DIR } from '../../../src/config/presets.js';
import { resolveNodeConfig } from '../../../src/config/resolve-node-config.js';
import { encodeLisk32, MESSAGE_TAG_TRANSACTION, verifyData } from '../../../src/crypto/index.js';
import { legacyAccountStore } from '../../../src/modules/legacy/stores.js';
import { parsePosConfig } from '../../../src/modules/pos/config.js';
import { buildDevnetFiles, type DevnetFiles } from '../../../src/genesis/devnet/write-devnet-files.js';
import { readBootstrapTransactions } from '../../../src/genesis/devnet/devnet-bootstrap.js';
import { deriveDevnetKeys } from '../../../src/genesis/devnet/devnet-keys.js';
import { DEVNET_SPEC } from '../../../src/genesis/devnet/devnet-spec.js';
import { stakeParamsSchema } from '../../../src/modules/pos/schemas.js';
import { openChain } from '../../../src/node.js';
import { parseChainConfig } from '../../../src/config/lisk-config.js';

const DEVNET_DIR = join(PRESETS_DIR, 'devnet');
const shipped = (name: string): Buffer => readFileSync(join(DEVNET_DIR, name));

describe('devnet genesis', () => {
  let files: DevnetFiles;
  const workDir = mkdtempSync(join(tmpdir(), 'basalt-devnet-'));

  beforeAll(async () => {
    files = await buildDevnetFiles(join(DEVNET_DIR, 'config.json'));
  });
  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  it('regenerates every shipped file byte for byte', () => {
    expect([...files.keys()].sort()).toEqual([
      'DEV_PASSPHRASES.md',
      'bootstrap_transactions.json',
      'dev-validators.json',
      'genesis_assets.json',
      'genesis_block.blob',
    ]);
    for (const [name, content] of files) {
      expect(content.equals(shipped(name)), `config/devnet/${name} differs from its regeneration`).toBe(true);
    }
  });

  it('is a valid genesis block with the devnet chain settings', () => {
    const block = Block.fromBytes(shipped('genesis_block.blob'));
    expect(() => block.validateGenesis()).not.toThrow();
    expect(block.header.timestamp).toBe(DEVNET_SPEC.timestamp);
    expect(block.header.height).toBe(0);
    expect(block.assets.all().map(asset => asset.module)).toEqual(['interoperability', 'legacy', 'pos', 'token']);

    const config = parseChainConfig(JSON.parse(shipped('config.json').toString('utf8')), DEVNET_DIR);
    expect(config.genesis).toEqual({
      chainID: Buffer.from('04000000', 'hex'),
      blockTime: 3,
      bftBatchSize: 9,
      maxTransactionsSize: 15360,
      minimumCertifyHeight: 1,
    });
    // lisk-sdk's pos config checks for 3 s blocks (failSafeInactiveWindow and
    // punishmentWindowSelfStaking span 5 days to 1 year of blocks), and round length = batch size.
    const pos = parsePosConfig(config.modules.pos ?? {}, config.genesis);
    expect(pos.numberActiveValidators).toBe(7);
    expect(pos.numberStandbyValidators).toBe(2);
    expect(pos.roundLength).toBe(config.genesis.bftBatchSize);
    expect(pos.failSafeInactiveWindow).toBeGreaterThanOrEqual((5 * 24 * 3600) / 3);
    expect(pos.posTokenID.toString('hex')).toBe('0400000000000000');
    expect(() => parsePosConfig({ ...config.modules.pos, failSafeInactiveWindow: 143_999 }, config.genesis)).toThrow(
      '.modules.pos.failSafeInactiveWindow: must be >= 144000',
    );
  });

  it('opens a real chain whose first validators are the 7 init validators of dev-validators.json', async () => {
    const dataPath = join(workDir, 'node');
    const plan = resolveNodeConfig({ dataPath });
    expect(plan.genesisBlock.header.id.equals(Block.fromBytes(shipped('genesis_block.blob')).header.id)).toBe(true);
    const chain = await openChain({ dataPath, config: plan.chainConfig, genesisBlock: plan.genesisBlock });
    try {
      expect(chain.processor.tipHeader().id.equals(plan.genesisBlock.header.id)).toBe(true);
      expect(chain.stateDb.root().equals(plan.genesisBlock.header.stateRoot)).toBe(true);
      expect(chain.modules.legacy).toBeDefined();

      const keysFile = JSON.parse(readFileSync(plan.generatorKeysFile as string, 'utf8')) as {
        keys: { address: string; plain: { generatorKey: string; blsKey: string } }[];
      };
      expect(keysFile.keys).toHaveLength(9);
      const { validators, certificateThreshold } = chain.bft.getParameters(chain.stateDb.engineReader, 1);
      expect(certificateThreshold).toBe(5n);
      const initAddresses = keysFile.keys.slice(0, 7).map(key => key.address).sort();
      expect(validators.map(validator => encodeLisk32(validator.address)).sort()).toEqual(initAddresses);
      for (const validator of validators) {
        const entry = keysFile.keys.find(key => key.address === encodeLisk32(validator.address));
        expect(validator.blsKey.toString('hex')).toBe(entry?.plain.blsKey);
        expect(validator.generatorKey.toString('hex')).toBe(entry?.plain.generatorKey);
        expect(validator.bftWeight).toBe(1n);
      }

      // The legacy account of DEV_PASSPHRASES.md, reclaimable for its whole balance.
      const keys = deriveDevnetKeys(DEVNET_SPEC);
      const legacy = legacyAccountStore.get(chain.stateDb.moduleReader, keys.legacy.legacyAddress);
      expect(legacy?.balance).toBe(DEVNET_SPEC.legacyBalance);
      const doc = shipped('DEV_PASSPHRASES.md').toString('utf8');
      for (const passphrase of [DEVNET_SPEC.validatorPassphrase, DEVNET_SPEC.accountPassphrase, DEVNET_SPEC.legacyPassphrase]) {
        expect(doc).toContain(passphrase);
      }
      expect(doc).toContain(keys.legacy.legacyAddress.toString('hex'));
      for (const account of keys.accounts) expect(doc).toContain(account.address);
    } finally {
      await chain.close();
    }
  });

  it('ships one signed self-stake per validator as bootstrap transactions', () => {
    const transactions = readBootstrapTransactions(JSON.parse(shipped('bootstrap_transactions.json').toString('utf8')));
    const keys = deriveDevnetKeys(DEVNET_SPEC);
    expect(transactions).toHaveLength(9);
    transactions.forEach((transaction, index) => {
      const validator = keys.validators[index];
      expect(transaction.module).toBe('pos');
      expect(transaction.command).toBe('stake');
      expect(transaction.nonce).toBe(0n);
      expect(transaction.senderPublicKey.equals(validator?.publicKey as Buffer)).toBe(true);
      expect(transaction.fee).toBe(BigInt(transaction.bytes.length) * 1000n);
      const params = codec.decode<{ stakes: { validatorAddress: Buffer; amount: bigint }[] }>(stakeParamsSchema, transaction.params);
      expect(params.stakes.map(stake => [encodeLisk32(stake.validatorAddress), stake.amount])).toEqual([[validator?.address, 1_000_000_000n]]);
      const valid = verifyData(MESSAGE_TAG_TRANSACTION, Buffer.from('04000000', 'hex'), transaction.signingBytes(), transaction.signatures[0] as Buffer, transaction.senderPublicKey);
      expect(valid).toBe(true);
    });
  });
});
