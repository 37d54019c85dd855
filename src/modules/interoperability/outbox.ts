/** Appending messages to a channel's outbox (LIP 0045 addToOutbox; lisk-sdk internal method addToOutbox). */
import { codec } from '../../codec/index.js';
import { sha256 } from '../../crypto/sha256.js';
import { appendToMerkleRoot } from '../../merkle/rmt/index.js';
import type { MethodContext } from '../base/index.js';
import { ccmSchema } from './schemas.js';
import { channelDataStore, outboxRootStore } from './stores.js';
import type { CrossChainMessage } from './types.js';

/**
 * Appends H(encoded ccm) as a leaf of the outbox tree of the channel with `chainID` (which must
 * exist) and mirrors the new root into the outbox root substore, where sidechains prove it.
 */
export function addToOutbox(ctx: MethodContext, chainID: Buffer, ccm: CrossChainMessage): void {
  const channel = channelDataStore.getOrThrow(ctx.state, chainID);
  const leafValue = sha256(codec.encode(ccmSchema, ccm));
  const { root, appendPath, size } = appendToMerkleRoot(leafValue, channel.outbox.appendPath, channel.outbox.size);
  channelDataStore.set(ctx.state, chainID, { ...channel, outbox: { root, appendPath: [...appendPath], size } });
  outboxRootStore.set(ctx.state, chainID, { root });
}
