/**
 * The real lisk-sdk 6.1 chain of test/fixtures/chains/dev (see its README): its config, genesis
 * block, blocks and the answers the reference node gave at the tip.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Block } from '../../src/chain/block.js';
import { loadChainConfig, type ChainConfig } from '../../src/config/lisk-config.js';
import { fixturePath } from './fixtures.js';

export const DEV_CHAIN_DIR = fixturePath('chains/dev');

/**
 * `basalt blockchain:replay` arguments for a blocks file (default: the whole dev chain) on the
 * dev chain's genesis block and config, into `dataPath`.
 */
export function devReplayArgs(dataPath: string, blocksFile = join(DEV_CHAIN_DIR, 'blocks.ndjson')): string[] {
  return [
    'blockchain:replay',
    blocksFile,
    '--genesis',
    join(DEV_CHAIN_DIR, 'genesis_block.blob'),
    '--config',
    join(DEV_CHAIN_DIR, 'config.json'),
    '--data-path',
    dataPath,
  ];
}

export interface DevBlockLine {
  height: number;
  id: string;
  blockHex: string;
  blockJson: Record<string, unknown>;
}

export interface RecordedCall {
  method: string;
  params: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string };
}

export function devChainConfig(): ChainConfig {
  return loadChainConfig(`${DEV_CHAIN_DIR}/config.json`);
}

export function devGenesisBlock(): Block {
  return Block.fromBytes(readFileSync(`${DEV_CHAIN_DIR}/genesis_block.blob`));
}

export function devBlockLines(): DevBlockLine[] {
  return readFileSync(`${DEV_CHAIN_DIR}/blocks.ndjson`, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as DevBlockLine);
}

export function devEventsByHeight(): Map<number, Record<string, unknown>[]> {
  const result = new Map<number, Record<string, unknown>[]>();
  for (const line of readFileSync(`${DEV_CHAIN_DIR}/events.ndjson`, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const { height, events } = JSON.parse(line) as { height: number; events: Record<string, unknown>[] };
    result.set(height, events);
  }
  return result;
}

export interface DevFinalState {
  tip: { height: number; id: string; stateRoot: string };
  perAddress: Record<string, RecordedCall[]>;
  global: RecordedCall[];
}

export function devFinalState(): DevFinalState {
  return JSON.parse(readFileSync(`${DEV_CHAIN_DIR}/final_state.json`, 'utf8')) as DevFinalState;
}
