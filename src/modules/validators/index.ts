/**
 * The validators module (LIP 0044; lisk-sdk framework/src/modules/validators): keeps every
 * validator's generator and BLS keys and the validator set given to BFT. It has no commands,
 * hooks or genesis asset of its own: PoS (and legacy) drive it through `method`.
 */
import type { Schema } from '../../codec/index.js';
import type { ModuleInitArgs } from '../../config/genesis-config.js';
import type { Command, EndpointHandler, Module, ModuleEvent, ModuleMetadata, ModuleStore } from '../base/index.js';
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
  readonly endpoints: Readonly<Record<string, EndpointHandler>> = validatorsEndpoints;
  readonly method = new ValidatorsMethod();

  /** Takes the slot length (genesisConfig.blockTime); the module has no config of its own. */
  init(args: ModuleInitArgs): void {
    this.method.init({ blockTime: args.genesisConfig.blockTime });
  }

  /** The module's `system_getMetadata` entry (without `name`), as lisk-sdk's ValidatorsModule.metadata(). */
  metadata(): ModuleMetadata {
    // Key order as lisk-sdk builds it, so that the serialized JSON matches too.
    return {
      commands: [],
      events: this.events.map((event) => ({ name: event.name, data: event.schema })),
      stores: this.stores.map((store) => ({ key: store.prefix.toString('hex'), data: store.schema })),
      endpoints: Object.entries(this.endpoints).map(([name, handler]) => ({
        name,
        request: handler.request as Schema,
        response: handler.response as Schema,
      })),
      assets: [],
    };
  }
}

export { ValidatorsMethod } from './method.js';
export type { NextValidatorsSetter, WeightedValidator } from './method.js';
export * from './constants.js';
export * from './stores.js';
export * from './events.js';
