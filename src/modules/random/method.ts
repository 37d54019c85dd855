/**
 * The random module's method (LIP 0046 "Protocol Logic for Other Modules"; lisk-sdk
 * random/method.ts): the reward rule for seed reveals (dynamic reward) and the random bytes
 * PoS shuffles validators with.
 */
import { codec } from '../../codec/index.js';
import { InvalidParamsError } from '../../errors.js';
import type { ExecutionAssets, ReadContext } from '../base/index.js';
import { EMPTY_KEY, RANDOM_MODULE_NAME } from './constants.js';
import { computeRandomSeed } from './random-seed.js';
import { randomAssetSchema, type RandomAsset } from './schemas.js';
import { isSeedRevealValidAgainst } from './seed-reveal.js';
import { validatorRevealsStore } from './stores.js';

export class RandomMethod {
  /**
   * LIP 0046 isSeedRevealValid, the reward rule: the block's seed reveal is valid when its
   * generator has no reveal in validatorReveals yet, or when it hashes to the latest one.
   * Call it before the block's own reveal is appended (dynamic reward does so before transactions).
   */
  isSeedRevealValid(ctx: ReadContext, generatorAddress: Buffer, blockAssets: ExecutionAssets): boolean {
    const { validatorReveals } = validatorRevealsStore.getOrThrow(ctx.state, EMPTY_KEY);
    const encoded = blockAssets.getAsset(RANDOM_MODULE_NAME);
    if (encoded === undefined) {
      throw new InvalidParamsError('Block asset is missing.');
    }
    const { seedReveal } = codec.decode<RandomAsset>(randomAssetSchema, encoded);
    return isSeedRevealValidAgainst(generatorAddress, seedReveal, validatorReveals, false);
  }

  /**
   * LIP 0046 getRandomBytes: the 16-byte seed of `numberOfSeeds` heights starting at `height`
   * (see computeRandomSeed for the rule and its errors).
   */
  getRandomBytes(ctx: ReadContext, height: number, numberOfSeeds: number): Buffer {
    const { validatorReveals } = validatorRevealsStore.getOrThrow(ctx.state, EMPTY_KEY);
    return computeRandomSeed(height, numberOfSeeds, validatorReveals);
  }
}
