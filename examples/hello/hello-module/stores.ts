/**
 * The hello module's stores. Substore 0: sender address (20 bytes) → latest message and count;
 * substore 1: one entry under the empty key, the chain-wide counter.
 */
import { ModuleStore } from '../../../src/plugins/index.js';
import { counterStoreSchema, HELLO_MODULE_NAME, messageStoreSchema, type CounterEntry, type MessageEntry } from './schemas.js';

export const messageStore = new ModuleStore<MessageEntry>(HELLO_MODULE_NAME, 'messageStore', 0, messageStoreSchema);
export const counterStore = new ModuleStore<CounterEntry>(HELLO_MODULE_NAME, 'counterStore', 1, counterStoreSchema);

/** The counter lives under the empty key (its substore holds nothing else). */
export const COUNTER_KEY = Buffer.alloc(0);
