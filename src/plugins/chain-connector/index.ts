/**
 * The chain connector (relayer) as a built-in plugin, off by default: the config's
 * `plugins.chainConnector` section (Lisk Core's settings of
 * @liskhq/lisk-framework-chain-connector-plugin, no `path`) or `basalt start
 * --enable-chain-connector-plugin` turns it on. It relays this chain's certificates and
 * cross-chain messages to the receiving chain as CCUs and serves `chainConnector_*`. See
 * src/plugins/README.md ("The chain connector").
 */
import { InvariantError } from '../../errors.js';
import { type BasaltPlugin, definePlugin } from '../plugin.js';
import { CHAIN_CONNECTOR_PASSWORD_ENV, readChainConnectorConfig } from './connector-config.js';
import { ConnectorStore } from './connector-store.js';
import { chainConnectorEndpoints } from './endpoints.js';
import { openIpcConnection, openWsConnection, ReceivingChain } from './receiving-chain.js';
import { ChainConnector } from './relayer.js';

export const CHAIN_CONNECTOR_PLUGIN_NAME = 'chainConnector';

export interface ChainConnectorSetup {
  /** The node's data directory: the relayer's store lives under it. */
  readonly dataPath: string;
}

interface NewBlockData {
  blockHeader?: { height?: unknown };
}

function heightOf(data: unknown): number | undefined {
  const height = (data as NewBlockData | undefined)?.blockHeader?.height;
  return typeof height === 'number' ? height : undefined;
}

export function createChainConnectorPlugin(setup: ChainConnectorSetup): BasaltPlugin {
  let connector: ChainConnector | undefined;
  let store: ConnectorStore | undefined;
  let receiving: ReceivingChain | undefined;
  const stops: (() => void)[] = [];
  const running = () => {
    if (connector === undefined) throw new InvariantError('The chain connector is not loaded.');
    return connector;
  };
  return definePlugin({
    name: CHAIN_CONNECTOR_PLUGIN_NAME,
    endpoints: chainConnectorEndpoints(running),
    async load(context) {
      const config = readChainConnectorConfig(context.options, context.chain.chainID);
      const where = config.receivingChainIPCPath ?? (config.receivingChainWsURL as string);
      const open = config.receivingChainIPCPath !== undefined ? () => openIpcConnection(where) : () => openWsConnection(where);
      store = ConnectorStore.open(setup.dataPath);
      receiving = new ReceivingChain(open, where, context.logger);
      connector = new ChainConnector(
        config,
        store,
        {
          chainID: context.chain.chainID,
          tipHeight: () => context.chain.tipHeight(),
          header: (height) => context.chain.getHeaderByHeight(height),
          events: (height) => context.chain.getEvents(height),
          invoke: (method, params) => context.invoke(method, params),
        },
        receiving,
        context.logger,
      );
      const password = process.env[CHAIN_CONNECTOR_PASSWORD_ENV];
      if (password !== undefined && password !== '') await connector.authorize(password, true);
      const relayer = connector;
      stops.push(
        context.subscribe('chain_newBlock', (_event, data) => {
          const height = heightOf(data);
          if (height !== undefined) void relayer.newBlock(height);
        }),
        context.subscribe('chain_deleteBlock', (_event, data) => {
          const height = heightOf(data);
          if (height !== undefined) void relayer.deleteBlock(height);
        }),
      );
      context.logger.info(
        { receivingChainID: config.receivingChainID.toString('hex'), receivingChain: where, keyEnabled: connector.keyEnabled },
        'Chain connector started',
      );
      // The first connection attempt runs in the background: a receiving chain that is down never delays the start.
      void receiving.connection();
    },
    async unload() {
      for (const stop of stops.splice(0)) stop();
      await connector?.idle();
      receiving?.close();
      await store?.close();
      connector = undefined;
    },
  });
}
