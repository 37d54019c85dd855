/**
 * Real blocks full of token transfers on top of the dev chain, for the block-apply suite: the dev
 * chain is replayed into a producer store, then its own validators (the 103 public dev keys)
 * forge the next blocks slot by slot on a simulated clock, through the node's BlockGenerator and
 * Forger, from transfers signed by the 103 funded genesis accounts. Each block is filled up to the
 * chain's maxTransactionsSize (15,360 bytes, lisk-sdk's default and mainnet's): 95 transfers.
 */
import { Block } from '../../src/chain/block.js';
import type { Transaction } from '../../src/chain/transaction.js';
import type { ChainConfig } from '../../src/config/lisk-config.js';
import { decodeLisk32 } from '../../src/crypto/index.js';
import { createChainForger, openChain, type OffThreadWork, type OpenChain } from '../../src/node.js';
import { devValidatorKeypairs } from '../../test/support/dev-keys.js';
import { readDevBlocks } from './dev-chain.js';
import { devAccounts, DEV_CHAIN_ID, DEV_TOKEN_ID } from './dev-transfers.js';
import { signedTransfer } from './transfer-block.js';
import { adoptGeneratorInfoOfChain } from '../../test/support/generator-info.js';

/** Opens a store at `dataPath` and applies the 420 dev chain blocks; `clock` follows their timestamps. */
export async function openReplayedDevChain(
  dataPath: string,
  config: ChainConfig,
  clock: { now: number },
  offThread: OffThreadWork = {},
): Promise<OpenChain> {
  const [genesis, ...blocks] = readDevBlocks();
  const chain = await openChain({ dataPath, config, genesisBlock: Block.fromBytes(genesis!.bytes), now: () => clock.now, ...offThread });
  try {
    for (const { bytes } of blocks) {
      const block = Block.fromBytes(bytes);
      clock.now = block.header.timestamp;
      await chain.processor.processBlock(block);
    }
    return chain;
  } catch (error) {
    await chain.close();
    throw error;
  }
}

/** Pending transfers per sender (nonce order), as the pool would hand them to the generator. */
function pendingTransfers(chain: OpenChain, perAccount: number): Map<string, Transaction[]> {
  const accounts = devAccounts();
  const pending = new Map<string, Transaction[]>();
  for (const [i, sender] of accounts.entries()) {
    const recipient = decodeLisk32(accounts[(i + 1) % accounts.length]!.address);
    const first = chain.modules.auth.accounts.getOrDefault(chain.stateDb.moduleReader, decodeLisk32(sender.address)).nonce;
    const list: Transaction[] = [];
    for (let n = 0; n < perAccount; n++) {
      list.push(
        signedTransfer(sender.keyPair, first + BigInt(n), recipient, 1000n + BigInt(n), { chainID: DEV_CHAIN_ID, tokenID: DEV_TOKEN_ID }),
      );
    }
    pending.set(decodeLisk32(sender.address).toString('hex'), list);
  }
  return pending;
}

/**
 * Forges `count` full transfer blocks on the replayed dev chain at `dataPath` and returns their
 * bytes (heights 421…); the caller applies them to another store.
 */
export async function produceTransferBlocks(dataPath: string, config: ChainConfig, count: number): Promise<Buffer[]> {
  const clock = { now: 0 };
  const chain = await openReplayedDevChain(dataPath, config, clock);
  try {
    // Enough per account for `count` blocks of about 100, spread over the 103 senders.
    const pending = pendingTransfers(chain, Math.ceil((count * 110) / 103) + 1);
    const { forger, generatorStore } = createChainForger(chain, {
      genesisConfig: config.genesis,
      candidates: () => ({ byAccount: pending, feePriority: (tx) => tx.fee }),
      now: () => clock.now,
    });
    adoptGeneratorInfoOfChain(chain.chainStore, generatorStore);
    for (const keypair of devValidatorKeypairs()) forger.enable(keypair);

    const out: Buffer[] = [];
    while (out.length < count) {
      clock.now += 1;
      if (!(await forger.tick())) continue;
      const block = chain.chainStore.getBlockByHeight(chain.chainStore.tipHeight());
      const decoded = Block.fromBytes(block.bytes);
      // Drop what the block included: the rest stays pending with gap-free nonces.
      const included = new Set(decoded.transactions.map((tx) => tx.id.toString('hex')));
      for (const [key, list] of pending)
        pending.set(
          key,
          list.filter((tx) => !included.has(tx.id.toString('hex'))),
        );
      out.push(block.bytes);
    }
    return out;
  } finally {
    await chain.close();
  }
}
