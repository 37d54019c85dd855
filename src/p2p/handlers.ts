/**
 * The names a Lisk node serves and accepts over P2P, and the interface through which the node
 * plugs in what answers them. Names come from lisk-sdk v6.1.0's engine registrations
 * (`framework/src/engine/consensus/consensus.ts`, `engine/generator/generator.ts`,
 * `engine/legacy/legacy_chain_handler.ts`); getNodeInfo, getPeers and postNodeInfo belong to the
 * P2P layer itself (`elements/lisk-p2p/src/p2p.ts`) and are answered by the network.
 *
 * A peer that asks for any other procedure or sends any other message is charged 100 (an
 * immediate ban, `framework/src/engine/network/network.ts`). A listed name without a handler is
 * answered with an error (procedures) or ignored (messages), at no cost to the peer: a Lisk peer
 * asks for getTransactions as soon as it connects, whether or not we keep a pool.
 */

import type { EncodedPayload } from './envelopes.js';

export const SERVED_PROCEDURES = [
  'getLastBlock',
  'getBlocksFromId',
  'getHighestCommonBlock',
  'getLegacyBlocksFromId',
  'getTransactions',
] as const;
export type ServedProcedure = (typeof SERVED_PROCEDURES)[number];

export const ACCEPTED_MESSAGES = ['postBlock', 'postSingleCommitMessages', 'postTransactionsAnnouncement'] as const;
export type AcceptedMessage = (typeof ACCEPTED_MESSAGES)[number];

export function isServedProcedure(name: string): name is ServedProcedure {
  return (SERVED_PROCEDURES as readonly string[]).includes(name);
}

export function isAcceptedMessage(name: string): name is AcceptedMessage {
  return (ACCEPTED_MESSAGES as readonly string[]).includes(name);
}

/** What a handler knows about the call and how it charges the sender. */
export interface P2pCallContext {
  readonly peerId: string;
  /**
   * Lowers the sender's reputation by `points` (100 bans its IP for 24 h). As in lisk-sdk,
   * configured seed, fixed and whitelisted peers are exempt from these penalties.
   */
  penalize(points: number): void;
}

/**
 * Answers one procedure. Returns the lisk-codec bytes of the answer (undefined: an answer without
 * data). A thrown error becomes an error answer carrying its message; penalties are the
 * handler's to apply, through the context.
 */
export type ProcedureHandler = (data: Buffer | undefined, context: P2pCallContext) => ProcedureAnswer | Promise<ProcedureAnswer>;

/** Lisk-codec bytes, the same already in base64 (`EncodedPayload`), or no data. */
export type ProcedureAnswer = Uint8Array | EncodedPayload | undefined;

/**
 * Handles one message. A handler that throws synchronously costs the sender 100 (lisk-sdk's rule);
 * a rejected promise is only logged, so asynchronous handlers charge penalties themselves.
 */
export type MessageHandler = (data: Buffer | undefined, context: P2pCallContext) => void | Promise<void>;

export interface P2pHandlers {
  procedures?: Partial<Record<ServedProcedure, ProcedureHandler>>;
  messages?: Partial<Record<AcceptedMessage, MessageHandler>>;
}
