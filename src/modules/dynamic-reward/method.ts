/** The methods other modules call on the dynamic reward module (lisk-sdk DynamicRewardMethod). */
import type { ReadContext } from '../base/index.js';
import type { DynamicRewardConfig } from './config.js';
import { calculateDefaultReward } from './reward.js';
import { InvariantError } from '../../errors.js';

export class DynamicRewardMethod {
  private config: DynamicRewardConfig | undefined;

  /** Called by the module's init once its config is parsed. */
  init(config: DynamicRewardConfig): void {
    this.config = config;
  }

  /** LIP 0071 default reward at `height` (no reductions, no validator weighting). */
  getDefaultRewardAtHeight(_ctx: ReadContext, height: number): bigint {
    return calculateDefaultReward(this.requireConfig(), height);
  }

  private requireConfig(): DynamicRewardConfig {
    if (this.config === undefined) throw new InvariantError('The dynamicReward module is used before init().');
    return this.config;
  }
}
