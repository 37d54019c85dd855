/**
 * Node info: what a node tells its peers about itself (`elements/lisk-p2p/src/schema.ts` with the
 * engine's options from `framework/src/engine/network/schema.ts`). The identity part (chainID,
 * networkVersion, nonce, advertiseAddress) is fixed for a process; the options change with every
 * block the node executes and are pushed to peers with postNodeInfo.
 */
import { codec } from '../codec/index.js';
import { CloseReason, MAX_PEER_INFO_SIZE } from './constants.js';
import { P2pProtocolError } from './errors.js';
import { nodeInfoSchema } from './schemas.js';

export interface NodeInfoOptions {
  height: number;
  maxHeightPrevoted: number;
  blockVersion: number;
  /** Empty until the node has executed a block. */
  lastBlockID: Buffer;
  /** Snapshot block IDs of the legacy brackets this node holds (empty: it serves none). */
  legacy: Buffer[];
}

export interface NodeInfo {
  chainID: Buffer;
  /** `"major.minor"`; peers must share the major number. */
  networkVersion: string;
  /** 16 hex characters, random per process. */
  nonce: string;
  advertiseAddress: boolean;
  options: NodeInfoOptions;
}

/** What a fresh lisk-sdk node advertises before it executes its first block (`network.ts` init). */
export function emptyNodeInfoOptions(): NodeInfoOptions {
  return { height: 0, maxHeightPrevoted: 0, blockVersion: 0, lastBlockID: Buffer.alloc(0), legacy: [] };
}

export function encodeNodeInfo(info: NodeInfo): Buffer {
  return codec.encode(nodeInfoSchema, info);
}

/**
 * Decodes a received node info. Too large (over 20 480 bytes) or undecodable payloads throw
 * P2pProtocolError; lisk-p2p (`peer/base.ts`) charges the sender 100 for either.
 */
export function decodeNodeInfo(bytes: Buffer | undefined): NodeInfo {
  if (bytes === undefined) throw new P2pProtocolError('Node info is missing');
  if (bytes.length > MAX_PEER_INFO_SIZE) {
    throw new P2pProtocolError(`Node info of ${bytes.length} bytes is larger than the maximum ${MAX_PEER_INFO_SIZE}`);
  }
  try {
    return codec.decode<NodeInfo>(nodeInfoSchema, bytes);
  } catch (error) {
    throw new P2pProtocolError(`Invalid node info: ${(error as Error).message}`);
  }
}

/** The major number of a `"major.minor"` version the way lisk-p2p reads it (parseInt of the first part). */
function majorVersion(version: string): number {
  return Number.parseInt(version.split('.')[0] ?? '', 10);
}

/**
 * Why a peer cannot be on our network, or undefined when it can: same chain ID, same major
 * network version, and a major of at least 1 (`elements/lisk-p2p/src/utils/validate.ts`
 * validatePeerCompatibility). The returned strings are the reasons a Lisk node sends with close code 4104.
 */
export function incompatibility(peer: { chainID?: Uint8Array; networkVersion?: unknown }, ours: NodeInfo): string | undefined {
  if (peer.chainID === undefined || !Buffer.from(peer.chainID).equals(ours.chainID)) return CloseReason.INCOMPATIBLE_CHAIN;
  if (typeof peer.networkVersion !== 'string') return CloseReason.INCOMPATIBLE_VERSION;
  const theirs = majorVersion(peer.networkVersion);
  if (!(theirs >= 1) || theirs !== majorVersion(ours.networkVersion)) return CloseReason.INCOMPATIBLE_VERSION;
  return undefined;
}
