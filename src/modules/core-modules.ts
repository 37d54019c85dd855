/**
 * The modules a mainchain and a sidechain of lisk-sdk 6.1's default application share (auth,
 * validators, token, fee, random, pos, dynamicReward), wired to each other's methods. Each chain
 * kind adds its own interoperability module and wires it in (mainchain.ts, sidechain.ts).
 */
import { AuthModule } from './auth/index.js';
import { DynamicRewardModule } from './dynamic-reward/index.js';
import { FeeModule } from './fee/index.js';
import { PosModule } from './pos/index.js';
import type { HashOnionSource, HashOnionStore } from './random/index.js';
import { RandomModule } from './random/index.js';
import { TokenModule } from './token/index.js';
import { ValidatorsModule } from './validators/index.js';

export interface CoreModulesOptions {
  readonly hashOnionStore?: HashOnionStore;
  readonly hashOnionSource?: HashOnionSource;
}

export interface CoreModules {
  readonly auth: AuthModule;
  readonly validators: ValidatorsModule;
  readonly token: TokenModule;
  readonly fee: FeeModule;
  readonly random: RandomModule;
  readonly pos: PosModule;
  readonly dynamicReward: DynamicRewardModule;
}

export function createCoreModules(options: CoreModulesOptions): CoreModules {
  const auth = new AuthModule();
  const validators = new ValidatorsModule();
  const token = new TokenModule();
  const fee = new FeeModule({ token: token.method });
  const random = new RandomModule({ hashOnionStore: options.hashOnionStore, hashOnionSource: options.hashOnionSource });
  const pos = new PosModule({ token: token.method, validators: validators.method, random: random.method, fee: fee.method });
  const dynamicReward = new DynamicRewardModule({
    token: token.method,
    random: random.method,
    validators: validators.method,
    pos: pos.method,
  });
  return { auth, validators, token, fee, random, pos, dynamicReward };
}
