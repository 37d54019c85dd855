/**
 * Shared set-up for the token module tests: a token module wired to the REAL fee module (token
 * and fee depend on each other), the dev chain's genesis token asset, a minimal transaction
 * runner that drives the fee hooks and a command the way lisk-sdk's state machine does
 * (state_machine.ts executeTransaction), and an in-test interoperability method.
 */
import { codec } from '../../../../src/codec/index.js';
import { Transaction } from '../../../../src/chain/transaction.js';
import { silentLogger } from '../../../../src/logger.js';
import type {
  Command,
  CrossChainMessage,
  EndpointHandler,
  MethodContext,
  ReadContext,
  VerificationResult,
} from '../../../../src/modules/base/index.js';
import { VerifyStatus } from '../../../../src/modules/base/index.js';
import { FeeModule } from '../../../../src/modules/fee/index.js';
import { TokenModule, type InteroperabilityMethod } from '../../../../src/modules/token/index.js';
import type { StateReader } from '../../../../src/state/state-view.js';
import { readFileSync } from 'node:fs';
import { fixturePath, loadJsonFixture } from '../../../support/fixtures.js';
import { DEV_CHAIN_ID, makeHeader, ModuleHarness, testGenesisConfig } from '../../../support/module-harness.js';

export interface DevConfig {
  modules: Record<string, Record<string, unknown>>;
}

export const devConfig = loadJsonFixture<DevConfig>('chains/dev/config.json');

/** One JSON value per non-empty line. */
export function loadNdjsonFixture<T>(relativePath: string): T[] {
  return readFileSync(fixturePath(relativePath), 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as T);
}

export const LSK_TOKEN_ID = Buffer.from('0400000000000000', 'hex');

/** A token module and the real fee module, wired to each other and initialised with the dev config. */
export function createTokenAndFee(tokenConfig: Record<string, unknown> = devConfig.modules.token ?? {}): {
  token: TokenModule;
  fee: FeeModule;
} {
  const token = new TokenModule();
  const fee = new FeeModule({ token: token.method });
  token.addDependencies({ fee: fee.method });
  token.init({ genesisConfig: testGenesisConfig, moduleConfig: tokenConfig });
  fee.init({ genesisConfig: testGenesisConfig, moduleConfig: devConfig.modules.fee ?? {} });
  return { token, fee };
}

/** The token asset bytes of the dev genesis block (genesis_block.json, = genesis_block.blob). */
export function devGenesisTokenAsset(): Buffer {
  const block = loadJsonFixture<{ assets: { module: string; data: string }[] }>('chains/dev/genesis_block.json');
  const asset = block.assets.find((entry) => entry.module === 'token');
  if (asset === undefined) throw new Error('dev genesis block has no token asset');
  return Buffer.from(asset.data, 'hex');
}

/** A harness whose committed state is the dev genesis token state. */
export function devGenesisHarness(token: TokenModule): ModuleHarness {
  const harness = new ModuleHarness({ header: { height: 0 } });
  harness.assets.set('token', devGenesisTokenAsset());
  token.initGenesisState(harness.genesisContext());
  harness.commit();
  return harness;
}

export function methodContext(harness: ModuleHarness): MethodContext {
  return { state: harness.state, events: harness.events, contextStore: harness.contextStore };
}

export function commandOf(token: TokenModule, name: string): Command<unknown> {
  const command = token.commands.find((entry) => entry.name === name);
  if (command === undefined) throw new Error(`no command ${name}`);
  return command;
}

/** Plain JSON form of the events added so far (what chain_getEvents shows, without index/height). */
export function eventsJSON(harness: ModuleHarness): { module: string; name: string; data: string; topics: string[] }[] {
  return harness.events.events().map((event) => ({
    module: event.module,
    name: event.name,
    data: event.data.toString('hex'),
    topics: event.topics.map((topic) => topic.toString('hex')),
  }));
}

export interface TransactionOutcome {
  verify: VerificationResult;
  success?: boolean;
  error?: unknown;
}

/**
 * Verifies and executes one transaction like lisk-sdk's state machine with the fee module as
 * the only module with transaction hooks: fee.verifyTransaction, command.verify, then
 * fee.beforeCommandExecute, the command (state and events rolled back if it throws),
 * fee.afterCommandExecute and the engine's `commandExecutionResult` event.
 */
export function runTransaction(harness: ModuleHarness, token: TokenModule, fee: FeeModule, tx: Transaction): TransactionOutcome {
  const command = commandOf(token, tx.command);
  const params = codec.decode(command.schema, tx.params);
  const feeVerify = fee.verifyTransaction(harness.transactionVerifyContext(tx));
  if (feeVerify.status !== VerifyStatus.OK) return { verify: feeVerify };
  const verify = command.verify?.(harness.commandVerifyContext(tx, params)) as VerificationResult | undefined;
  if (verify !== undefined && verify.status !== VerifyStatus.OK) return { verify };

  fee.beforeCommandExecute(harness.transactionExecuteContext(tx));
  const stateSnapshot = harness.state.snapshot();
  const eventSnapshot = harness.events.snapshot();
  let success = true;
  let error: unknown;
  try {
    command.execute(harness.commandExecuteContext(tx, params));
  } catch (caught) {
    success = false;
    error = caught;
    harness.state.restore(stateSnapshot);
    harness.events.restore(eventSnapshot);
  }
  fee.afterCommandExecute(harness.transactionExecuteContext(tx));
  harness.transactionExecuteContext(tx).events.add(tx.module, 'commandExecutionResult', Buffer.from([0x08, success ? 1 : 0]));
  return { verify: verify ?? { status: VerifyStatus.OK }, success, error };
}

export function transactionFromHex(hex: string): Transaction {
  return Transaction.fromBytes(Buffer.from(hex, 'hex'));
}

/** Calls an endpoint handler the way the RPC layer does (params already validated). */
export function callEndpoint(
  handler: EndpointHandler | undefined,
  state: StateReader,
  params: Record<string, unknown> = {},
  chainID: Buffer = DEV_CHAIN_ID,
): unknown {
  if (handler === undefined) throw new Error('no such endpoint');
  return handler.handle({ state, chainID, logger: silentLogger, header: makeHeader(), params });
}

/**
 * An interoperability method for tests of the cross-chain command: channels are a map from
 * chain ID to message fee token (a missing channel throws lisk-sdk's "Channel does not exist."),
 * and `send` records the message instead of writing the outbox.
 */
export class RecordingInteroperability implements InteroperabilityMethod {
  readonly sent: {
    feeAddress: Buffer;
    module: string;
    crossChainCommand: string;
    receivingChainID: Buffer;
    fee: bigint;
    parameters: Buffer;
    timestamp: number | undefined;
  }[] = [];

  constructor(private readonly channels: ReadonlyMap<string, Buffer>) {}

  getMessageFeeTokenID(_context: ReadContext, chainID: Buffer): Buffer {
    const tokenID = this.channels.get(chainID.toString('hex'));
    if (tokenID === undefined) throw new Error('Channel does not exist.');
    return tokenID;
  }

  /** As the interoperability module: the fee token of the channel to the message's sending chain. */
  getMessageFeeTokenIDFromCCM(context: ReadContext, ccm: CrossChainMessage): Buffer {
    return this.getMessageFeeTokenID(context, ccm.sendingChainID);
  }

  send(
    _context: MethodContext,
    feeAddress: Buffer,
    module: string,
    crossChainCommand: string,
    receivingChainID: Buffer,
    fee: bigint,
    parameters: Buffer,
    timestamp?: number,
  ): void {
    this.sent.push({ feeAddress, module, crossChainCommand, receivingChainID, fee, parameters, timestamp });
  }
}
