/**
 * The interop-dev pair (test/fixtures/chains/interop-dev/{mainchain,sidechain}, two lisk-sdk 6.1
 * chains relaying to each other with lisk's chain connector 0.2.0) as the chain connector's
 * tests read it: blocks, events, BFT validators (as consensus_getBFTParametersActiveValidators
 * answers them: weight 0 left out), keys, config, and the CCUs each chain included.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Block } from '../../src/chain/block.js';
import type { EventProps } from '../../src/chain/event.js';
import type { Transaction } from '../../src/chain/transaction.js';
import { codec } from '../../src/codec/index.js';
import { decodeLisk32 } from '../../src/crypto/lisk32.js';
import { crossChainUpdateParamsSchema } from '../../src/modules/interoperability/schemas.js';
import type { CcuParams, ValidatorsData } from '../../src/plugins/chain-connector/ccu-builder.js';
import { fixturePath } from './fixtures.js';
import { interopChainDir, interopNdjson } from './interop-chain.js';

export const INTEROP_DEV_DIR = fixturePath('chains/interop-dev');
export type InteropDevSide = 'mainchain' | 'sidechain';

export interface RecordedChain {
  readonly side: InteropDevSide;
  readonly chainID: Buffer;
  readonly blocks: Map<number, Block>;
  readonly events: Map<number, EventProps[]>;
  /** Per BFT parameters range: its validators data and the heights it applies to. */
  readonly bft: { fromHeight: number; toHeight: number; data: ValidatorsData }[];
  readonly config: { genesis: { chainID: string }; plugins: { chainConnector: Record<string, unknown> } };
  readonly keys: { relayer: { privateKey: string; publicKey: string } };
  readonly trace: { ccus: { height: number; txID: string; success: boolean; sendingChainID: string }[] };
  readonly finalState: { chainConnector: { method: string; result: unknown }[] };
}

const json = <T>(file: string) => JSON.parse(readFileSync(file, 'utf8')) as T;

export function loadRecordedChain(side: InteropDevSide): RecordedChain {
  const dir = interopChainDir(side);
  const blocks = new Map<number, Block>();
  for (const { height, blockHex } of interopNdjson<{ height: number; blockHex: string }>(side, 'blocks.ndjson')) {
    blocks.set(height, Block.fromBytes(Buffer.from(blockHex, 'hex')));
  }
  const events = new Map<number, EventProps[]>();
  for (const line of interopNdjson<{ height: number; events: Record<string, unknown>[] }>(side, 'events.ndjson')) {
    events.set(
      line.height,
      line.events.map((event) => ({
        module: event.module as string,
        name: event.name as string,
        data: Buffer.from(event.data as string, 'hex'),
        topics: (event.topics as string[]).map((topic) => Buffer.from(topic, 'hex')),
        height: line.height,
        index: event.index as number,
      })),
    );
  }
  const bft = json<
    {
      fromHeight: number;
      toHeight: number;
      params: {
        validators: { address: string; bftWeight: string; blsKey: string }[];
        certificateThreshold: string;
        validatorsHash: string;
      };
    }[]
  >(join(dir, 'bft_parameters.json')).map(({ fromHeight, toHeight, params }) => ({
    fromHeight,
    toHeight,
    data: {
      certificateThreshold: BigInt(params.certificateThreshold),
      validatorsHash: Buffer.from(params.validatorsHash, 'hex'),
      validators: params.validators
        .filter((validator) => validator.bftWeight !== '0')
        .map((validator) => ({
          address: decodeLisk32(validator.address),
          blsKey: Buffer.from(validator.blsKey, 'hex'),
          bftWeight: BigInt(validator.bftWeight),
        })),
    },
  }));
  const config = json<RecordedChain['config']>(join(dir, 'config.json'));
  return {
    side,
    chainID: Buffer.from(config.genesis.chainID, 'hex'),
    blocks,
    events,
    bft,
    config,
    keys: json(join(dir, 'keys.json')),
    trace: json(join(dir, 'interop_trace.json')),
    finalState: json(join(dir, 'final_state.json')),
  };
}

/** The validators data of the first BFT parameters with `validatorsHash` (what a relayer records first). */
export function validatorsDataOf(chain: RecordedChain, validatorsHash: Buffer): ValidatorsData | undefined {
  return chain.bft.find((range) => range.data.validatorsHash.equals(validatorsHash))?.data;
}

/** The BFT parameters in force at `height`. */
export function bftAt(chain: RecordedChain, height: number): ValidatorsData {
  const range = chain.bft.find((entry) => entry.fromHeight <= height && height <= entry.toHeight);
  if (range === undefined) throw new Error(`no BFT parameters recorded at height ${height}`);
  return range.data;
}

export interface IncludedCcu {
  readonly height: number;
  readonly success: boolean;
  readonly transaction: Transaction;
  readonly params: CcuParams;
}

/** The CCUs `receiving` included from `sending`, in order, decoded. */
export function includedCcus(receiving: RecordedChain, sending: RecordedChain): IncludedCcu[] {
  const outcome = new Map(receiving.trace.ccus.map((ccu) => [ccu.txID, ccu.success]));
  const found: IncludedCcu[] = [];
  for (const [height, block] of [...receiving.blocks].sort((a, b) => a[0] - b[0])) {
    for (const transaction of block.transactions) {
      if (transaction.module !== 'interoperability' || !transaction.command.endsWith('CrossChainUpdate')) continue;
      const params = codec.decode<CcuParams>(crossChainUpdateParamsSchema, transaction.params);
      if (!params.sendingChainID.equals(sending.chainID)) continue;
      const success = outcome.get(transaction.id.toString('hex'));
      if (success === undefined) throw new Error(`CCU ${transaction.id.toString('hex')} is not in the trace`);
      found.push({ height, success, transaction, params });
    }
  }
  return found;
}
