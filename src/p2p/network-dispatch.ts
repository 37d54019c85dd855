/**
 * What the network does with a received request or message, after the peer's own protocol rules
 * (peer.ts) let it through. This is the engine's half of lisk-sdk (`framework/src/engine/network/
 * network.ts` EVENT_REQUEST_RECEIVED / EVENT_MESSAGE_RECEIVED) plus lisk-p2p's own procedures
 * (`elements/lisk-p2p/src/p2p.ts` `_handleGetNodeInfo`, `_handleGetPeersRequest`):
 *
 * - getNodeInfo and getPeers are answered here; either with data costs 100 and an error answer;
 * - any procedure or message name outside lisk-sdk's lists costs 100 (a ban) and, for a
 *   procedure, the answer `Requested procedure "<name>" is not permitted.`;
 * - listed names count against the per-peer rate limits (10 per call beyond the limit);
 * - the rest goes to the injected handlers.
 */
import type { Logger } from '../logger.js';
import { PENALTY_BAN, PENALTY_RATE } from './constants.js';
import { type P2pCallContext, type P2pHandlers, isAcceptedMessage, isServedProcedure } from './handlers.js';
import type { IncomingMessage, IncomingRequest } from './peer.js';
import { ENGINE_RATE_LIMITS, type ReceivedRateCounter } from './rate-limits.js';

export interface DispatchContext {
  handlers: P2pHandlers;
  logger: Logger;
  received: ReceivedRateCounter;
  /** Engine-path penalty: configured seed, fixed and whitelisted peers are exempt. */
  penalize(peerId: string, points: number): void;
  encodedNodeInfo(): Buffer;
  encodedPeerList(): Buffer;
}

function callContext(context: DispatchContext, peerId: string): P2pCallContext {
  return { peerId, penalize: (points) => context.penalize(peerId, points) };
}

function countRate(context: DispatchContext, name: string, peerId: string): void {
  const limit = ENGINE_RATE_LIMITS[name];
  if (limit !== undefined && context.received.exceeds(name, peerId, limit)) context.penalize(peerId, PENALTY_RATE);
}

/** Answers a request; resolves once the answer is sent. */
export async function dispatchRequest(context: DispatchContext, request: IncomingRequest): Promise<void> {
  const { procedure, peerId } = request;
  if (procedure === 'getNodeInfo' || procedure === 'getPeers') {
    if (request.data !== undefined && request.data.length > 0) {
      context.penalize(peerId, PENALTY_BAN);
      return request.fail('Invalid request.');
    }
    return request.respond(procedure === 'getNodeInfo' ? context.encodedNodeInfo() : context.encodedPeerList());
  }
  if (!isServedProcedure(procedure)) {
    context.logger.warn({ peerId, procedure }, 'Peer requested a procedure that is not permitted; penalty 100');
    context.penalize(peerId, PENALTY_BAN);
    return request.fail(`Requested procedure "${procedure}" is not permitted.`);
  }
  countRate(context, procedure, peerId);
  const handler = context.handlers.procedures?.[procedure];
  if (handler === undefined) return request.fail(`Procedure ${procedure} is not served by this node.`);
  try {
    request.respond(await handler(request.data, callContext(context, peerId)));
  } catch (error) {
    context.logger.debug({ peerId, procedure, err: error }, 'Could not answer a peer request');
    request.fail(error instanceof Error ? error.message : String(error));
  }
}

/** Hands a message to its handler; postNodeInfo was already applied by the peer. */
export function dispatchMessage(context: DispatchContext, message: IncomingMessage): void {
  const { event, peerId } = message;
  if (event === 'postNodeInfo') return;
  if (!isAcceptedMessage(event)) {
    context.logger.warn({ peerId, event }, 'Peer sent a message that is not permitted; penalty 100');
    context.penalize(peerId, PENALTY_BAN);
    return;
  }
  countRate(context, event, peerId);
  const handler = context.handlers.messages?.[event];
  if (handler === undefined) return;
  try {
    const pending = handler(message.data, callContext(context, peerId));
    if (pending instanceof Promise) {
      pending.catch((error: unknown) => context.logger.warn({ peerId, event, err: error }, 'Message handler failed'));
    }
  } catch (error) {
    context.logger.warn({ peerId, event, err: error }, 'Message handler threw; penalty 100');
    context.penalize(peerId, PENALTY_BAN);
  }
}
