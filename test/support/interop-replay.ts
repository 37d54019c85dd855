/**
 * The replay suite of one chain of the interop-dev pair (test/fixtures/chains/interop-dev): every
 * block with the recorded ID, stateRoot, eventRoot and events, the BFT parameter sets still in
 * force, then every chain-determined answer of final_state.json at the tip (per address, global,
 * and the interoperability_* answers per chain ID). Both replay test files run it, one per chain.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventToJSON } from '../../src/chain/event.js';
import { openChain, type OpenChain } from '../../src/node.js';
import { createConsensusEndpoints } from '../../src/rpc/endpoints/consensus-endpoints.js';
import { recordCases } from './conformance-tally.js';
import {
  formatDivergence,
  interopBlockLines,
  interopChainConfig,
  interopChainDir,
  interopEventsByHeight,
  interopFinalState,
  interopGenesisBlock,
  replayInteropBlocks,
  type InteropChainName,
  type ReplayDivergence,
} from './interop-chain.js';
import { loadJsonFixture } from './fixtures.js';
import { compareChainAnswers, endpointContext } from './recorded-calls.js';

/** Answers that depend on the wall clock, the node or its pool, not on the chain. */
const CLOCK_OR_NODE_DEPENDENT = new Set(['chain_getGeneratorList', 'system_getNodeInfo', 'txpool_getTransactionsFromPool']);

/** Registers the replay suite of `name`. */
export function describeInteropReplay(name: InteropChainName, minimumCompared: number): void {
  const fixtureDir = `chains/interop-dev/${name}`;
  describe(`replay of fixtures/${fixtureDir}`, () => {
    const lines = interopBlockLines(name);
    const config = interopChainConfig(name);
    const chainID = config.genesis.chainID;
    let dataPath: string;
    let chain: OpenChain;
    let divergence: ReplayDivergence | undefined;

    beforeAll(async () => {
      dataPath = mkdtempSync(join(tmpdir(), `basalt-interop-${name}-`));
      chain = await openChain({ dataPath, config, genesisBlock: interopGenesisBlock(name) });
    });

    afterAll(async () => {
      await chain?.close();
      rmSync(dataPath, { recursive: true, force: true });
    });

    it('executes the genesis block to the recorded ID, stateRoot and events', () => {
      const genesis = chain.processor.tipHeader();
      const recorded = lines[0]?.blockJson.header as { stateRoot: string; eventRoot: string };
      expect({
        height: genesis.height,
        id: genesis.id.toString('hex'),
        stateRoot: chain.stateDb.root().toString('hex'),
        eventRoot: genesis.eventRoot.toString('hex'),
      }).toEqual({ height: 0, id: lines[0]?.id, stateRoot: recorded.stateRoot, eventRoot: recorded.eventRoot });
      expect(chain.chainStore.getEvents(0)?.map(eventToJSON)).toEqual(interopEventsByHeight(name).get(0));
    });

    it('applies every block with the recorded IDs, stateRoots, eventRoots and events', async () => {
      const events = interopEventsByHeight(name);
      divergence = await replayInteropBlocks(chain, lines, events);
      if (divergence !== undefined) throw new Error(formatDivergence(name, divergence));
      const final = interopFinalState(name);
      const tip = chain.processor.tipHeader();
      expect({ height: tip.height, id: tip.id.toString('hex'), stateRoot: tip.stateRoot.toString('hex') }).toEqual({
        height: final.tip.height,
        id: final.tip.id,
        stateRoot: final.tip.stateRoot,
      });
      recordCases(`${fixtureDir}/blocks.ndjson`, lines.length);
      recordCases(`${fixtureDir}/events.ndjson`, events.size);
    });

    it('keeps the BFT parameter sets still in force at the tip', () => {
      if (divergence !== undefined) throw new Error(`not at the tip: ${formatDivergence(name, divergence).split('\n')[0]}`);
      const ranges = loadJsonFixture<{ fromHeight: number; toHeight: number; params: unknown }[]>(`${fixtureDir}/bft_parameters.json`);
      const consensus = createConsensusEndpoints(chain.bft, () => chain.stateDb.engineReader);
      const tipHeight = chain.processor.tipHeader().height;
      for (const range of ranges) {
        // Older sets are pruned once certified, as in lisk-sdk.
        if (range.toHeight < tipHeight - 2 * config.genesis.bftBatchSize) continue;
        expect(consensus.getBFTParameters?.handle(endpointContext(chain, chainID, { height: range.toHeight }))).toEqual(range.params);
      }
    });

    it('answers every chain-determined final_state.json call exactly as lisk-sdk did', async () => {
      if (divergence !== undefined) throw new Error(`not at the tip: ${formatDivergence(name, divergence).split('\n')[0]}`);
      const final = interopFinalState(name);
      const calls = [...Object.values(final.perAddress).flat(), ...final.global, ...Object.values(final.perChainID).flat()];
      const { mismatches, compared } = await compareChainAnswers(chain, chainID, calls, CLOCK_OR_NODE_DEPENDENT);
      expect(mismatches, `${interopChainDir(name)}/final_state.json`).toEqual([]);
      expect(compared).toBeGreaterThan(minimumCompared);
      recordCases(`${fixtureDir}/final_state.json`, compared);
    });
  });
}
