/**
 * The hello module: a custom state-machine module (the module of lisk-sdk's "hello world"
 * tutorial) built on Basalt's module framework. Anyone can send `hello:createHello` with a
 * message; the chain keeps each sender's latest message and a count, and emits `newHello`.
 * It has no genesis asset: a chain can add it at any height without a new genesis block.
 */
import type { Command, EndpointHandler, Module, ModuleInitArgs, ModuleMetadata, Schema } from '../../../src/plugins/index.js';
import { DEFAULT_HELLO_CONFIG, parseHelloConfig, type HelloConfig } from './config.js';
import { CreateHelloCommand } from './create-hello-command.js';
import { createHelloEndpoints } from './endpoints.js';
import { newHelloEvent } from './events.js';
import { HELLO_MODULE_NAME } from './schemas.js';
import { counterStore, messageStore } from './stores.js';

export class HelloModule implements Module {
  readonly name = HELLO_MODULE_NAME;
  readonly commands: readonly Command<unknown>[];
  readonly stores = [messageStore, counterStore];
  readonly events = [newHelloEvent];
  readonly endpoints: Readonly<Record<string, EndpointHandler>> = createHelloEndpoints();
  private config: HelloConfig = DEFAULT_HELLO_CONFIG;

  constructor() {
    this.commands = [new CreateHelloCommand(() => this.config) as Command<unknown>];
  }

  /** Reads `modules.hello` (length bounds, blacklist). */
  init(args: ModuleInitArgs): void {
    this.config = parseHelloConfig(args.moduleConfig);
  }

  metadata(): ModuleMetadata {
    return {
      commands: this.commands.map((command) => ({ name: command.name, params: command.schema })),
      events: this.events.map((event) => ({ name: event.name, data: event.schema })),
      stores: this.stores.map((store) => ({ key: store.prefix.toString('hex'), data: store.schema })),
      endpoints: Object.entries(this.endpoints).map(([name, handler]) => ({
        name,
        ...(handler.request !== undefined && { request: handler.request as Schema }),
        ...(handler.response !== undefined && { response: handler.response as Schema }),
      })),
      assets: [],
    };
  }
}
