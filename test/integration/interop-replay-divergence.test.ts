/**
 * The interop replay's first-divergence report, on the first blocks of the interop-dev mainchain
 * (which need no cross-chain update): a stored event that differs from the recording names the
 * height, the event index and both events; a block refused for its stateRoot says so and, its
 * events being as recorded, names the stores the block wrote.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Block } from '../../src/chain/block.js';
import { encodeLisk32 } from '../../src/crypto/index.js';
import { openChain, type OpenChain } from '../../src/node.js';
import { tamperHeader } from '../support/block-tamper.js';
import { loadJsonFixture } from '../support/fixtures.js';
import {
  formatDivergence,
  interopBlockLines,
  interopChainConfig,
  interopEventsByHeight,
  interopGenesisBlock,
  replayInteropBlocks,
} from '../support/interop-chain.js';

describe('interop replay divergence report', () => {
  const lines = interopBlockLines('mainchain');
  const config = interopChainConfig('mainchain');
  let dataPath: string;
  let chain: OpenChain;

  beforeAll(async () => {
    dataPath = mkdtempSync(join(tmpdir(), 'basalt-interop-divergence-'));
    chain = await openChain({ dataPath, config, genesisBlock: interopGenesisBlock('mainchain') });
  });

  afterAll(async () => {
    await chain?.close();
    rmSync(dataPath, { recursive: true, force: true });
  });

  it('names the height, index and both events when a stored event differs from the recording', async () => {
    const events = interopEventsByHeight('mainchain');
    const recorded = events.get(4) as Record<string, unknown>[];
    const altered = { ...recorded[0], data: 'ff' };
    events.set(4, [altered, ...recorded.slice(1)]);
    const divergence = await replayInteropBlocks(chain, lines.slice(0, 5), events);
    expect(divergence?.height).toBe(4);
    const message = formatDivergence('mainchain', divergence);
    expect(message).toContain('mainchain: first divergence at height 4');
    expect(message).toContain('stored events: event #0 differs');
    expect(message).toContain(`expected: ${recorded[0]?.module}:${recorded[0]?.name} data=ff`);
    expect(message).toContain(`actual:   ${recorded[0]?.module}:${recorded[0]?.name} data=${recorded[0]?.data}`);
  });

  it('reports the refusal of a block whose events are as recorded, with the stores it writes', async () => {
    const line = lines[5] as (typeof lines)[number];
    const block = Block.fromBytes(Buffer.from(line.blockHex, 'hex'));
    const keys = loadJsonFixture<{ validators: { address: string; generatorPrivateKey: string }[] }>(
      'chains/interop-dev/mainchain/keys.json',
    );
    const generator = keys.validators.find((validator) => validator.address === encodeLisk32(block.header.generatorAddress));
    const tampered = tamperHeader(
      block,
      { stateRoot: Buffer.alloc(32, 7) },
      { generatorPrivateKey: Buffer.from(generator?.generatorPrivateKey ?? '', 'hex') },
      config.genesis.chainID,
    );
    const tamperedLine = { ...line, id: tampered.header.id.toString('hex'), blockHex: tampered.bytes.toString('hex') };
    const divergence = await replayInteropBlocks(chain, [tamperedLine], interopEventsByHeight('mainchain'));
    expect(divergence?.height).toBe(5);
    expect(divergence?.message).toMatch(/refused: stateRoot 0707.* differs from the computed [0-9a-f]{64}/);
    expect(divergence?.message).toMatch(/all \d+ events as recorded; the block writes .*random\/validatorReveals x1/);
  });
});
