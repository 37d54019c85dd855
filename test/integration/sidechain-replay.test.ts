/**
 * Sidechain mode on the real lisk-sdk 6.1 sidechain of test/fixtures/chains/interop-dev (chain
 * 04000001): the chain ID alone makes openChain build the sidechain module set, whose genesis
 * executes to the reference state root and whose blocks replay, with the mainchain's registration
 * at height 3, up to the first cross-chain update (height 10). The full replay of the pair lives
 * beside the cross-chain update work.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Block } from '../../src/chain/block.js';
import { eventToJSON } from '../../src/chain/event.js';
import { loadChainConfig } from '../../src/config/lisk-config.js';
import { SidechainInteroperabilityModule } from '../../src/modules/interoperability/sidechain/index.js';
import { openChain, type OpenChain } from '../../src/node.js';
import { fixturePath, loadJsonFixture } from '../support/fixtures.js';
import type { DevBlockLine } from '../support/dev-chain.js';

const CHAIN_DIR = fixturePath('chains/interop-dev/sidechain');
const GENESIS_STATE_ROOT = '679b757833b666d066ecffa7fe2e1894ef9c998d036933891ee8113c53f92b6c';
const FIRST_CCU_HEIGHT = 10;

function ndjson<T>(file: string): T[] {
  return readFileSync(join(CHAIN_DIR, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

describe('sidechain replay of fixtures/chains/interop-dev/sidechain before its first CCU', () => {
  let dataPath: string;
  let chain: OpenChain;
  const lines = ndjson<DevBlockLine>('blocks.ndjson');

  beforeAll(async () => {
    dataPath = mkdtempSync(join(tmpdir(), 'basalt-sidechain-replay-'));
    chain = await openChain({
      dataPath,
      config: loadChainConfig(join(CHAIN_DIR, 'config.json')),
      genesisBlock: Block.fromBytes(readFileSync(join(CHAIN_DIR, 'genesis_block.blob'))),
    });
  });

  afterAll(async () => {
    await chain?.close();
    rmSync(dataPath, { recursive: true, force: true });
  });

  it('builds the sidechain module set, in lisk-sdk order, from the chain ID', () => {
    expect(chain.modules.list.map((module) => module.name)).toEqual([
      'auth',
      'validators',
      'token',
      'fee',
      'interoperability',
      'pos',
      'random',
      'dynamicReward',
    ]);
    expect(chain.modules.interoperability).toBeInstanceOf(SidechainInteroperabilityModule);
  });

  it('reports the interoperability metadata of lisk-sdk 6.1 on a sidechain', () => {
    const recorded = loadJsonFixture<{ modules: { name: string }[] }>('chains/interop-dev/sidechain/metadata.json').modules.find(
      (module) => module.name === 'interoperability',
    );
    const { name: _name, ...expected } = recorded as { name: string };
    const metadata = chain.modules.interoperability.metadata();
    expect(JSON.parse(JSON.stringify(metadata))).toEqual(expected);
  });

  it('executes the genesis block to the reference stateRoot', () => {
    expect(chain.processor.tipHeader().id.toString('hex')).toBe(lines[0]?.id);
    expect(chain.stateDb.root().toString('hex')).toBe(GENESIS_STATE_ROOT);
  });

  it('applies the blocks up to the first CCU, registerMainchain included, with the recorded roots and events', async () => {
    const recordedEvents = new Map(
      ndjson<{ height: number; events: unknown[] }>('events.ndjson').map((line) => [line.height, line.events]),
    );
    expect(chain.chainStore.getEvents(0)?.map(eventToJSON)).toEqual(recordedEvents.get(0));
    for (const line of lines.slice(1, FIRST_CCU_HEIGHT)) {
      const block = Block.fromBytes(Buffer.from(line.blockHex, 'hex'));
      // processBlock refuses the block unless its validatorsHash, eventRoot and stateRoot match.
      await chain.processor.processBlock(block);
      expect(chain.chainStore.getEvents(line.height)?.map(eventToJSON)).toEqual(recordedEvents.get(line.height));
    }
    const tip = chain.processor.tipHeader();
    expect(tip.height).toBe(FIRST_CCU_HEIGHT - 1);
    expect(tip.id.toString('hex')).toBe(lines[FIRST_CCU_HEIGHT - 1]?.id);
  });
});
