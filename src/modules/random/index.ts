/**
 * The random module (LIP 0046; lisk-sdk framework/src/modules/random): every block carries its
 * generator's next hash onion reveal as the `random` asset; the module keeps the recent reveals
 * on chain and derives random seeds from them (PoS uses them to shuffle validators).
 */
import { codec, validate } from '../../codec/index.js';
import type { ModuleInitArgs } from '../../config/genesis-config.js';
import { InvalidBlockError } from '../../errors.js';
import type {
  BlockAfterExecuteContext,
  BlockVerifyContext,
  Command,
  EndpointHandler,
  ExecutionAssets,
  GenesisContext,
  InsertAssetContext,
  Module,
  ModuleEvent,
  ModuleMetadata,
  ModuleStore,
} from '../base/index.js';
import { moduleMetadata } from '../base/index.js';
import { DEFAULT_RANDOM_CONFIG, parseRandomConfig, type RandomModuleConfig } from './config.js';
import { EMPTY_KEY, RANDOM_ASSET_VERSION, RANDOM_MODULE_NAME } from './constants.js';
import { createRandomEndpoints } from './endpoint.js';
import { StoredHashOnionSource, type HashOnionSource } from './hash-onion-source.js';
import { InMemoryHashOnionStore, type HashOnionStore } from './hash-onion-store.js';
import { RandomMethod } from './method.js';
import { randomAssetSchema, type RandomAsset } from './schemas.js';
import { isSeedRevealValidAgainst } from './seed-reveal.js';
import { validatorRevealsStore } from './stores.js';

/** The endpoints lisk-sdk lists in metadata, in its order (setHashOnionUsage exists but is not listed). */
const METADATA_ENDPOINTS = ['isSeedRevealValid', 'setHashOnion', 'getHashOnionSeeds', 'hasHashOnion', 'getHashOnionUsage'];

export interface RandomModuleOptions {
  /** Off-chain storage of the node's hash onions and their use (default: in memory). */
  readonly hashOnionStore?: HashOnionStore;
  /** Source of the seed reveals of generated blocks (default: lisk-sdk's rule over `hashOnionStore`). */
  readonly hashOnionSource?: HashOnionSource;
}

export class RandomModule implements Module {
  readonly name = RANDOM_MODULE_NAME;
  readonly commands: readonly Command<unknown>[] = [];
  readonly stores: readonly ModuleStore<object>[] = [validatorRevealsStore];
  readonly events: readonly ModuleEvent<object>[] = [];
  readonly endpoints: Readonly<Record<string, EndpointHandler>>;
  readonly method = new RandomMethod();
  readonly hashOnionStore: HashOnionStore;
  private readonly hashOnionSource: HashOnionSource;
  private config: RandomModuleConfig = DEFAULT_RANDOM_CONFIG;

  constructor(options: RandomModuleOptions = {}) {
    this.hashOnionStore = options.hashOnionStore ?? new InMemoryHashOnionStore();
    this.hashOnionSource = options.hashOnionSource ?? new StoredHashOnionSource(this.hashOnionStore);
    this.endpoints = createRandomEndpoints(this.hashOnionStore);
  }

  /** Parses `modules.random` (maxLengthReveals, default 206). */
  init(args: ModuleInitArgs): void {
    this.config = parseRandomConfig(args.moduleConfig);
  }

  get maxLengthReveals(): number {
    return this.config.maxLengthReveals;
  }

  /** The module's `system_getMetadata` entry (without `name`), as lisk-sdk's RandomModule.metadata(). */
  metadata(): ModuleMetadata {
    return moduleMetadata(this, [{ version: RANDOM_ASSET_VERSION, data: randomAssetSchema }], METADATA_ENDPOINTS);
  }

  /** LIP 0046 genesis state: an empty list of reveals (the module has no genesis asset). */
  initGenesisState(context: GenesisContext): void {
    validatorRevealsStore.set(context.state, EMPTY_KEY, { validatorReveals: [] });
  }

  /** Block generation: adds the generator's next seed reveal as the `random` asset. */
  insertAssets(context: InsertAssetContext): void {
    const { generatorAddress, height } = context.header;
    const seedReveal = this.hashOnionSource.nextReveal(generatorAddress, height, context.getFinalizedHeight());
    context.setAsset(this.name, codec.encode(randomAssetSchema, { seedReveal }));
  }

  /** LIP 0046 block verification: every block after genesis has a `random` asset of 16 bytes. */
  verifyAssets(context: BlockVerifyContext): void {
    const asset = this.readAsset(context.assets, context.header.height);
    validate(randomAssetSchema, asset);
  }

  /**
   * LIP 0046 after transactions: appends `{seedReveal, generatorAddress, height, valid}` to
   * validatorReveals, dropping the oldest entry when the list holds exactly maxLengthReveals.
   * `valid` requires a previous reveal of the same generator that the new one hashes to.
   */
  afterTransactionsExecute(context: BlockAfterExecuteContext): void {
    const { seedReveal } = this.readAsset(context.assets, context.header.height);
    const { generatorAddress, height } = context.header;
    const { validatorReveals } = validatorRevealsStore.getOrThrow(context.state, EMPTY_KEY);
    const valid = isSeedRevealValidAgainst(generatorAddress, seedReveal, validatorReveals);
    // lisk-sdk drops one entry only at exactly the limit; a longer list (a lowered limit) stays as long.
    const kept = validatorReveals.length === this.config.maxLengthReveals ? validatorReveals.slice(1) : validatorReveals;
    kept.push({ seedReveal, generatorAddress, height, valid });
    validatorRevealsStore.set(context.state, EMPTY_KEY, { validatorReveals: kept });
  }

  private readAsset(assets: ExecutionAssets, height: number): RandomAsset {
    const encoded = assets.getAsset(this.name);
    if (encoded === undefined) {
      throw new InvalidBlockError('assets', 'Random module asset must exist.', height);
    }
    return codec.decode<RandomAsset>(randomAssetSchema, encoded);
  }
}

export { RandomMethod } from './method.js';
export { InMemoryHashOnionStore, type HashOnionStore } from './hash-onion-store.js';
export { StoredHashOnionSource, revealAtCount, type HashOnionSource } from './hash-onion-source.js';
export type { HashOnionCheckpoints, UsedHashOnion } from './hash-onion-types.js';
export { computeRandomSeed } from './random-seed.js';
export { isSeedRevealValidAgainst } from './seed-reveal.js';
export * from './constants.js';
export * from './stores.js';
export { randomAssetSchema, type RandomAsset } from './schemas.js';
