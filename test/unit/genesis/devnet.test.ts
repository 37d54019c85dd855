/**
 * Basalt's devnet (config/devnet/): every generated file regenerates byte for byte from
 * src/genesis/devnet and config.json, the genesis block is valid and opens a real chain, and its
 * validators, keys, accounts and legacy account are what DEV_PASSPHRASES.md says.
 *
 * The devnet is a migrated Lisk Core v4 mainchain in miniature (docs/protocol/legacy.md): every
 * genesis validator is banned and key-less (pos useInvalidBLSKey), the bootstrap transactions
 * register the keys of all validators but the legacy one, and certification starts at the last
 * height of the first elected round. The last test runs the bootstrap through generated blocks up
 * to the first certificate.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Block } from '../../../src/chain/block.js';
import { computeMinFee } from '../../../src/chain/min-fee.js';
import { standardEventDataSchema } from '../../../src/chain/schemas.js';
import type { Transaction } from '../../../src/chain/transaction.js';
import { codec } from '../../../src/codec/index.js';
import { parseChainConfig } from '../../../src/config/lisk-config.js';
import { PRESETS_DIR } from '../../../src/config/presets.js';
import { resolveNodeConfig } from '../../../src/config/resolve-node-config.js';
import {
  addressFromPublicKey,
  decodeLisk32,
  deriveLegacyValidatorKeys,
  encodeLisk32,
  legacyKeyPairFromPassphrase,
  MESSAGE_TAG_TRANSACTION,
  verifyData,
} from '../../../src/crypto/index.js';
import type { Forger } from '../../../src/engine/generator/forger.js';
import { transactionTopic } from '../../../src/engine/state-machine/state-machine.js';
import { StateMachinePoolVerifier, tipOf, TransactionPool } from '../../../src/engine/txpool/index.js';
import { ValidationError } from '../../../src/errors.js';
import { readBootstrapTransactions } from '../../../src/genesis/devnet/devnet-bootstrap.js';
import { devnetMinimumCertifyHeight } from '../../../src/genesis/devnet/devnet-certify-height.js';
import { deriveDevnetKeys } from '../../../src/genesis/devnet/devnet-keys.js';
import { DEVNET_SPEC } from '../../../src/genesis/devnet/devnet-spec.js';
import { buildDevnetFiles, type DevnetFiles } from '../../../src/genesis/devnet/write-devnet-files.js';
import { registerKeysParamsSchema } from '../../../src/modules/legacy/schemas.js';
import { legacyAccountStore } from '../../../src/modules/legacy/stores.js';
import { parsePosConfig } from '../../../src/modules/pos/config.js';
import { eligibleValidatorsByWeight, splitEligibleValidatorKey, validatorStore } from '../../../src/modules/pos/index.js';
import { stakeParamsSchema } from '../../../src/modules/pos/schemas.js';
import { createChainForger, openChain, type OpenChain } from '../../../src/node.js';
import { importGeneratorKeysFile } from '../../../src/engine/generator/generator-keys-import.js';

const DEVNET_DIR = join(PRESETS_DIR, 'devnet');
const CHAIN_ID = Buffer.from('04000000', 'hex');
const ZERO_BLS_KEY = Buffer.alloc(48);
const LEGACY_INDEX = 8;
/** Rounds of 7 active + 2 standby blocks; 3 init rounds; the first elected round is round 4. */
const ROUND_LENGTH = 9;
const FIRST_ELECTED_HEIGHT = 28;
const MINIMUM_CERTIFY_HEIGHT = 36;

const shipped = (name: string): Buffer => readFileSync(join(DEVNET_DIR, name));

interface KeysFileEntry {
  address: string;
  keyPath: string;
  publicKey: string;
  plain: { generatorKeyPath: string; generatorKey: string; blsKeyPath: string; blsKey: string; blsProofOfPossession: string };
}
const keysFile = (): KeysFileEntry[] => (JSON.parse(shipped('dev-validators.json').toString('utf8')) as { keys: KeysFileEntry[] }).keys;

describe('devnet genesis', () => {
  let files: DevnetFiles;
  const workDir = mkdtempSync(join(tmpdir(), 'basalt-devnet-'));
  const keys = deriveDevnetKeys(DEVNET_SPEC);

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

  it('refuses a hand-written config.json that does not match the generated files', async () => {
    const config = JSON.parse(shipped('config.json').toString('utf8')) as {
      genesis: Record<string, unknown>;
      modules: { pos: Record<string, unknown> };
    };
    config.genesis.minimumCertifyHeight = 1;
    config.modules.pos.useInvalidBLSKey = false;
    const file = join(workDir, 'bad-config.json');
    writeFileSync(file, JSON.stringify(config));
    await expect(buildDevnetFiles(file)).rejects.toBeInstanceOf(ValidationError);
    await expect(buildDevnetFiles(file)).rejects.toThrow(
      '.modules.pos.useInvalidBLSKey: must be true; .genesis.minimumCertifyHeight: must be 36 (the last height of the first elected round)',
    );
  });

  it('certifies from the last height of the first elected round', () => {
    expect(devnetMinimumCertifyHeight(DEVNET_SPEC.initRounds, ROUND_LENGTH)).toBe(MINIMUM_CERTIFY_HEIGHT);
    expect(devnetMinimumCertifyHeight(3, 4)).toBe(16);
    expect(devnetMinimumCertifyHeight(3, 9, 100)).toBe(136);
    expect(FIRST_ELECTED_HEIGHT + ROUND_LENGTH - 1).toBe(MINIMUM_CERTIFY_HEIGHT);
  });

  it('is a valid genesis block with the devnet chain settings', () => {
    const block = Block.fromBytes(shipped('genesis_block.blob'));
    expect(() => block.validateGenesis()).not.toThrow();
    expect(block.header.timestamp).toBe(DEVNET_SPEC.timestamp);
    expect(block.header.height).toBe(0);
    expect(block.assets.all().map((asset) => asset.module)).toEqual(['interoperability', 'legacy', 'pos', 'token']);

    const config = parseChainConfig(JSON.parse(shipped('config.json').toString('utf8')), DEVNET_DIR);
    expect(config.genesis).toEqual({
      chainID: CHAIN_ID,
      blockTime: 3,
      bftBatchSize: ROUND_LENGTH,
      maxTransactionsSize: 15360,
      minimumCertifyHeight: MINIMUM_CERTIFY_HEIGHT,
    });
    // lisk-sdk's pos config checks for 3 s blocks (failSafeInactiveWindow and
    // punishmentWindowSelfStaking span 5 days to 1 year of blocks), and round length = batch size.
    const pos = parsePosConfig(config.modules.pos ?? {}, config.genesis);
    expect(pos.numberActiveValidators).toBe(7);
    expect(pos.numberStandbyValidators).toBe(2);
    expect(pos.useInvalidBLSKey).toBe(true);
    expect(pos.roundLength).toBe(config.genesis.bftBatchSize);
    expect(pos.failSafeInactiveWindow).toBeGreaterThanOrEqual((5 * 24 * 3600) / 3);
    expect(pos.posTokenID.toString('hex')).toBe('0400000000000000');
    expect(() => parsePosConfig({ ...config.modules.pos, failSafeInactiveWindow: 143_999 }, config.genesis)).toThrow(
      '.modules.pos.failSafeInactiveWindow: must be >= 144000',
    );
  });

  it('holds the legacy validator as keys:create --add-legacy derives it from the validator passphrase', () => {
    const entries = keysFile();
    expect(entries).toHaveLength(9);
    entries.slice(0, LEGACY_INDEX).forEach((entry, index) => {
      expect(entry.keyPath).toBe(`m/44'/134'/${index}'`);
      expect(entry.plain.blsKeyPath).toBe(`m/12381/134/4/${index}`);
    });
    const legacy = entries[LEGACY_INDEX] as KeysFileEntry;
    const derived = deriveLegacyValidatorKeys(DEVNET_SPEC.validatorPassphrase, 4);
    const legacyKey = legacyKeyPairFromPassphrase(DEVNET_SPEC.validatorPassphrase);
    expect(legacy).toMatchObject({
      address: encodeLisk32(addressFromPublicKey(legacyKey.publicKey)),
      keyPath: 'legacy',
      publicKey: legacyKey.publicKey.toString('hex'),
      plain: {
        generatorKeyPath: 'legacy',
        generatorKey: legacyKey.publicKey.toString('hex'),
        blsKeyPath: 'm/12381/134/4/99999',
        blsKey: derived.blsKey.toString('hex'),
        blsProofOfPossession: derived.blsProofOfPossession.toString('hex'),
      },
    });
    expect(legacy.address).toBe('lskkefqb2rhqovmyeabtwcnte8u5fykj2e39bysrb');
  });

  it('opens a real chain: 7 key-less init validators, every validator banned, the legacy account reclaimable', async () => {
    const dataPath = join(workDir, 'node');
    const plan = resolveNodeConfig({ dataPath });
    expect(plan.genesisBlock.header.id.equals(Block.fromBytes(shipped('genesis_block.blob')).header.id)).toBe(true);
    const chain = await openChain({ dataPath, config: plan.chainConfig, genesisBlock: plan.genesisBlock });
    try {
      expect(chain.processor.tipHeader().id.equals(plan.genesisBlock.header.id)).toBe(true);
      expect(chain.stateDb.root().equals(plan.genesisBlock.header.stateRoot)).toBe(true);
      expect(chain.modules.legacy).toBeDefined();
      const read = { state: chain.stateDb.moduleReader };

      const entries = keysFile();
      const { validators, certificateThreshold } = chain.bft.getParameters(chain.stateDb.engineReader, 1);
      expect(certificateThreshold).toBe(5n);
      const initAddresses = entries
        .slice(0, 7)
        .map((key) => key.address)
        .sort();
      expect(validators.map((validator) => encodeLisk32(validator.address)).sort()).toEqual(initAddresses);
      for (const validator of validators) {
        const entry = entries.find((key) => key.address === encodeLisk32(validator.address));
        expect(validator.blsKey.equals(ZERO_BLS_KEY)).toBe(true);
        expect(validator.generatorKey.toString('hex')).toBe(entry?.plain.generatorKey);
        expect(validator.bftWeight).toBe(1n);
      }
      for (const [index, entry] of entries.entries()) {
        const address = decodeLisk32(entry.address);
        const account = validatorStore.get(chain.stateDb.moduleReader, address);
        expect(account?.isBanned).toBe(true);
        expect(account?.name).toBe(index === LEGACY_INDEX ? 'basalt_dev_legacy' : `basalt_dev_${index}`);
        const registered = chain.modules.validators.method.getValidatorKeys(read, address);
        expect(registered.blsKey.equals(ZERO_BLS_KEY)).toBe(true);
        expect(registered.generatorKey.toString('hex')).toBe(entry.plain.generatorKey);
      }
      expect(eligibleValidatorsByWeight(chain.stateDb.moduleReader)).toEqual([]);

      // The legacy account of DEV_PASSPHRASES.md, reclaimable for its whole balance.
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

  it('documents how the legacy validator registers its keys', () => {
    const doc = shipped('DEV_PASSPHRASES.md').toString('utf8');
    const legacy = keysFile()[LEGACY_INDEX] as KeysFileEntry;
    expect(doc).toContain('npx basalt transaction:create legacy registerKeys 400000 --key-derivation-path=legacy --send');
    expect(doc).toContain('npx basalt keys:create --chainid 4 --add-legacy --count 1 --no-encrypt --output -');
    expect(doc).toContain(`| \`Please enter: blsKey: \` | \`${legacy.plain.blsKey}\` |`);
    expect(doc).toContain(`| \`Please enter: proofOfPossession: \` | \`${legacy.plain.blsProofOfPossession}\` |`);
    expect(doc).toContain(`| \`Please enter: generatorKey: \` | \`${legacy.plain.generatorKey}\` |`);
    expect(doc).toContain(`basalt_dev_legacy (\`${legacy.address}\`)`);
    expect(doc).toContain('`genesis.minimumCertifyHeight` = 36');
  });

  it('ships signed key registrations and self-stakes for every validator but the legacy one', () => {
    const transactions = readBootstrapTransactions(JSON.parse(shipped('bootstrap_transactions.json').toString('utf8')));
    const entries = keysFile();
    expect(transactions).toHaveLength(16);
    transactions.forEach((transaction, position) => {
      const index = Math.floor(position / 2);
      const validator = keys.validators[index];
      const entry = entries[index] as KeysFileEntry;
      expect(transaction.senderPublicKey.equals(validator?.publicKey as Buffer)).toBe(true);
      expect(transaction.nonce).toBe(BigInt(position % 2));
      expect(transaction.fee).toBe(computeMinFee(transaction));
      expect(transaction.fee).toBe(BigInt(transaction.bytes.length) * 1000n);
      if (position % 2 === 0) {
        expect([transaction.module, transaction.command]).toEqual(['legacy', 'registerKeys']);
        const params = codec.decode<{ blsKey: Buffer; proofOfPossession: Buffer; generatorKey: Buffer }>(
          registerKeysParamsSchema,
          transaction.params,
        );
        expect({
          blsKey: params.blsKey.toString('hex'),
          proofOfPossession: params.proofOfPossession.toString('hex'),
          generatorKey: params.generatorKey.toString('hex'),
        }).toEqual({
          blsKey: entry.plain.blsKey,
          proofOfPossession: entry.plain.blsProofOfPossession,
          generatorKey: entry.plain.generatorKey,
        });
      } else {
        expect([transaction.module, transaction.command]).toEqual(['pos', 'stake']);
        const params = codec.decode<{ stakes: { validatorAddress: Buffer; amount: bigint }[] }>(stakeParamsSchema, transaction.params);
        expect(params.stakes.map((stake) => [encodeLisk32(stake.validatorAddress), stake.amount])).toEqual([
          [validator?.address, 1_000_000_000n],
        ]);
      }
      const valid = verifyData(
        MESSAGE_TAG_TRANSACTION,
        CHAIN_ID,
        transaction.signingBytes(),
        transaction.signatures[0] as Buffer,
        transaction.senderPublicKey,
      );
      expect(valid).toBe(true);
    });
    const legacySender = keys.validators[LEGACY_INDEX]?.publicKey as Buffer;
    expect(transactions.some((transaction) => transaction.senderPublicKey.equals(legacySender))).toBe(false);
  });

  describe('through generated blocks', () => {
    const dataPath = join(workDir, 'producer');
    let chain: OpenChain;
    let pool: TransactionPool;
    let forger: Forger;
    let clock = DEVNET_SPEC.timestamp;
    let bootstrap: Transaction[];
    let blockTime: number;
    const legacyAddress = decodeLisk32((keysFile()[LEGACY_INDEX] as KeysFileEntry).address);

    /** Moves the clock to the middle of the next slot and lets the forger produce. */
    async function tick(): Promise<Block | undefined> {
      const slot = chain.bft.slotNumber(clock) + 1;
      clock = chain.bft.slotTime(slot) + Math.ceil(blockTime / 2);
      const processed = await forger.tick();
      if (processed) await pool.onNewBlock(processed.block);
      return processed?.block;
    }

    beforeAll(async () => {
      const plan = resolveNodeConfig({ dataPath });
      const genesis = plan.chainConfig.genesis;
      blockTime = genesis.blockTime;
      chain = await openChain({ dataPath, config: plan.chainConfig, genesisBlock: plan.genesisBlock, now: () => clock });
      pool = new TransactionPool({
        config: { maxPayloadLength: genesis.maxTransactionsSize },
        verifier: new StateMachinePoolVerifier(chain.stateMachine),
        tip: tipOf(chain),
        now: () => clock * 1000,
      });
      const created = createChainForger(chain, {
        genesisConfig: genesis,
        candidates: () => pool.candidates(),
        now: () => clock,
      });
      forger = created.forger;
      const { generatorStore } = created;
      // As the node does: every key of dev-validators.json, the legacy validator's included.
      const keypairs = importGeneratorKeysFile(plan.generatorKeysFile as string, generatorStore);
      expect(keypairs).toHaveLength(9);
      for (const keypair of keypairs) forger.enable(keypair);
      bootstrap = readBootstrapTransactions(JSON.parse(readFileSync(plan.bootstrapTransactionsFile as string, 'utf8')));
    });

    afterAll(async () => {
      await chain?.close();
    });

    it('includes the whole bootstrap in block 1 and registers the keys of 8 validators', async () => {
      for (const transaction of bootstrap) expect((await pool.add(transaction)).status).toBe('added');
      const block = await tick();
      expect(block?.header.height).toBe(1);
      expect(block?.transactions.map((tx) => tx.id.toString('hex'))).toEqual(bootstrap.map((tx) => tx.id.toString('hex')));
      const events = chain.chainStore.getEvents(1) ?? [];
      for (const transaction of bootstrap) {
        const result = events.find(
          (event) => event.name === 'commandExecutionResult' && event.topics[0]?.equals(transactionTopic(transaction.id)),
        );
        expect(codec.decode(standardEventDataSchema, (result as { data: Buffer }).data)).toEqual({ success: true });
      }
      expect(events.filter((event) => event.module === 'legacy' && event.name === 'keysRegistered')).toHaveLength(8);

      const read = { state: chain.stateDb.moduleReader };
      for (const [index, entry] of keysFile().entries()) {
        const address = decodeLisk32(entry.address);
        const registered = chain.modules.validators.method.getValidatorKeys(read, address);
        const isLegacy = index === LEGACY_INDEX;
        expect(validatorStore.get(chain.stateDb.moduleReader, address)?.isBanned).toBe(isLegacy);
        expect(registered.blsKey.toString('hex')).toBe(isLegacy ? ZERO_BLS_KEY.toString('hex') : entry.plain.blsKey);
        expect(registered.generatorKey.toString('hex')).toBe(entry.plain.generatorKey);
      }
      const eligible = eligibleValidatorsByWeight(chain.stateDb.moduleReader).map((item) => splitEligibleValidatorKey(item.key).address);
      expect(eligible).toHaveLength(8);
      expect(eligible.some((address) => address.equals(legacyAddress))).toBe(false);
    });

    it('fills every slot of the init rounds; the first elected set has BLS keys and no legacy validator', async () => {
      while (chain.chainStore.tipHeight() < FIRST_ELECTED_HEIGHT - 1) expect(await tick()).toBeDefined();
      const engine = chain.stateDb.engineReader;
      expect(chain.bft.parametersChangeAt(engine, FIRST_ELECTED_HEIGHT)).toBe(true);
      const { validators } = chain.bft.getParameters(engine, FIRST_ELECTED_HEIGHT);
      expect(validators).toHaveLength(7);
      for (const validator of validators) {
        expect(validator.blsKey.equals(ZERO_BLS_KEY)).toBe(false);
        expect(validator.bftWeight).toBeGreaterThan(0n);
      }
      expect(validators.some((validator) => validator.address.equals(legacyAddress))).toBe(false);
      expect(chain.chainStore.finalizedHeight()).toBeGreaterThan(0);
    });

    it('certifies first the last height of the first elected round', async () => {
      let certifying: Block | undefined;
      for (let ticks = 0; !certifying; ticks += 1) {
        expect(ticks).toBeLessThan(4 * ROUND_LENGTH);
        const block = await tick();
        expect(block).toBeDefined();
        if (block && block.header.aggregateCommit.certificateSignature.length > 0) certifying = block;
      }
      expect(certifying?.header.aggregateCommit.height).toBe(MINIMUM_CERTIFY_HEIGHT);
      expect(chain.bft.getHeights(chain.stateDb.engineReader).maxHeightCertified).toBe(MINIMUM_CERTIFY_HEIGHT);
    });
  });
});
