/**
 * The genesis block builder (LIP 0060; lisk-sdk genesis_block.ts
 * generateGenesisBlock as lisk-commander's genesis-block:create calls it). The roots that depend
 * on the genesis state are computed by running the node's own engine (block executor, state
 * machine, BFT, the mainchain modules) over an in-memory state, so a block built here is exactly
 * the block a node opening it will accept.
 */
import { BlockAssets } from '../chain/block-assets.js';
import { BlockHeader } from '../chain/block-header.js';
import { Block } from '../chain/block.js';
import { blockEventRoot, type EventProps } from '../chain/event.js';
import { codec } from '../codec/index.js';
import type { GenesisConfig } from '../config/genesis-config.js';
import { EMPTY_HASH } from '../crypto/index.js';
import { BlockExecutor, type ExecutedBlock } from '../engine/block-executor.js';
import { Bft } from '../engine/consensus/bft/bft.js';
import { StateMachine } from '../engine/state-machine/state-machine.js';
import { BasaltError } from '../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import { smtKeyFromStateKey, smtValueFromStateValue, STATE_KEY_LENGTH } from '../merkle/index.js';
import { createInMemoryNodeStore, createSparseMerkleTree } from '../merkle/native/index.js';
import { createChainModules } from '../modules/chain-modules.js';
import { MemoryState } from '../state/memory-state.js';
import type { StateChange } from '../state/overlay-state.js';
import type { GenesisAssetInput } from './genesis-assets-file.js';
import { uint64NumbersToStrings } from './json-integers.js';

/** lisk-sdk GENESIS_BLOCK_VERSION. */
export const GENESIS_BLOCK_VERSION = 0;
const MAX_UINT32 = 0xffff_ffff;

export interface CreateGenesisBlockInput {
  /** The chain's genesis config: chainID, blockTime and bftBatchSize matter for execution. */
  readonly genesisConfig: GenesisConfig;
  /** The config's `modules` section (module configs change genesis execution, e.g. pos). */
  readonly moduleConfigs?: Readonly<Record<string, Record<string, unknown>>>;
  readonly assets: readonly GenesisAssetInput[];
  /**
   * Assets already encoded, beside `assets`: a caller that builds large assets as bytes (the
   * migration) spares the codec JSON round trip.
   */
  readonly encodedAssets?: readonly { readonly module: string; readonly bytes: Buffer }[];
  /** Unix seconds; defaults to now, as lisk-sdk does. */
  readonly timestamp?: number;
  /** Defaults to 0. */
  readonly height?: number;
  /** Defaults to 32 zero bytes. */
  readonly previousBlockID?: Buffer;
  readonly logger?: Logger;
}

export interface CreatedGenesisBlock {
  readonly block: Block;
  /** The events the genesis execution emitted (their eventRoot is in the header). */
  readonly events: readonly EventProps[];
}

/** Genesis assets or genesis state that cannot make a valid genesis block. */
export class GenesisBuildError extends BasaltError {
  constructor(message: string) {
    super('ERR_GENESIS_BUILD', message);
  }
}

/**
 * Builds a genesis block from module assets given in codec JSON: encodes every
 * asset with its schema, sorts the assets by module name, computes assetRoot, then executes the
 * genesis state to get stateRoot, eventRoot and validatorsHash. The lisk `legacy` module is
 * registered when the assets or the module configs have it, as the node does. Throws
 * GenesisBuildError naming the module or the rule that failed.
 */
export async function createGenesisBlock(input: CreateGenesisBlockInput): Promise<CreatedGenesisBlock> {
  const height = input.height ?? 0;
  const timestamp = input.timestamp ?? Math.floor(Date.now() / 1000);
  const previousBlockID = input.previousBlockID ?? Buffer.alloc(32, 0);
  checkUint32('height', height);
  checkUint32('timestamp', timestamp);
  if (previousBlockID.length !== 32) throw new GenesisBuildError(`previousBlockID must be 32 bytes, got ${previousBlockID.length}.`);

  const assets = encodeAssets(input.assets);
  for (const { module, bytes } of input.encodedAssets ?? []) {
    if (assets.getAsset(module) !== undefined) throw new GenesisBuildError(`Module ${module} has more than one genesis asset.`);
    assets.setAsset(module, bytes);
  }
  const unsigned = new BlockHeader({
    version: GENESIS_BLOCK_VERSION,
    timestamp,
    height,
    previousBlockID,
    generatorAddress: Buffer.alloc(20, 0),
    transactionRoot: EMPTY_HASH,
    assetRoot: assets.root(),
    // Filled in below, from the execution; modules never read them during genesis.
    eventRoot: EMPTY_HASH,
    stateRoot: EMPTY_HASH,
    validatorsHash: EMPTY_HASH,
    maxHeightPrevoted: height,
    maxHeightGenerated: 0,
    impliesMaxPrevotes: true,
    aggregateCommit: { height, aggregationBits: Buffer.alloc(0), certificateSignature: Buffer.alloc(0) },
    signature: Buffer.alloc(0),
  });

  const { genesisConfig } = input;
  const moduleConfigs = input.moduleConfigs ?? {};
  const withLegacy = assets.getAsset('legacy') !== undefined || 'legacy' in moduleConfigs;
  const modules = createChainModules({ genesisConfig, moduleConfigs, withLegacy });
  const bft = new Bft(genesisConfig.bftBatchSize, genesisConfig.blockTime);
  const executor = new BlockExecutor(new StateMachine(modules.list, genesisConfig.chainID, input.logger ?? silentLogger), bft);

  let executed: ExecutedBlock;
  try {
    executed = await executor.executeGenesis(new Block(unsigned, [], assets), new MemoryState(), new MemoryState());
  } catch (error) {
    throw new GenesisBuildError(`The genesis state is invalid: ${(error as Error).message}`);
  }
  const header = unsigned.with({
    stateRoot: stateRootOf(executed.moduleState.changes()),
    eventRoot: blockEventRoot(executed.events),
    validatorsHash: bft.getParameters(executed.engineState, height + 1).validatorsHash,
  });
  const block = new Block(header, [], assets);
  block.validateGenesis();
  return { block, events: executed.events };
}

/** Encodes each asset (codec JSON → bytes) into BlockAssets, which keeps them sorted by module. */
function encodeAssets(inputs: readonly GenesisAssetInput[]): BlockAssets {
  const assets = new BlockAssets();
  for (const { module, data, schema } of inputs) {
    if (assets.getAsset(module) !== undefined) throw new GenesisBuildError(`Module ${module} has more than one genesis asset.`);
    try {
      const value = codec.fromJSON(schema, uint64NumbersToStrings(schema, data) as object);
      assets.setAsset(module, codec.encode(schema, value));
    } catch (error) {
      throw new GenesisBuildError(`Genesis asset of module ${module}: ${(error as Error).message}`);
    }
  }
  return assets;
}

/**
 * The state tree root over the genesis state (LIP 0040), from the empty tree. A migrated mainnet
 * state is about a million leaves: the native tree (when the addon is loaded) computes the same
 * root several times faster than the TypeScript one.
 */
function stateRootOf(changes: readonly StateChange[]): Buffer {
  const written = changes.filter((change) => change.value !== undefined);
  if (written.length === 0) return EMPTY_HASH;
  const tree = createSparseMerkleTree(createInMemoryNodeStore(), STATE_KEY_LENGTH);
  return tree.update(
    EMPTY_HASH,
    written.map((change) => smtKeyFromStateKey(change.key)),
    written.map((change) => smtValueFromStateValue(change.value as Buffer)),
  ).root;
}

function checkUint32(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 0 || value > MAX_UINT32) {
    throw new GenesisBuildError(`${name} must be an integer from 0 to ${MAX_UINT32}, got ${value}.`);
  }
}
