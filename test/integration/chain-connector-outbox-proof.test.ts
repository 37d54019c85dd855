/**
 * The outbox root witness of the chain connector's CCUs against the real chain: the lisk-sdk
 * mainchain of the interop-dev pair is replayed with openChain, and after each block the proof
 * the relayer asks for (state_prove of the outbox root towards the sidechain, the key built as
 * relayer.ts builds it) must equal the inclusion proof lisk's 0.2.0 relayer recorded at that
 * height (its getCrossChainMessages answer at the tip covers heights 222 to 240). Sidechain
 * height 235 carried the witness of height 224 in a CCU with two messages; the conformance test
 * (test/conformance/chain-connector-ccu.test.ts) checks that CCU whole.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Block } from '../../src/chain/block.js';
import { loadChainConfig } from '../../src/config/lisk-config.js';
import { sha256 } from '../../src/crypto/index.js';
import { outboxRootStore } from '../../src/modules/interoperability/stores.js';
import { openChain, type OpenChain } from '../../src/node.js';
import { INTEROP_DEV_DIR, loadRecordedChain } from '../support/interop-dev-records.js';

const SIDECHAIN_ID = Buffer.from('04000001', 'hex');

describe('chain connector outbox root witness on the replayed interop-dev mainchain', () => {
  const dir = join(INTEROP_DEV_DIR, 'mainchain');
  let dataPath: string | undefined;
  let chain: OpenChain | undefined;

  afterAll(async () => {
    await chain?.close();
    if (dataPath) rmSync(dataPath, { recursive: true, force: true });
  });

  it('equals the inclusion proofs lisk-sdk recorded from height 222 to 240', async () => {
    const recorded = loadRecordedChain('mainchain');
    dataPath = mkdtempSync(join(tmpdir(), 'basalt-connector-proof-'));
    chain = await openChain({
      dataPath,
      config: loadChainConfig(join(dir, 'config.json')),
      genesisBlock: recorded.blocks.get(0) as Block,
    });
    const answer = recorded.finalState.chainConnector.find((entry) => entry.method === 'chainConnector_getCrossChainMessages');
    const expected = new Map(
      ((answer?.result ?? []) as { height: number; inclusionProof: { bitmap: string; siblingHashes: string[] } }[]).map((record) => [
        record.height,
        record.inclusionProof,
      ]),
    );
    expect(expected.size).toBeGreaterThan(10);
    const key = outboxRootStore.stateKey(sha256(SIDECHAIN_ID));
    let compared = 0;
    for (let height = 1; recorded.blocks.has(height); height += 1) {
      await chain.processor.processBlock(recorded.blocks.get(height) as Block);
      const proof = expected.get(height);
      if (proof === undefined) continue;
      const ours = chain.stateDb.prove([key]);
      expect(
        { bitmap: ours.queries[0]?.bitmap.toString('hex'), siblingHashes: ours.siblingHashes.map((hash) => hash.toString('hex')) },
        `height ${height}`,
      ).toEqual(proof);
      compared += 1;
    }
    expect(compared).toBe(expected.size);
  });
});
