/**
 * The legacy module end to end through blocks (docs/protocol/legacy.md; lisk-core
 * src/application/modules/legacy). A genesis built here with createGenesisBlock has the legacy
 * module and is shaped like a migrated Lisk Core v4 mainnet in miniature:
 *
 * - every validator has the all-zero BLS key and is banned. lisk-sdk 6.1's pos genesis cannot do
 *   otherwise: it registers either every validator with its BLS key and proof of possession (an
 *   all-zero key fails the proof) or, on a mainchain with `useInvalidBLSKey`, every validator
 *   without one (pos/module.ts finalizeGenesisState). Block production needs only the Ed25519
 *   generator keys, so the four init validators produce the init rounds all the same;
 * - the "migrated" validator is not an init validator: banned, keyless, with a self-stake;
 * - a pre-v4 account's balance waits in the legacy reserve (locked under `legacy`).
 *
 * Through the transaction pool and generated blocks, the init validators register their keys
 * (so they have real BLS keys from block 1 on), the migrated validator registers its keys
 * (`legacy:registerKeys`) and the legacy account reclaims its balance (`legacy:reclaimLSK`).
 * The test checks the events and the state, that the migrated validator is unbanned, elected once
 * the init rounds are over and generates with its new generator key (its old one is refused),
 * that its new BLS key signs a certificate the chain accepts, and that a fresh node replaying
 * the blocks reaches the same roots.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Block } from '../../src/chain/block.js';
import type { EventProps } from '../../src/chain/event.js';
import { standardEventDataSchema } from '../../src/chain/schemas.js';
import type { Transaction } from '../../src/chain/transaction.js';
import { codec, type Schema } from '../../src/codec/index.js';
import type { ChainConfig } from '../../src/config/lisk-config.js';
import type { GenesisConfig } from '../../src/config/genesis-config.js';
import {
  addressFromPublicKey,
  deriveValidatorKeys,
  legacyKeyPairFromPassphrase,
  type Ed25519KeyPair,
  type ValidatorKeys,
} from '../../src/crypto/index.js';
import type { BlockGenerator } from '../../src/engine/generator/block-generator.js';
import type { Forger } from '../../src/engine/generator/forger.js';
import type { GeneratorKeypair } from '../../src/engine/generator/generator-keypair.js';
import { transactionTopic } from '../../src/engine/state-machine/state-machine.js';
import { StateMachinePoolVerifier, tipOf, TransactionPool } from '../../src/engine/txpool/index.js';
import { InvalidBlockError } from '../../src/errors.js';
import { createGenesisBlock, type GenesisAssetInput } from '../../src/genesis/index.js';
import { silentLogger } from '../../src/logger.js';
import type { ReadContext } from '../../src/modules/base/index.js';
import { genesisInteroperabilitySchema } from '../../src/modules/interoperability/schemas.js';
import {
  accountReclaimedDataSchema,
  ADDRESS_LEGACY_RESERVE,
  genesisLegacyStoreSchema,
  getLegacyAccount,
  keysRegisteredDataSchema,
  legacyAccountStore,
  legacyAddressOfPublicKey,
  reclaimLSKParamsSchema,
  registerKeysParamsSchema,
} from '../../src/modules/legacy/index.js';
import { eligibleValidatorsByWeight, splitEligibleValidatorKey, validatorStore } from '../../src/modules/pos/index.js';
import { genesisAssetSchema as genesisPosSchema } from '../../src/modules/pos/schemas.js';
import { transferEventSchema, unlockEventDataSchema } from '../../src/modules/token/events.js';
import { genesisTokenAssetSchema } from '../../src/modules/token/schemas.js';
import { blsKeyRegistrationDataSchema, generatorKeyRegistrationDataSchema } from '../../src/modules/validators/events.js';
import { blsKeysStore } from '../../src/modules/validators/stores.js';
import { createChainForger, openChain, type OpenChain } from '../../src/node.js';
import { signTransaction, snapshotStore, tamperHeader } from '../support/block-tamper.js';

// THESE PASSPHRASES ARE PUBLIC TEST VALUES: any key derived from them belongs to everyone.
const VALIDATORS_PASSPHRASE = 'basalt legacy-through-blocks test: ordinary validators';
const MIGRATED_VALIDATOR_PASSPHRASE = 'basalt legacy-through-blocks test: migrated v3 validator';
const LEGACY_ACCOUNT_PASSPHRASE = 'basalt legacy-through-blocks test: unreclaimed v3 account';
/** The --chainid integer of the key paths (devnet). */
const KEY_CHAIN_INDEX = 4;

const LSK = 100_000_000n;
const CHAIN_ID = Buffer.from('04000000', 'hex');
const TOKEN_ID = Buffer.from('0400000000000000', 'hex');
const GENESIS_TIMESTAMP = 1_767_225_600; // 2026-01-01T00:00:00Z, a multiple of the block time
const ORDINARY_VALIDATORS = 4;
const INIT_ROUNDS = 3;
/** The first height whose BFT parameters come from the election (and carry registered keys). */
const FIRST_ELECTED_HEIGHT = INIT_ROUNDS * ORDINARY_VALIDATORS + 1;
const SELF_STAKE = 10_000n * LSK;
const LEGACY_BALANCE = 5_000n * LSK;
const RECLAIMER_FEE_BALANCE = 1n * LSK;
const ZERO_BLS_KEY = Buffer.alloc(48);

const genesisConfig: GenesisConfig = {
  chainID: CHAIN_ID,
  blockTime: 10,
  // One round of the pos module: 4 active validators, no standby ones.
  bftBatchSize: ORDINARY_VALIDATORS,
  maxTransactionsSize: 15_360,
  // Heights before it have validator sets without BLS keys, which can never certify; a
  // certificate must not skip a set change (LIP 0061), so certification starts with the last
  // height of the first elected round, as a migrated chain's config would set it.
  minimumCertifyHeight: FIRST_ELECTED_HEIGHT + ORDINARY_VALIDATORS - 1,
};

const chainConfig: ChainConfig = {
  genesis: genesisConfig,
  genesisBlockFile: undefined,
  genesisBlockBlob: undefined,
  modules: {
    pos: { numberActiveValidators: ORDINARY_VALIDATORS, numberStandbyValidators: 0, useInvalidBLSKey: true },
    legacy: {},
  },
};

interface Keys {
  /** The init validators: account, generator and BLS keys of keys:create. */
  readonly ordinary: readonly ValidatorKeys[];
  /** The migrated validator's v3 account key: its address, and its generator key at genesis. */
  readonly migrated: Ed25519KeyPair;
  /** The keys it registers: generator key, BLS key and proof of possession (keys:create). */
  readonly registered: ValidatorKeys;
  /** The pre-v4 account that reclaims its balance. */
  readonly reclaimer: Ed25519KeyPair;
}

function deriveKeys(): Keys {
  return {
    ordinary: Array.from({ length: ORDINARY_VALIDATORS }, (_, accountIndex) =>
      deriveValidatorKeys(VALIDATORS_PASSPHRASE, { chainIndex: KEY_CHAIN_INDEX, accountIndex }),
    ),
    migrated: legacyKeyPairFromPassphrase(MIGRATED_VALIDATOR_PASSPHRASE),
    registered: deriveValidatorKeys(MIGRATED_VALIDATOR_PASSPHRASE, { chainIndex: KEY_CHAIN_INDEX, accountIndex: 0 }),
    reclaimer: legacyKeyPairFromPassphrase(LEGACY_ACCOUNT_PASSPHRASE),
  };
}

const byAddress = (a: { address: Buffer }, b: { address: Buffer }): number => a.address.compare(b.address);

function asset(module: string, schema: Schema, value: object): GenesisAssetInput {
  return { module, data: codec.toJSON(schema, value) as Record<string, unknown>, schema };
}

/** The genesis assets as the v3 → v4 migration shapes them (LIP 0063), in miniature. */
function genesisAssets(keys: Keys): GenesisAssetInput[] {
  const migratedAddress = addressFromPublicKey(keys.migrated.publicKey);
  const ordinary = keys.ordinary.map((k) => ({ address: addressFromPublicKey(k.publicKey), keys: k }));
  const posValidator = (address: Buffer, name: string, generatorKey: Buffer, isBanned: boolean) => ({
    address,
    name,
    blsKey: ZERO_BLS_KEY,
    proofOfPossession: Buffer.alloc(96),
    generatorKey,
    lastGeneratedHeight: 0,
    isBanned,
    reportMisbehaviorHeights: [],
    consecutiveMissedBlocks: 0,
    commission: 1_000,
    lastCommissionIncreaseHeight: 0,
    sharingCoefficients: [],
  });
  const pos = {
    validators: [
      ...ordinary.map((validator, index) => posValidator(validator.address, `ordinary_${index}`, validator.keys.generatorKey, true)),
      // A v3 validator: its v3 public key as generator key, banned until it registers its keys.
      posValidator(migratedAddress, 'migrated_validator', keys.migrated.publicKey, true),
    ].sort(byAddress),
    stakers: [
      {
        address: migratedAddress,
        stakes: [{ validatorAddress: migratedAddress, amount: SELF_STAKE, sharingCoefficients: [] }],
        pendingUnlocks: [],
      },
    ],
    genesisData: { initRounds: INIT_ROUNDS, initValidators: ordinary.map((v) => v.address).sort((a, b) => a.compare(b)) },
  };

  const users = [
    ...ordinary.map((validator) => ({ address: validator.address, tokenID: TOKEN_ID, availableBalance: 100n * LSK, lockedBalances: [] })),
    { address: migratedAddress, tokenID: TOKEN_ID, availableBalance: 100n * LSK, lockedBalances: [{ module: 'pos', amount: SELF_STAKE }] },
    // The reclaimer's v4 address holds just enough to pay the reclaim fee.
    {
      address: addressFromPublicKey(keys.reclaimer.publicKey),
      tokenID: TOKEN_ID,
      availableBalance: RECLAIMER_FEE_BALANCE,
      lockedBalances: [],
    },
    // The legacy reserve: every unreclaimed LSK, locked under `legacy`.
    {
      address: ADDRESS_LEGACY_RESERVE,
      tokenID: TOKEN_ID,
      availableBalance: 0n,
      lockedBalances: [{ module: 'legacy', amount: LEGACY_BALANCE }],
    },
  ].sort(byAddress);
  let totalSupply = 0n;
  for (const user of users) {
    totalSupply += user.availableBalance;
    for (const locked of user.lockedBalances) totalSupply += locked.amount;
  }

  return [
    asset('interoperability', genesisInteroperabilitySchema, {
      ownChainName: 'lisk_mainchain',
      ownChainNonce: 0n,
      chainInfos: [],
      terminatedStateAccounts: [],
      terminatedOutboxAccounts: [],
    }),
    asset('legacy', genesisLegacyStoreSchema, {
      accounts: [{ address: legacyAddressOfPublicKey(keys.reclaimer.publicKey), balance: LEGACY_BALANCE }],
    }),
    asset('pos', genesisPosSchema, pos),
    asset('token', genesisTokenAssetSchema, {
      userSubstore: users,
      supplySubstore: [{ tokenID: TOKEN_ID, totalSupply }],
      escrowSubstore: [],
      supportedTokensSubstore: [],
    }),
  ];
}

/** A local validator's keys for the forger; the BLS pair is the one it registers. */
function generatorKeypair(address: Buffer, generator: { publicKey: Buffer; privateKey: Buffer }, bls: ValidatorKeys): GeneratorKeypair {
  return {
    address,
    generatorKey: generator.publicKey,
    generatorPrivateKey: generator.privateKey,
    blsKey: bls.blsKey,
    blsSecretKey: bls.blsPrivateKey,
  };
}

function eventsOf(events: readonly EventProps[], transaction: Transaction): EventProps[] {
  const topic = transactionTopic(transaction.id);
  return events.filter((event) => event.topics[0]?.equals(topic));
}

function single(
  events: readonly EventProps[],
  module: string,
  name: string,
  which: (event: EventProps) => boolean = () => true,
): EventProps {
  const found = events.filter((event) => event.module === module && event.name === name && which(event));
  expect(found, `${module}:${name}`).toHaveLength(1);
  return found[0] as EventProps;
}

const decode = <T>(schema: Schema, event: EventProps): T => codec.decode<T>(schema, event.data);

describe('the legacy module through blocks', () => {
  const keys = deriveKeys();
  const migratedAddress = addressFromPublicKey(keys.migrated.publicKey);
  const reclaimerAddress = addressFromPublicKey(keys.reclaimer.publicKey);
  const reclaimerLegacyAddress = legacyAddressOfPublicKey(keys.reclaimer.publicKey);
  const newGenerator = { publicKey: keys.registered.generatorKey, privateKey: keys.registered.generatorPrivateKey };
  const migratedNewKeypair = generatorKeypair(migratedAddress, newGenerator, keys.registered);

  let workDir: string;
  let genesisBlock: Block;
  let chain: OpenChain;
  let clock = GENESIS_TIMESTAMP;
  let pool: TransactionPool;
  let generator: BlockGenerator;
  let forger: Forger;
  let registerKeys: Transaction;
  let initRegistrations: Transaction[];
  let reclaim: Transaction;
  let inclusionHeight: number;
  let migratedBlockHeight: number;

  const read = (): ReadContext => ({ state: chain.stateDb.moduleReader });
  const availableBalance = (address: Buffer): bigint => chain.modules.token.method.getAvailableBalance(read(), address, TOKEN_ID);
  const lockedAmount = (address: Buffer, module: string): bigint =>
    chain.modules.token.method.getLockedAmount(read(), address, TOKEN_ID, module);
  const legacyAccountJSON = (publicKey: Buffer) =>
    getLegacyAccount({
      state: chain.stateDb.moduleReader,
      chainID: CHAIN_ID,
      logger: silentLogger,
      header: chain.processor.tipHeader(),
      params: { publicKey: publicKey.toString('hex') },
    });

  function registerKeysTransaction(sender: { publicKey: Buffer; privateKey: Buffer }, registered: ValidatorKeys): Transaction {
    return signTransaction(
      {
        module: 'legacy',
        command: 'registerKeys',
        nonce: 0n,
        senderPublicKey: sender.publicKey,
        params: codec.encode(registerKeysParamsSchema, {
          blsKey: registered.blsKey,
          proofOfPossession: registered.blsProofOfPossession,
          generatorKey: registered.generatorKey,
        }),
      },
      [sender.privateKey],
      CHAIN_ID,
    );
  }

  /**
   * Moves the clock to the middle of the next slot (past the forger's wait for a missed slot)
   * and lets the forger produce if the slot is one of its validators'.
   */
  async function tick(): Promise<Block | undefined> {
    const slot = chain.bft.slotNumber(clock) + 1;
    clock = chain.bft.slotTime(slot) + genesisConfig.blockTime / 2;
    const processed = await forger.tick();
    if (processed) await pool.onNewBlock(processed.block);
    return processed?.block;
  }

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'basalt-legacy-blocks-'));
    ({ block: genesisBlock } = await createGenesisBlock({
      genesisConfig,
      moduleConfigs: chainConfig.modules,
      assets: genesisAssets(keys),
      timestamp: GENESIS_TIMESTAMP,
    }));
    chain = await openChain({ dataPath: join(workDir, 'producer'), config: chainConfig, genesisBlock, now: () => clock });

    pool = new TransactionPool({
      config: { maxPayloadLength: genesisConfig.maxTransactionsSize },
      verifier: new StateMachinePoolVerifier(chain.stateMachine),
      tip: tipOf(chain),
      now: () => clock * 1000,
    });
    ({ forger, generator } = createChainForger(chain, {
      genesisConfig,
      candidates: () => pool.candidates(),
      now: () => clock,
    }));
    keys.ordinary.forEach((k) =>
      forger.enable(
        generatorKeypair(addressFromPublicKey(k.publicKey), { publicKey: k.generatorKey, privateKey: k.generatorPrivateKey }, k),
      ),
    );

    registerKeys = registerKeysTransaction(keys.migrated, keys.registered);
    initRegistrations = keys.ordinary.map((k) => registerKeysTransaction(k, k));
    reclaim = signTransaction(
      {
        module: 'legacy',
        command: 'reclaimLSK',
        nonce: 0n,
        senderPublicKey: keys.reclaimer.publicKey,
        params: codec.encode(reclaimLSKParamsSchema, { amount: LEGACY_BALANCE }),
      },
      [keys.reclaimer.privateKey],
      CHAIN_ID,
    );
  });

  afterAll(async () => {
    await chain?.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('builds a genesis with the legacy module that the node opens with it', () => {
    expect(genesisBlock.assets.all().map((a) => a.module)).toEqual(['interoperability', 'legacy', 'pos', 'token']);
    expect(chain.modules.legacy).toBeDefined();
    expect(chain.stateMachine.modules.at(-1)?.name).toBe('legacy');
    expect(chain.stateDb.root().equals(genesisBlock.header.stateRoot)).toBe(true);
  });

  it('starts with every validator banned and without a BLS key, and the legacy balance in the reserve', () => {
    const validatorKeys = chain.modules.validators.method.getValidatorKeys(read(), migratedAddress);
    expect(validatorKeys.blsKey.equals(ZERO_BLS_KEY)).toBe(true);
    expect(validatorKeys.generatorKey.equals(keys.migrated.publicKey)).toBe(true);
    for (const address of [migratedAddress, ...keys.ordinary.map((k) => addressFromPublicKey(k.publicKey))]) {
      expect(validatorStore.get(chain.stateDb.moduleReader, address)?.isBanned).toBe(true);
      expect(chain.modules.validators.method.getValidatorKeys(read(), address).blsKey.equals(ZERO_BLS_KEY)).toBe(true);
    }
    const eligible = eligibleValidatorsByWeight(chain.stateDb.moduleReader).map((e) => splitEligibleValidatorKey(e.key).address);
    expect(eligible.some((address) => address.equals(migratedAddress))).toBe(false);
    // Every genesis validator is registered without a BLS key (useInvalidBLSKey on a mainchain).
    for (const validator of chain.bft.getParameters(chain.stateDb.engineReader, 1).validators) {
      expect(validator.blsKey.equals(ZERO_BLS_KEY)).toBe(true);
    }

    expect(legacyAccountStore.get(chain.stateDb.moduleReader, reclaimerLegacyAddress)).toEqual({ balance: LEGACY_BALANCE });
    expect(legacyAccountJSON(keys.reclaimer.publicKey)).toEqual({
      legacyAddress: reclaimerLegacyAddress.toString('hex'),
      balance: LEGACY_BALANCE.toString(),
    });
    expect(lockedAmount(ADDRESS_LEGACY_RESERVE, 'legacy')).toBe(LEGACY_BALANCE);
    expect(availableBalance(reclaimerAddress)).toBe(RECLAIMER_FEE_BALANCE);
  });

  it('takes the registerKeys and reclaimLSK transactions into the pool and includes them in a generated block', async () => {
    for (const transaction of [...initRegistrations, registerKeys, reclaim]) {
      const result = await pool.add(transaction);
      expect(result).toMatchObject({ status: 'added', processable: true });
    }
    let included: Block | undefined;
    for (let ticks = 0; !included && ticks < 2 * ORDINARY_VALIDATORS; ticks += 1) included = await tick();
    expect(included).toBeDefined();
    const block = included as Block;
    expect(block.transactions.map((tx) => tx.id.toString('hex')).sort()).toEqual(
      [...initRegistrations, registerKeys, reclaim].map((tx) => tx.id.toString('hex')).sort(),
    );
    inclusionHeight = block.header.height;
    expect(pool.size).toBe(0);
  });

  it('registerKeys: sets the generator and BLS keys, emits keysRegistered and unbans the validator', () => {
    const events = eventsOf(chain.chainStore.getEvents(inclusionHeight) ?? [], registerKeys);
    const keyEvents = events.filter((event) => event.module === 'validators' || event.module === 'legacy').map((event) => event.name);
    expect(keyEvents).toEqual(['generatorKeyRegistration', 'blsKeyRegistration', 'keysRegistered', 'commandExecutionResult']);

    const generatorEvent = single(events, 'validators', 'generatorKeyRegistration');
    expect(decode(generatorKeyRegistrationDataSchema, generatorEvent)).toEqual({ generatorKey: keys.registered.generatorKey, result: 0 });
    expect(generatorEvent.topics.slice(1)).toEqual([migratedAddress]);
    const blsEvent = single(events, 'validators', 'blsKeyRegistration');
    expect(decode(blsKeyRegistrationDataSchema, blsEvent)).toEqual({
      blsKey: keys.registered.blsKey,
      proofOfPossession: keys.registered.blsProofOfPossession,
      result: 0,
    });
    const registered = single(events, 'legacy', 'keysRegistered');
    expect(decode(keysRegisteredDataSchema, registered)).toEqual({
      address: migratedAddress,
      generatorKey: keys.registered.generatorKey,
      blsKey: keys.registered.blsKey,
    });
    expect(registered.topics).toEqual([
      transactionTopic(registerKeys.id),
      migratedAddress,
      keys.registered.generatorKey,
      keys.registered.blsKey,
    ]);
    expect(decode(standardEventDataSchema, single(events, 'legacy', 'commandExecutionResult'))).toEqual({ success: true });

    const validatorKeys = chain.modules.validators.method.getValidatorKeys(read(), migratedAddress);
    expect(validatorKeys).toEqual({ generatorKey: keys.registered.generatorKey, blsKey: keys.registered.blsKey });
    expect(blsKeysStore.get(chain.stateDb.moduleReader, keys.registered.blsKey)).toEqual({ address: migratedAddress });
    expect(validatorStore.get(chain.stateDb.moduleReader, migratedAddress)?.isBanned).toBe(false);
    // Unbanned with its self-stake, it is eligible for election again (weight = its self-stake).
    const eligible = eligibleValidatorsByWeight(chain.stateDb.moduleReader).map((e) => splitEligibleValidatorKey(e.key));
    expect(eligible).toEqual([{ address: migratedAddress, weight: SELF_STAKE }]);
    expect(chain.modules.auth.method.getAuthAccount(read(), migratedAddress).nonce).toBe(1n);
  });

  it('registerKeys of the init validators: real BLS keys, unbanned (no stake: not eligible)', () => {
    const events = chain.chainStore.getEvents(inclusionHeight) ?? [];
    for (const [index, k] of keys.ordinary.entries()) {
      const address = addressFromPublicKey(k.publicKey);
      const ownEvents = eventsOf(events, initRegistrations[index] as Transaction);
      expect(decode(standardEventDataSchema, single(ownEvents, 'legacy', 'commandExecutionResult'))).toEqual({ success: true });
      expect(chain.modules.validators.method.getValidatorKeys(read(), address)).toEqual({ generatorKey: k.generatorKey, blsKey: k.blsKey });
      expect(validatorStore.get(chain.stateDb.moduleReader, address)?.isBanned).toBe(false);
    }
  });

  it('reclaimLSK: deletes the legacy entry, unlocks and transfers the balance from the reserve', () => {
    const events = eventsOf(chain.chainStore.getEvents(inclusionHeight) ?? [], reclaim);
    // The fee module locks and unlocks the fee too (under `fee`): the reclaim's own unlock is under `legacy`.
    const unlock = single(
      events,
      'token',
      'unlock',
      (event) => decode<{ module: string }>(unlockEventDataSchema, event).module === 'legacy',
    );
    expect(decode(unlockEventDataSchema, unlock)).toEqual({
      address: ADDRESS_LEGACY_RESERVE,
      module: 'legacy',
      tokenID: TOKEN_ID,
      amount: LEGACY_BALANCE,
      result: 0,
    });
    const transfer = single(events, 'token', 'transfer', (event) =>
      decode<{ senderAddress: Buffer }>(transferEventSchema, event).senderAddress.equals(ADDRESS_LEGACY_RESERVE),
    );
    expect(decode(transferEventSchema, transfer)).toEqual({
      senderAddress: ADDRESS_LEGACY_RESERVE,
      recipientAddress: reclaimerAddress,
      tokenID: TOKEN_ID,
      amount: LEGACY_BALANCE,
      result: 0,
    });
    const reclaimed = single(events, 'legacy', 'accountReclaimed');
    expect(decode(accountReclaimedDataSchema, reclaimed)).toEqual({
      legacyAddress: reclaimerLegacyAddress,
      address: reclaimerAddress,
      amount: LEGACY_BALANCE,
    });
    expect(reclaimed.topics).toEqual([transactionTopic(reclaim.id), reclaimerLegacyAddress, reclaimerAddress]);
    expect(events.indexOf(unlock)).toBeLessThan(events.indexOf(transfer));
    expect(events.indexOf(transfer)).toBeLessThan(events.indexOf(reclaimed));
    expect(decode(standardEventDataSchema, single(events, 'legacy', 'commandExecutionResult'))).toEqual({ success: true });

    expect(legacyAccountStore.get(chain.stateDb.moduleReader, reclaimerLegacyAddress)).toBeUndefined();
    expect(legacyAccountJSON(keys.reclaimer.publicKey).balance).toBe('0');
    expect(lockedAmount(ADDRESS_LEGACY_RESERVE, 'legacy')).toBe(0n);
    expect(availableBalance(ADDRESS_LEGACY_RESERVE)).toBe(0n);
    expect(availableBalance(reclaimerAddress)).toBe(RECLAIMER_FEE_BALANCE - reclaim.fee + LEGACY_BALANCE);
  });

  it('refuses a second reclaim and a second key registration', async () => {
    const again = signTransaction(
      {
        module: 'legacy',
        command: 'reclaimLSK',
        nonce: 1n,
        senderPublicKey: keys.reclaimer.publicKey,
        params: codec.encode(reclaimLSKParamsSchema, { amount: LEGACY_BALANCE }),
      },
      [keys.reclaimer.privateKey],
      CHAIN_ID,
    );
    const reclaimResult = await pool.add(again);
    expect(reclaimResult.status).toBe('rejected');
    const registerAgain = signTransaction(
      { module: 'legacy', command: 'registerKeys', nonce: 1n, senderPublicKey: keys.migrated.publicKey, params: registerKeys.params },
      [keys.migrated.privateKey],
      CHAIN_ID,
    );
    const registerResult = await pool.add(registerAgain);
    expect(registerResult.status).toBe('rejected');
    expect(pool.size).toBe(0);
  });

  it('elects the unbanned validator after the init rounds, with its new keys in the BFT parameters', async () => {
    while (chain.chainStore.tipHeight() < FIRST_ELECTED_HEIGHT - 1) {
      await tick();
    }
    expect(chain.chainStore.tipHeight()).toBe(FIRST_ELECTED_HEIGHT - 1);
    const parameters = chain.bft.getParameters(chain.stateDb.engineReader, FIRST_ELECTED_HEIGHT);
    const entry = parameters.validators.find((v) => v.address.equals(migratedAddress));
    expect(entry).toBeDefined();
    expect(entry?.generatorKey.equals(keys.registered.generatorKey)).toBe(true);
    expect(entry?.blsKey.equals(keys.registered.blsKey)).toBe(true);
    // pos bootstrap transition (LIP 0057): one elected validator, the other seats for init
    // validators at its weight; every one of them now has a registered BLS key.
    expect(parameters.validators).toHaveLength(ORDINARY_VALIDATORS);
    for (const validator of parameters.validators) {
      expect(validator.blsKey.equals(ZERO_BLS_KEY)).toBe(false);
      expect(validator.bftWeight).toBe(SELF_STAKE / 100_000_000_000n);
    }
  });

  it('refuses a block of the migrated validator signed with its old generator key and accepts its new key', async () => {
    // Tick until the migrated validator owns the next slot (its keys are not on the forger).
    for (let ticks = 0; ; ticks += 1) {
      expect(ticks).toBeLessThan(4 * genesisConfig.bftBatchSize);
      const nextSlot = chain.bft.slotNumber(clock) + 1;
      const owner = chain.bft.generatorAtTimestamp(
        chain.stateDb.engineReader,
        chain.chainStore.tipHeight() + 1,
        chain.bft.slotTime(nextSlot),
      );
      if (owner.address.equals(migratedAddress)) break;
      await tick();
    }
    clock = chain.bft.slotTime(chain.bft.slotNumber(clock) + 1) + genesisConfig.blockTime / 2;
    const { block } = await generator.generate(migratedNewKeypair, clock, pool.candidates());
    expect(block.header.generatorAddress.equals(migratedAddress)).toBe(true);
    expect(block.header.isSignatureValid(keys.registered.generatorKey, CHAIN_ID)).toBe(true);

    const before = snapshotStore(chain);
    const withOldKey = tamperHeader(block, {}, { generatorPrivateKey: keys.migrated.privateKey }, CHAIN_ID);
    await expect(chain.processor.processBlock(withOldKey)).rejects.toMatchObject({
      constructor: InvalidBlockError,
      reason: 'signature',
      message: 'Invalid block signature.',
    });
    expect(snapshotStore(chain)).toEqual(before);

    const processed = await chain.processor.processBlock(block);
    forger.afterBlock(processed);
    await pool.onNewBlock(block);
    migratedBlockHeight = block.header.height;
    expect(chain.processor.tipHeader().id.equals(block.header.id)).toBe(true);
    expect(validatorStore.get(chain.stateDb.moduleReader, migratedAddress)?.lastGeneratedHeight).toBe(migratedBlockHeight);
  });

  it('certifies a block with a certificate its new BLS key signed', async () => {
    // From now on the node holds the migrated validator's new keys too: it generates in its
    // slots and signs single commits for finalized heights (LIP 0061).
    forger.enable(migratedNewKeypair);
    let certifying: Block | undefined;
    for (let ticks = 0; !certifying; ticks += 1) {
      expect(ticks).toBeLessThan(12 * genesisConfig.bftBatchSize);
      const block = await tick();
      if (block && block.header.aggregateCommit.certificateSignature.length > 0) certifying = block;
    }
    const commit = (certifying as Block).header.aggregateCommit;
    expect(commit.height).toBeGreaterThanOrEqual(genesisConfig.minimumCertifyHeight);
    expect(chain.bft.getHeights(chain.stateDb.engineReader).maxHeightCertified).toBe(commit.height);
    // Key i of the block's active validators sorted by BLS key is bit i of aggregationBits.
    const sortedKeys = chain.bft
      .getParameters(chain.stateDb.engineReader, commit.height)
      .validators.filter((v) => v.bftWeight > 0n)
      .map((v) => v.blsKey)
      .sort((a, b) => a.compare(b));
    const index = sortedKeys.findIndex((key) => key.equals(keys.registered.blsKey));
    expect(index).toBeGreaterThanOrEqual(0);
    expect(((commit.aggregationBits[index >> 3] as number) >> (index & 7)) & 1).toBe(1);
  });

  it('is reproduced by a fresh node replaying the blocks', async () => {
    const replica = await openChain({ dataPath: join(workDir, 'replica'), config: chainConfig, genesisBlock, now: () => clock });
    try {
      const tipHeight = chain.chainStore.tipHeight();
      for (let height = 1; height <= tipHeight; height += 1) {
        await replica.processor.processBlock(Block.fromBytes(chain.chainStore.getBlockByHeight(height).bytes));
      }
      expect(replica.processor.tipHeader().id.equals(chain.processor.tipHeader().id)).toBe(true);
      expect(replica.stateDb.root().equals(chain.stateDb.root())).toBe(true);
      const original = snapshotStore(chain);
      const replayed = snapshotStore(replica);
      expect(replayed.moduleState).toEqual(original.moduleState);
      expect(replayed.engineState).toEqual(original.engineState);
      expect(replica.chainStore.getEvents(inclusionHeight)).toEqual(chain.chainStore.getEvents(inclusionHeight));
    } finally {
      await replica.close();
    }
  });
});
