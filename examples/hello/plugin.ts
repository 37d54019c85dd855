/**
 * The hello example as a Basalt plugin (src/plugins/README.md). Listed in the config as
 * `plugins.helloFeed`, this one file:
 *   - adds the custom `hello` module to the state machine (`modules`), so the chain accepts
 *     `hello:createHello` transactions and serves `hello_getHello` / `hello_getHelloCounter`;
 *   - serves its own RPC methods: `helloFeed_getLatestHellos` (public) and
 *     `helloFeed_clearHistory` (sensitive: -32002 unless rpc.allowedMethods allows it);
 *   - watches `chain_newBlock` and publishes each hello as the event `helloFeed_newHello`.
 */
import { definePlugin, InvalidParamsError, type PluginContext } from '../../src/plugins/index.js';
import { HelloFeed, type FeedEntry } from './hello-feed.js';
import { HelloModule } from './hello-module/index.js';

interface HelloFeedOptions {
  /** Most hellos the feed keeps (default 50). */
  readonly historySize?: number;
  /** Blocks read back from the tip at start to fill the feed (default 100). */
  readonly backfillBlocks?: number;
  readonly [key: string]: unknown;
}

let feed = new HelloFeed(50);
const unsubscribes: (() => void)[] = [];

function positiveInteger(value: unknown, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || (value as number) < 1)
    throw new InvalidParamsError(`plugins.helloFeed.${name} must be a positive integer.`);
  return value as number;
}

/** The hellos of the block at `height`, read from the chain store. */
function hellosAt(context: PluginContext<HelloFeedOptions>, height: number): FeedEntry[] {
  return HelloFeed.hellosIn(context.chain.getEvents(height) ?? []);
}

export default definePlugin<HelloFeedOptions>({
  name: 'helloFeed',

  modules: () => [new HelloModule()],

  events: ['newHello'],

  endpoints: {
    getLatestHellos: {
      request: {
        type: 'object',
        properties: { limit: { type: 'integer', minimum: 1, maximum: 100 } },
      },
      handle: (params) => ({ hellos: feed.latest((params.limit as number | undefined) ?? 10) }),
    },
    clearHistory: {
      sensitive: true,
      handle: () => ({ cleared: feed.clear() }),
    },
  },

  load(context) {
    const { options, chain } = context;
    feed = new HelloFeed(positiveInteger(options.historySize, 50, 'historySize'));
    const tip = chain.tipHeight();
    const from = Math.max(chain.genesisHeight() + 1, tip - positiveInteger(options.backfillBlocks, 100, 'backfillBlocks') + 1);
    for (let height = from; height <= tip; height += 1) feed.add(hellosAt(context, height));

    unsubscribes.push(
      context.subscribe('chain_newBlock', (_event, data) => {
        const { height } = (data as { blockHeader: { height: number } }).blockHeader;
        const hellos = hellosAt(context, height);
        feed.add(hellos);
        for (const hello of hellos) context.publish('newHello', hello);
      }),
      context.subscribe('chain_deleteBlock', (_event, data) => {
        feed.dropFrom((data as { blockHeader: { height: number } }).blockHeader.height);
      }),
    );
    context.logger.info({ hellos: feed.size }, 'helloFeed ready');
  },

  unload() {
    for (const unsubscribe of unsubscribes.splice(0)) unsubscribe();
  },
});
