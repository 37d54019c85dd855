import { ModuleEvent } from '../../../src/plugins/index.js';
import { HELLO_MODULE_NAME, newHelloEventSchema, type NewHelloData } from './schemas.js';

/** Emitted by createHello, with the sender's address as a topic so it can be looked up by sender. */
export const newHelloEvent = new ModuleEvent<NewHelloData>(HELLO_MODULE_NAME, 'newHello', newHelloEventSchema);
