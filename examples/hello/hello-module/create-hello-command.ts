/**
 * `hello:createHello`: stores the sender's message, counts it (per sender and chain-wide) and
 * emits `newHello`. verify refuses a message outside the configured length bounds or containing
 * a blacklisted word, so such a transaction never enters the pool or a block.
 */
import {
  VERIFY_OK,
  verifyFail,
  type Command,
  type CommandExecuteContext,
  type CommandVerifyContext,
  type VerificationResult,
} from '../../../src/plugins/index.js';
import type { HelloConfig } from './config.js';
import { newHelloEvent } from './events.js';
import { createHelloParamsSchema, type CreateHelloParams } from './schemas.js';
import { COUNTER_KEY, counterStore, messageStore } from './stores.js';

export class CreateHelloCommand implements Command<CreateHelloParams> {
  readonly name = 'createHello';
  readonly schema = createHelloParamsSchema;

  constructor(private readonly config: () => HelloConfig) {}

  verify(context: CommandVerifyContext<CreateHelloParams>): VerificationResult {
    const { message } = context.params;
    const { minMessageLength, maxMessageLength, blacklist } = this.config();
    if (message.length < minMessageLength) return verifyFail(`The hello message must have at least ${minMessageLength} characters.`);
    if (message.length > maxMessageLength) return verifyFail(`The hello message must have at most ${maxMessageLength} characters.`);
    const lower = message.toLowerCase();
    const banned = blacklist.find((word) => lower.includes(word));
    if (banned !== undefined) return verifyFail(`The hello message contains the blacklisted word "${banned}".`);
    return VERIFY_OK;
  }

  execute(context: CommandExecuteContext<CreateHelloParams>): void {
    const { message } = context.params;
    const sender = context.transaction.senderAddress();
    const previous = messageStore.get(context.state, sender);
    messageStore.set(context.state, sender, { message, count: (previous?.count ?? 0) + 1 });
    const total = counterStore.get(context.state, COUNTER_KEY)?.counter ?? 0n;
    counterStore.set(context.state, COUNTER_KEY, { counter: total + 1n });
    newHelloEvent.emit(context.events, { senderAddress: sender, message }, [sender]);
  }
}
