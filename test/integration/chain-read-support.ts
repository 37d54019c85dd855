/**
 * For the chain-read tests: the replayed dev chain in a data directory plus two valid competitors
 * A and B for the next height (A with two transfers, B with one, B from the later slot), as the
 * fork-choice proof builds them (test/integration/fork-choice.test.ts), so a node that stored A
 * switches to B through BlockReceiver (LIP 0014 case 4) with a real revert.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Block } from '../../src/chain/block.js';
import type { Transaction } from '../../src/chain/transaction.js';
import { BlockReceiver } from '../../src/engine/block-receiver.js';
import type { GeneratorKeypair } from '../../src/engine/generator/generator-keypair.js';
import { feePriority } from '../../src/engine/txpool/fee-priority.js';
import { createChainForger, openChain, type OpenChain } from '../../src/node.js';
import { devBlockLines, devChainConfig, devGenesisBlock } from '../support/dev-chain.js';
import { seedDevGenesis } from '../support/dev-genesis-store.js';
import { devValidatorKeypairs } from '../support/dev-keys.js';
import { accountNonce, devAccounts, signedTransfer } from '../unit/txpool/support.js';
import { adoptGeneratorInfoOfChain } from '../support/generator-info.js';

export const config = devChainConfig();

export interface ForkedDevChain {
  readonly workDir: string;
  /** The replayed dev chain's data directory (closed). */
  readonly dataPath: string;
  readonly blockA: Block;
  readonly blockB: Block;
  readonly transfersA: readonly Transaction[];
  readonly transferB: Transaction;
  readonly slotB: number;
  /** The clock the chain was built with; set it before opening the directory. */
  clock: number;
}

/** Opens `dataPath` with the test clock of `forked`. */
export function openDevChain(forked: ForkedDevChain, dataPath = forked.dataPath): Promise<OpenChain> {
  return openChain({ dataPath, config, genesisBlock: devGenesisBlock(), now: () => forked.clock });
}

/** Where A and B enter `chain`: fork choice, then apply or switch (LIP 0014 case 4 for B after A). */
export function blockReceiverFor(chain: OpenChain): BlockReceiver {
  return new BlockReceiver({
    processor: chain.processor,
    chainStore: chain.chainStore,
    clock: chain.bft,
    maxTransactionsSize: config.genesis.maxTransactionsSize,
  });
}

/** Replays the dev chain into a new directory and generates the competitors A and B. */
export async function forkedDevChain(): Promise<ForkedDevChain> {
  const workDir = mkdtempSync(join(tmpdir(), 'basalt-chain-read-'));
  const state = { clock: 0 };
  const dataPath = join(workDir, 'base');
  await seedDevGenesis(dataPath);
  const base = await openChain({ dataPath, config, genesisBlock: devGenesisBlock(), now: () => state.clock });
  try {
    for (const line of devBlockLines().slice(1)) {
      const block = Block.fromBytes(Buffer.from(line.blockHex, 'hex'));
      state.clock = block.header.timestamp;
      await base.processor.processBlock(block);
    }
    const tipHeight = base.chainStore.tipHeight();
    const { generator, generatorStore } = createChainForger(base, { genesisConfig: config.genesis });
    adoptGeneratorInfoOfChain(base.chainStore, generatorStore);
    const { chainID } = config.genesis;
    const accounts = devAccounts();
    const transfer = (from: number, to: number): Transaction => {
      const sender = accounts[from] as (typeof accounts)[number];
      const recipient = (accounts[to] as (typeof accounts)[number]).address;
      return signedTransfer(sender, { nonce: accountNonce(base, sender.address), recipient }, chainID);
    };
    const transfersA = [transfer(0, 5), transfer(1, 6)];
    const transferB = transfer(2, 7);
    const tipSlot = base.bft.slotNumber(base.processor.tipHeader().timestamp);
    const { slot: slotA, keypair: keyA } = nextSlotWithKey(base, tipHeight + 1, tipSlot);
    const { slot: slotB, keypair: keyB } = nextSlotWithKey(base, tipHeight + 1, slotA);
    const candidates = (transactions: readonly Transaction[]) => ({
      byAccount: new Map(transactions.map((tx) => [tx.senderAddress().toString('hex'), [tx]])),
      feePriority,
    });
    const blockA = (await generator.generate(keyA, base.bft.slotTime(slotA), candidates(transfersA))).block;
    const blockB = (await generator.generate(keyB, base.bft.slotTime(slotB), candidates([transferB]))).block;
    return { workDir, dataPath, blockA, blockB, transfersA, transferB, slotB, clock: base.bft.slotTime(slotB) + 1 };
  } finally {
    await base.close();
  }
}

/** The first slot after `after` whose generator at `height` is a dev validator, with its keypair. */
function nextSlotWithKey(chain: OpenChain, height: number, after: number): { slot: number; keypair: GeneratorKeypair } {
  const keypairs = devValidatorKeypairs();
  for (let slot = after + 1; slot < after + 200; slot += 1) {
    const { address } = chain.bft.generatorAtTimestamp(chain.stateDb.engineReader, height, chain.bft.slotTime(slot));
    const keypair = keypairs.find((candidate) => candidate.address.equals(address));
    if (keypair) return { slot, keypair };
  }
  throw new Error(`No dev validator key for any slot after ${after}`);
}
