/**
 * Shared set-up of the legacy module tests: the Lisk Core v4 devnet genesis (a real Core v4
 * genesis block with a legacy asset, test/fixtures/genesis/lisk-core-devnet), the REAL lisk-sdk
 * module set of Basalt (createMainchainModules) plus the legacy module wired the way lisk-core's
 * application/index.ts does it (registered last, with token, validators and pos methods), and
 * helpers to build, sign and run transactions through the real StateMachine.
 */
import { BlockAssets } from '../../../../src/chain/block-assets.js';
import { Block } from '../../../../src/chain/block.js';
import { Transaction } from '../../../../src/chain/transaction.js';
import { codec, type Schema } from '../../../../src/codec/index.js';
import type { GenesisConfig } from '../../../../src/config/genesis-config.js';
import { MESSAGE_TAG_TRANSACTION, signData } from '../../../../src/crypto/index.js';
import { StateMachine, type TransactionExecutionResult } from '../../../../src/engine/state-machine/state-machine.js';
import { silentLogger } from '../../../../src/logger.js';
import {
  EventQueue,
  VerifyStatus,
  type ExecutionHeader,
  type MethodContext,
  type NextValidator,
  type QueuedEvent,
  type VerificationResult,
} from '../../../../src/modules/base/index.js';
import { LegacyModule } from '../../../../src/modules/legacy/index.js';
import { createMainchainModules, type MainchainModules } from '../../../../src/modules/mainchain.js';
import { MemoryState } from '../../../../src/state/memory-state.js';
import { OverlayState } from '../../../../src/state/overlay-state.js';
import { loadBinaryFixture, loadJsonFixture } from '../../../support/fixtures.js';
import { ModuleHarness } from '../../../support/module-harness.js';

export const DEVNET_DIR = 'genesis/lisk-core-devnet';
export const DEVNET_CHAIN_ID = Buffer.from('04000000', 'hex');
/** tokenIDReclaim on devnet: the default 0000000000000000 with its chain part replaced by 04000000. */
export const DEVNET_LSK = Buffer.from('0400000000000000', 'hex');

/** The `genesis` section of lisk-core config/devnet/config.json (bftBatchSize is lisk-sdk's default). */
export const devnetGenesisConfig: GenesisConfig = {
  chainID: DEVNET_CHAIN_ID,
  blockTime: 10,
  bftBatchSize: 103,
  maxTransactionsSize: 15360,
  minimumCertifyHeight: 1,
};

interface DevnetConfig {
  modules: Record<string, Record<string, unknown>>;
}

export const devnetConfig = loadJsonFixture<DevnetConfig>(`${DEVNET_DIR}/config.json`);

export interface GenesisAssetJSON {
  module: string;
  data: Record<string, unknown>;
  schema: Schema;
}

/** genesis_assets.json: each asset as codec JSON with its schema (encoding gives the blob's bytes). */
export function devnetAssetsJSON(): GenesisAssetJSON[] {
  return loadJsonFixture<{ assets: GenesisAssetJSON[] }>(`${DEVNET_DIR}/genesis_assets.json`).assets;
}

export function devnetAssetJSON(module: string): GenesisAssetJSON {
  const asset = devnetAssetsJSON().find((entry) => entry.module === module);
  if (asset === undefined) throw new Error(`devnet genesis_assets.json has no ${module} asset`);
  return asset;
}

export function devnetGenesisBlock(): Block {
  return Block.fromBytes(loadBinaryFixture(`${DEVNET_DIR}/genesis_block.blob`));
}

export interface DevValidatorKeys {
  address: string;
  publicKey: string;
  privateKey: string;
  plain: { generatorKey: string; blsKey: string; blsProofOfPossession: string };
}

/** dev-validators.json: the keys of the 103 devnet validators (genesis_0 … genesis_102). */
export function devValidators(): DevValidatorKeys[] {
  return loadJsonFixture<{ keys: DevValidatorKeys[] }>(`${DEVNET_DIR}/dev-validators.json`).keys;
}

export interface LegacyWorld {
  readonly modules: MainchainModules;
  readonly legacy: LegacyModule;
  readonly stateMachine: StateMachine;
}

/**
 * lisk-sdk's mainchain modules with the devnet config (optionally overridden per module) plus the
 * legacy module, registered last as lisk-core does; every module initialised.
 */
export function createLegacyWorld(overrides: Record<string, Record<string, unknown>> = {}): LegacyWorld {
  const moduleConfigs: Record<string, Record<string, unknown>> = { ...devnetConfig.modules };
  for (const [name, section] of Object.entries(overrides)) moduleConfigs[name] = { ...moduleConfigs[name], ...section };
  const modules = createMainchainModules({ genesisConfig: devnetGenesisConfig, moduleConfigs });
  const legacy = new LegacyModule({
    token: modules.token.method,
    validators: modules.validators.method,
    pos: modules.pos.method,
  });
  legacy.init({ genesisConfig: devnetGenesisConfig, moduleConfig: moduleConfigs.legacy ?? {} });
  const stateMachine = new StateMachine([...modules.list, legacy], DEVNET_CHAIN_ID, silentLogger);
  return { modules, legacy, stateMachine };
}

export interface GenesisOutcome {
  readonly state: OverlayState;
  readonly events: QueuedEvent[];
  readonly nextValidators: readonly NextValidator[] | undefined;
}

/** Runs every module's initGenesisState then finalizeGenesisState over an empty state. */
export async function executeGenesis(world: LegacyWorld, header: ExecutionHeader, assets: BlockAssets): Promise<GenesisOutcome> {
  const state = new OverlayState(new MemoryState());
  const events = EventQueue.forBlock(header.height);
  let nextValidators: readonly NextValidator[] | undefined;
  await world.stateMachine.executeGenesis({
    state,
    events,
    contextStore: new Map(),
    header,
    assets,
    setNextValidators: (_precommit, _certificate, validators) => {
      nextValidators = validators;
    },
  });
  return { state, events: events.events(), nextValidators };
}

/** A harness whose committed base state is `state` (e.g. right after genesis), at height 1. */
export function harnessAfter(state: OverlayState, genesisHeader: ExecutionHeader): ModuleHarness {
  const base = new MemoryState();
  for (const change of state.changes()) base.put(change.key, change.value);
  return new ModuleHarness({
    base,
    header: { height: genesisHeader.height + 1, timestamp: genesisHeader.timestamp + 10 },
  });
}

/** Encodes a module's genesis asset given as codec JSON, with its schema from the devnet genesis_assets.json. */
export function encodeAsset(module: string, json: Record<string, unknown>): Buffer {
  const { schema } = devnetAssetJSON(module);
  return codec.encode(schema, codec.fromJSON(schema, json));
}

export function methodContext(harness: ModuleHarness): MethodContext {
  return { state: harness.state, events: harness.events, contextStore: harness.contextStore };
}

/** A transaction signed (LSK_TX_, devnet chain ID) by one Ed25519 key. */
export function signedTransaction(fields: {
  module: string;
  command: string;
  params: Buffer;
  nonce?: bigint;
  fee?: bigint;
  publicKey: Buffer;
  privateKey: Buffer;
}): Transaction {
  const unsigned = new Transaction({
    module: fields.module,
    command: fields.command,
    nonce: fields.nonce ?? 0n,
    fee: fields.fee ?? 20_000_000n,
    senderPublicKey: fields.publicKey,
    params: fields.params,
    signatures: [],
  });
  return unsigned.withSignatures([signData(MESSAGE_TAG_TRANSACTION, DEVNET_CHAIN_ID, unsigned.signingBytes(), fields.privateKey)]);
}

/** An unsigned transaction for command-level tests (commands never look at signatures). */
export function commandTransaction(command: string, senderPublicKey: Buffer, params: Buffer): Transaction {
  return new Transaction({
    module: 'legacy',
    command,
    nonce: 0n,
    fee: 10_000_000n,
    senderPublicKey,
    params,
    signatures: [Buffer.alloc(64)],
  });
}

export interface EventView {
  module: string;
  name: string;
  data: string;
  topics: string[];
}

export function eventViews(events: readonly QueuedEvent[]): EventView[] {
  return events.map((event) => ({
    module: event.module,
    name: event.name,
    data: event.data.toString('hex'),
    topics: event.topics.map((topic) => topic.toString('hex')),
  }));
}

/** Protobuf-style varint of a non-negative integer, for spelling out expected event bytes by hand. */
export function varintHex(value: bigint | number): string {
  let rest = BigInt(value);
  const bytes: number[] = [];
  do {
    const low = Number(rest & 0x7fn);
    rest >>= 7n;
    bytes.push(rest > 0n ? low | 0x80 : low);
  } while (rest > 0n);
  return Buffer.from(bytes).toString('hex');
}

export interface TransactionRun {
  readonly verify: VerificationResult;
  readonly result?: TransactionExecutionResult;
}

/**
 * Verifies and, when valid, executes one transaction through the real StateMachine (every
 * module's transaction hooks: auth nonce and signatures, fee), in the harness' block.
 */
export async function runTransaction(world: LegacyWorld, harness: ModuleHarness, transaction: Transaction): Promise<TransactionRun> {
  const { height, timestamp } = harness.header;
  const verify = await world.stateMachine.verifyTransaction(transaction, harness.state, { height, timestamp }, harness.contextStore);
  if (verify.status !== VerifyStatus.OK) return { verify };
  const result = await world.stateMachine.executeTransaction(
    {
      state: harness.state,
      events: harness.events,
      contextStore: harness.contextStore,
      header: harness.header,
      assets: { getAsset: (module) => harness.assets.get(module) },
      setNextValidators: () => undefined,
    },
    transaction,
  );
  return { verify, result };
}

interface PosValidatorJSON {
  address: string;
  blsKey: string;
  proofOfPossession: string;
  isBanned: boolean;
  reportMisbehaviorHeights: number[];
  [key: string]: unknown;
}

/** The devnet validator that stays unbanned in the migrated genesis (not an init validator). */
export const UNBANNED_VALIDATOR_INDEX = 101;
/** The devnet validator with 5 misbehavior reports in the migrated genesis: banned for good. */
export const PERMANENTLY_BANNED_VALIDATOR_INDEX = 102;

/**
 * The devnet genesis as the v3 → v4 migrator would have built it for mainnet (LIP 0063,
 * docs/protocol/legacy.md): every validator with 48 zero bytes as BLS key and 96 zero bytes as
 * proof of possession, banned, and pos configured with useInvalidBLSKey (validators registered
 * without a BLS key). Two exceptions to exercise unbanValidator's refusals: genesis_101 is not
 * banned, genesis_102 has 5 misbehavior reports. Token, legacy and interoperability assets are the
 * blob's own bytes.
 */
export async function migratedDevnetGenesis(): Promise<{ world: LegacyWorld; genesis: GenesisOutcome; header: ExecutionHeader }> {
  const block = devnetGenesisBlock();
  const pos = structuredClone(devnetAssetJSON('pos').data) as { validators: PosValidatorJSON[] };
  pos.validators.forEach((validator, index) => {
    validator.blsKey = '00'.repeat(48);
    validator.proofOfPossession = '00'.repeat(96);
    validator.isBanned = index !== UNBANNED_VALIDATOR_INDEX;
    if (index === PERMANENTLY_BANNED_VALIDATOR_INDEX) validator.reportMisbehaviorHeights = [0, 0, 0, 0, 0];
  });
  const assets = new BlockAssets(block.assets.all());
  assets.setAsset('pos', encodeAsset('pos', pos as unknown as Record<string, unknown>));
  const world = createLegacyWorld({ pos: { useInvalidBLSKey: true } });
  const genesis = await executeGenesis(world, block.header, assets);
  return { world, genesis, header: block.header };
}
