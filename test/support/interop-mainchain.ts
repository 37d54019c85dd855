/**
 * The mainchain of the real lisk-sdk 6.1 interop pair (test/fixtures/chains/interop-dev/mainchain):
 * its blocks, recorded events, and its module state before chosen heights, rebuilt by replaying
 * the chain with openChain, so that cross-chain update tests run on the real CCUs and states.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Block } from '../../src/chain/block.js';
import type { EventJSON } from '../../src/chain/event.js';
import type { Transaction } from '../../src/chain/transaction.js';
import { codec } from '../../src/codec/index.js';
import { crossChainUpdateParamsSchema, type CrossChainUpdateParams } from '../../src/modules/interoperability/index.js';
import type { Command } from '../../src/modules/base/index.js';
import { openChain } from '../../src/node.js';
import { MemoryState } from '../../src/state/memory-state.js';
import { interopChainConfig, interopEventsByHeight, interopGenesisBlock, interopNdjson } from './interop-chain.js';

const blockHexes = new Map<number, string>(
  interopNdjson<{ height: number; blockHex: string }>('mainchain', 'blocks.ndjson').map(({ height, blockHex }) => [height, blockHex]),
);

/** The chain's config (genesis and module sections). */
export function interopMainchainConfig() {
  return interopChainConfig('mainchain');
}

export function interopBlock(height: number): Block {
  const hex = blockHexes.get(height);
  if (hex === undefined) throw new Error(`The interop mainchain has no block ${height}.`);
  return Block.fromBytes(Buffer.from(hex, 'hex'));
}

let recordedEventsByHeight: Map<number, unknown[]> | undefined;

export function recordedEvents(height: number): EventJSON[] {
  recordedEventsByHeight ??= interopEventsByHeight('mainchain');
  const events = recordedEventsByHeight.get(height);
  if (events === undefined) throw new Error(`No recorded events at ${height}.`);
  return events as unknown as EventJSON[];
}

/** The cross-chain update transaction of block `height` and its decoded params. */
export function ccuAt(height: number): { transaction: Transaction; params: CrossChainUpdateParams } {
  const transaction = interopBlock(height).transactions.find((tx) => tx.command === 'submitMainchainCrossChainUpdate');
  if (transaction === undefined) throw new Error(`Block ${height} carries no CCU.`);
  return { transaction, params: codec.decode<CrossChainUpdateParams>(crossChainUpdateParamsSchema, transaction.params) };
}

/**
 * Replays the chain and keeps a copy of the module state before each of `heights` (the state
 * after the block below it), together with the replaying node's CCU command (wired to its token
 * and fee modules).
 */
export async function mainchainStatesBefore(
  heights: readonly number[],
): Promise<{ states: Map<number, MemoryState>; command: Command<CrossChainUpdateParams> }> {
  const dataPath = mkdtempSync(join(tmpdir(), 'basalt-ccu-states-'));
  const chain = await openChain({
    dataPath,
    config: interopMainchainConfig(),
    genesisBlock: interopGenesisBlock('mainchain'),
  });
  const states = new Map<number, MemoryState>();
  try {
    const last = Math.max(...heights);
    for (let height = 1; height <= last; height += 1) {
      if (heights.includes(height)) {
        const all = chain.stateDb.moduleReader.iterate({ gte: Buffer.alloc(0), lte: Buffer.alloc(64, 0xff) });
        states.set(height, new MemoryState(all));
      }
      if (height < last) await chain.processor.processBlock(interopBlock(height));
    }
    const command = chain.modules.interoperability.commands.find((candidate) => candidate.name === 'submitMainchainCrossChainUpdate');
    if (command === undefined) throw new Error('The mainchain has no submitMainchainCrossChainUpdate command.');
    return { states, command: command as Command<CrossChainUpdateParams> };
  } finally {
    await chain.close();
    rmSync(dataPath, { recursive: true, force: true });
  }
}
