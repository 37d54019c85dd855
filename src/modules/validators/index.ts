/**
 * The validators module (LIP 0044; lisk-sdk framework/src/modules/validators): keeps every
 * validator's generator and BLS keys and the validator set given to BFT. It has no commands,
 * hooks or genesis asset of its own: PoS (and legacy) drive it through `method`.
 */
import type { ModuleInitArgs } from '../../config/genesis-config.js';
import type { Command, EndpointHandler, Module, ModuleEvent, ModuleMetadata, ModuleStore } from '../base/index.js';
import { moduleMetadata } from '../base/index.js';
import { VALIDATORS_MODULE_NAME } from './constants.js';
import { validatorsEndpoints } from './endpoint.js';
import { validatorsEvents } from './events.js';
import { ValidatorsMethod } from './method.js';
import { validatorsStores } from './stores.js';

export class ValidatorsModule implements Module {
  readonly name = VALIDATORS_MODULE_NAME;
  readonly commands: readonly Command<unknown>[] = [];
  readonly stores: readonly ModuleStore<object>[] = validatorsStores;
  readonly events: readonly ModuleEvent<object>[] = validatorsEvents;
  readonly method = new ValidatorsMethod();
  readonly endpoints: Readonly<Record<string, EndpointHandler>> = validatorsEndpoints(() => this.method.proofOfPossessionChecks());

  /** Takes the slot length (genesisConfig.blockTime); the module has no config of its own. */
  init(args: ModuleInitArgs): void {
    this.method.init({ blockTime: args.genesisConfig.blockTime });
  }

  /** The module's `system_getMetadata` entry (without `name`), as lisk-sdk's ValidatorsModule.metadata(). */
  metadata(): ModuleMetadata {
    return moduleMetadata(this, []);
  }
}

export { ValidatorsMethod } from './method.js';
export type { NextValidatorsSetter, WeightedValidator } from './method.js';
export { POP_CHECKS_ON_THIS_THREAD, type ProofOfPossessionChecks } from './pop-checks.js';
export * from './constants.js';
export * from './stores.js';
export * from './events.js';
