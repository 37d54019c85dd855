/**
 * Basalt replays the real lisk-sdk 6.1 dev chain (421 blocks) and agrees on
 * every block ID, stateRoot, eventRoot, every stored event, and the endpoint answers at the tip.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Block } from '../../src/chain/block.js';
import { eventToJSON } from '../../src/chain/event.js';
import { createConsensusEndpoints } from '../../src/rpc/endpoints/consensus-endpoints.js';
import { openChain, type OpenChain } from '../../src/node.js';
import { recordCases } from '../support/conformance-tally.js';
import { compareChainAnswers, endpointContext } from '../support/recorded-calls.js';
import { loadJsonFixture } from '../support/fixtures.js';
import {
  devBlockLines,
  devChainConfig,
  devEventsByHeight,
  devFinalState,
  devGenesisBlock,
  type RecordedCall,
} from '../support/dev-chain.js';

const GENESIS_STATE_ROOT = '293f1513a92079d937a82483a5f9f4d013e8633159851a05f7c5f30e10601050';
/** Answers that depend on the wall clock or on node settings, not on the chain. */
const CLOCK_OR_NODE_DEPENDENT = new Set(['chain_getGeneratorList', 'system_getNodeInfo']);

describe('replay of fixtures/chains/dev', () => {
  let dataPath: string;
  let chain: OpenChain;
  const lines = devBlockLines();

  beforeAll(async () => {
    dataPath = mkdtempSync(join(tmpdir(), 'basalt-dev-replay-'));
    chain = await openChain({ dataPath, config: devChainConfig(), genesisBlock: devGenesisBlock() });
  });

  afterAll(async () => {
    await chain?.close();
    rmSync(dataPath, { recursive: true, force: true });
  });

  it('executes the genesis block to the reference stateRoot, eventRoot, validatorsHash and BFT parameters', () => {
    const genesis = chain.processor.tipHeader();
    expect(genesis.height).toBe(0);
    expect(genesis.id.toString('hex')).toBe(lines[0]?.id);
    expect(chain.stateDb.root().toString('hex')).toBe(GENESIS_STATE_ROOT);
    const ranges = loadJsonFixture<{ fromHeight: number; params: unknown }[]>('chains/dev/bft_parameters.json');
    const consensus = createConsensusEndpoints(chain.bft, () => chain.stateDb.engineReader);
    const first = ranges[0] as { fromHeight: number; params: unknown };
    expect(first.fromHeight).toBe(1);
    expect(consensus.getBFTParameters?.handle(endpointContext(chain, devChainConfig().genesis.chainID, { height: 1 }))).toEqual(
      first.params,
    );
  });

  it('applies every block with identical IDs, stateRoots and eventRoots, storing exactly the reference events', async () => {
    const referenceEvents = devEventsByHeight();
    expect(chain.chainStore.getEvents(0)?.map(eventToJSON)).toEqual(referenceEvents.get(0));
    for (const line of lines.slice(1)) {
      const block = Block.fromBytes(Buffer.from(line.blockHex, 'hex'));
      expect(block.header.id.toString('hex')).toBe(line.id);
      // processBlock rejects the block unless validatorsHash, eventRoot and stateRoot all match.
      await chain.processor.processBlock(block);
      expect(chain.stateDb.root().equals(block.header.stateRoot)).toBe(true);
      expect(chain.chainStore.getEvents(line.height)?.map(eventToJSON)).toEqual(referenceEvents.get(line.height));
    }
    const final = devFinalState();
    const tip = chain.processor.tipHeader();
    expect({ height: tip.height, id: tip.id.toString('hex'), stateRoot: tip.stateRoot.toString('hex') }).toEqual({
      height: final.tip.height,
      id: final.tip.id,
      stateRoot: final.tip.stateRoot,
    });
    recordCases('chains/dev/blocks.ndjson', lines.length);
    recordCases('chains/dev/events.ndjson', referenceEvents.size);
  });

  it('keeps the BFT parameter sets of the reference node', () => {
    const ranges = loadJsonFixture<{ fromHeight: number; toHeight: number; params: unknown }[]>('chains/dev/bft_parameters.json');
    const consensus = createConsensusEndpoints(chain.bft, () => chain.stateDb.engineReader);
    const tipHeight = chain.processor.tipHeader().height;
    for (const range of ranges) {
      // Older sets are pruned once certified, as in lisk-sdk; the sets still in force must match.
      if (range.toHeight < tipHeight - 2 * 103) continue;
      expect(
        consensus.getBFTParameters?.handle(endpointContext(chain, devChainConfig().genesis.chainID, { height: range.toHeight })),
      ).toEqual(range.params);
    }
  });

  it('answers every chain-determined final_state.json call exactly as lisk-sdk did', async () => {
    const final = devFinalState();
    const calls: RecordedCall[] = [...Object.values(final.perAddress).flat(), ...final.global];
    const { mismatches, compared } = await compareChainAnswers(chain, devChainConfig().genesis.chainID, calls, CLOCK_OR_NODE_DEPENDENT);
    expect(mismatches).toEqual([]);
    expect(compared).toBeGreaterThan(1300);
    recordCases('chains/dev/final_state.json', compared);
  });
});
