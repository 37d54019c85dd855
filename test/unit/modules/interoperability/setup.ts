/**
 * Shared setup of the interoperability tests: the module wired to the REAL token and fee modules
 * (as the mainchain application wires them), initialised with the dev chain's config, over a
 * ModuleHarness whose genesis ran the dev chain's interoperability asset.
 */
import { codec, type Schema } from '../../../../src/codec/index.js';
import type { GenesisConfig } from '../../../../src/config/genesis-config.js';
import type { ExecutionTransaction } from '../../../../src/modules/base/index.js';
import { FeeModule } from '../../../../src/modules/fee/index.js';
import { InteroperabilityModule } from '../../../../src/modules/interoperability/index.js';
import { TokenModule } from '../../../../src/modules/token/index.js';
import { loadJsonFixture } from '../../../support/fixtures.js';
import { ModuleHarness } from '../../../support/module-harness.js';

export const GENESIS_TIMESTAMP = 1_795_323_732;
export const OWN_CHAIN_ID = Buffer.from('04000000', 'hex');
export const LSK_TOKEN_ID = Buffer.from('0400000000000000', 'hex');
/** lisk-sdk CONTEXT_STORE_KEY_AVAILABLE_FEE: what the fee module lets commands spend. */
export const AVAILABLE_FEE_KEY = 'CONTEXT_STORE_KEY_AVAILABLE_FEE';

export const devGenesisConfig: GenesisConfig = {
  chainID: OWN_CHAIN_ID,
  blockTime: 3,
  bftBatchSize: 103,
  maxTransactionsSize: 15360,
  minimumCertifyHeight: 1,
};

interface DevConfig {
  modules: Record<string, Record<string, unknown>>;
}
interface GenesisAssetsFile {
  assets: { module: string; data: Record<string, unknown>; schema: Schema }[];
}

export function devInteroperabilityAsset(): { data: Record<string, unknown>; schema: Schema; bytes: Buffer } {
  const file = loadJsonFixture<GenesisAssetsFile>('chains/dev/genesis_assets.json');
  const entry = file.assets.find((asset) => asset.module === 'interoperability');
  if (entry === undefined) throw new Error('genesis_assets.json has no interoperability asset');
  // The file writes the uint64 ownChainNonce as the number 0 (lisk-commander's lenient fromJSON
  // takes it); Basalt's strict fromJSON wants the codec JSON form, a decimal string.
  const json = { ...entry.data, ownChainNonce: String(entry.data.ownChainNonce) };
  const bytes = codec.encode(entry.schema, codec.fromJSON(entry.schema, json));
  return { data: entry.data, schema: entry.schema, bytes };
}

export function createModules() {
  const config = loadJsonFixture<DevConfig>('chains/dev/config.json');
  const token = new TokenModule();
  const fee = new FeeModule({ token: token.method });
  const interoperability = new InteroperabilityModule();
  token.addDependencies({ fee: fee.method, interoperability: interoperability.method });
  interoperability.addDependencies({ token: token.method, fee: fee.method });
  token.init({ genesisConfig: devGenesisConfig, moduleConfig: config.modules.token ?? {} });
  fee.init({ genesisConfig: devGenesisConfig, moduleConfig: config.modules.fee ?? {} });
  return { token, fee, interoperability };
}

/** A harness whose genesis ran the dev interoperability asset; the next block (height 1) is open. */
export function setupAfterDevGenesis() {
  const modules = createModules();
  const harness = new ModuleHarness({ header: { height: 0, timestamp: GENESIS_TIMESTAMP } });
  harness.assets.set('interoperability', devInteroperabilityAsset().bytes);
  modules.interoperability.initGenesisState(harness.genesisContext());
  modules.interoperability.finalizeGenesisState(harness.genesisContext('finalize'));
  harness.commit({ height: 1, timestamp: GENESIS_TIMESTAMP + 7 });
  return { ...modules, harness };
}

/** A transaction as commands see it; only `fee` and `id` matter to interoperability. */
export function fakeTransaction(fee: bigint, command = 'registerSidechain'): ExecutionTransaction {
  return {
    module: 'interoperability',
    command,
    nonce: 0n,
    fee,
    senderPublicKey: Buffer.alloc(32, 1),
    params: Buffer.alloc(0),
    signatures: [],
    id: Buffer.alloc(32, 0x11),
    size: 200,
    senderAddress: () => Buffer.alloc(20, 0x22),
    signingBytes: () => Buffer.alloc(0),
  };
}

/** Events of the harness's block in a comparable form. */
export function blockEvents(harness: ModuleHarness) {
  return harness.events.events().map((event) => ({
    module: event.module,
    name: event.name,
    data: event.data.toString('hex'),
    topics: event.topics.map((topic) => topic.toString('hex')),
  }));
}

// ---- independent protobuf-style encoding for expected bytes (lisk-codec wire format) ----

export function varint(value: bigint | number): Buffer {
  let n = BigInt(value);
  const out: number[] = [];
  do {
    let byte = Number(n & 0x7fn);
    n >>= 7n;
    if (n > 0n) byte |= 0x80;
    out.push(byte);
  } while (n > 0n);
  return Buffer.from(out);
}

export function bytesField(fieldNumber: number, value: Buffer | string): Buffer {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  return Buffer.concat([varint((fieldNumber << 3) | 2), varint(bytes.length), bytes]);
}

export function varintField(fieldNumber: number, value: bigint | number | boolean): Buffer {
  return Buffer.concat([varint(fieldNumber << 3), varint(typeof value === 'boolean' ? Number(value) : value)]);
}
