import { codec, validate } from '../codec/index.js';
import { InvalidBlockError, ValidationError } from '../errors.js';
import { merkleRoot } from '../merkle/index.js';
import { blockAssetSchema } from './schemas.js';
import { NAME_PATTERN } from './transaction.js';

export interface BlockAsset {
  readonly module: string;
  readonly data: Buffer;
}

/** lisk-sdk MAX_ASSET_DATA_SIZE_BYTES: the random module's seed reveal is the only standard asset. */
export const MAX_ASSET_DATA_SIZE = 18;

/**
 * The assets of a block (LIP 0055): at most one per module, sorted by module name. Encoded one by
 * one; assetRoot is the RMT root over the encoded assets (not their hashes, as LIP 0055 says;
 * docs/protocol/blocks-and-transactions.md).
 */
export class BlockAssets {
  private readonly assets: BlockAsset[];

  constructor(assets: readonly BlockAsset[] = []) {
    this.assets = [...assets];
  }

  static fromBytes(encodedAssets: readonly Uint8Array[]): BlockAssets {
    return new BlockAssets(encodedAssets.map((bytes) => codec.decode<BlockAsset>(blockAssetSchema, bytes)));
  }

  /** As `fromBytes`, with bytes fields that are views into the encodings (see Transaction.fromSharedBytes). */
  static fromSharedBytes(encodedAssets: readonly Uint8Array[]): BlockAssets {
    return new BlockAssets(encodedAssets.map((bytes) => codec.decodeViews<BlockAsset>(blockAssetSchema, bytes)));
  }

  getAsset(module: string): Buffer | undefined {
    return this.assets.find((asset) => asset.module === module)?.data;
  }

  /** Adds or replaces a module's asset, keeping the list sorted (block generation). */
  setAsset(module: string, data: Buffer): void {
    const index = this.assets.findIndex((asset) => asset.module === module);
    if (index >= 0) this.assets[index] = { module, data };
    else this.assets.push({ module, data });
    this.assets.sort((a, b) => (a.module < b.module ? -1 : a.module > b.module ? 1 : 0));
  }

  all(): readonly BlockAsset[] {
    return this.assets;
  }

  encoded(): Buffer[] {
    return this.assets.map((asset) => codec.encode(blockAssetSchema, asset));
  }

  root(): Buffer {
    return merkleRoot(this.encoded());
  }

  /** Non-genesis rules: names, size limit, sorted by module (JS string order), no duplicates. */
  validate(height?: number): void {
    this.validateOrder(height, true);
  }

  /** Genesis rules: as `validate` but without the name pattern and size limit. */
  validateGenesis(height?: number): void {
    this.validateOrder(height, false);
  }

  toJSON(): { module: string; data: string }[] {
    return this.assets.map((asset) => ({ module: asset.module, data: asset.data.toString('hex') }));
  }

  private validateOrder(height: number | undefined, nonGenesis: boolean): void {
    let previous: BlockAsset | undefined;
    for (const asset of this.assets) {
      try {
        validate(blockAssetSchema, asset);
      } catch (error) {
        if (error instanceof ValidationError) throw new InvalidBlockError('assets', error.message, height);
        throw error;
      }
      if (nonGenesis && !NAME_PATTERN.test(asset.module)) {
        throw new InvalidBlockError('assets', `Invalid module name ${JSON.stringify(asset.module)} in assets.`, height);
      }
      if (nonGenesis && asset.data.length > MAX_ASSET_DATA_SIZE) {
        throw new InvalidBlockError(
          'assets',
          `Asset of module ${asset.module} has ${asset.data.length} bytes, more than ${MAX_ASSET_DATA_SIZE}.`,
          height,
        );
      }
      if (previous && previous.module > asset.module) {
        throw new InvalidBlockError('assets', 'Assets are not sorted by module name.', height);
      }
      if (previous && previous.module === asset.module) {
        throw new InvalidBlockError('assets', `Module ${asset.module} has more than one asset.`, height);
      }
      previous = asset;
    }
  }
}
