/**
 * The events the node publishes to RPC subscribers (lisk-sdk engine/events.ts), with builders for
 * their payloads in lisk-sdk's shape and key order. Module events (token `transfer`, ...) are not
 * pushed: clients read them with `chain_getEvents` on each `chain_newBlock`, as in lisk-sdk.
 */
import type { BlockHeader } from '../../chain/block-header.js';
import type { Transaction } from '../../chain/transaction.js';
import { encodeLisk32Address } from '../../codec/index.js';
import type { NextValidator } from '../../modules/base/index.js';
import { RawJson } from '../raw-json.js';

export const APP_READY = 'app_ready';
export const APP_SHUTDOWN = 'app_shutdown';
export const CHAIN_NEW_BLOCK = 'chain_newBlock';
export const CHAIN_DELETE_BLOCK = 'chain_deleteBlock';
export const CHAIN_FORKED = 'chain_forked';
export const CHAIN_VALIDATORS_CHANGED = 'chain_validatorsChanged';
export const TXPOOL_NEW_TRANSACTION = 'txpool_newTransaction';
export const NETWORK_NEW_BLOCK = 'network_newBlock';
export const NETWORK_NEW_TRANSACTION = 'network_newTransaction';

/** Events of the engine without a peer-to-peer network (block pipeline, pool, lifecycle). */
export const NODE_EVENTS: readonly string[] = [
  APP_READY,
  APP_SHUTDOWN,
  CHAIN_NEW_BLOCK,
  CHAIN_DELETE_BLOCK,
  CHAIN_FORKED,
  CHAIN_VALIDATORS_CHANGED,
  TXPOOL_NEW_TRANSACTION,
];

/** Events that only a node connected to peers publishes; register them with the network room. */
export const NETWORK_EVENTS: readonly string[] = [NETWORK_NEW_BLOCK, NETWORK_NEW_TRANSACTION];

/**
 * `{blockHeader}` of chain_newBlock, chain_deleteBlock, chain_forked and network_newBlock, as JSON
 * text: serialized once, whatever the number of subscribers and transports.
 */
export function blockHeaderEventPayload(header: BlockHeader): RawJson {
  return new RawJson(`{"blockHeader":${JSON.stringify(header.toJSON())}}`);
}

/** `{transaction}` of txpool_newTransaction. */
export function newTransactionEventPayload(transaction: Transaction): RawJson {
  return new RawJson(`{"transaction":${JSON.stringify(transaction.toJSON())}}`);
}

/** `{transactionIDs}` of network_newTransaction. */
export function transactionAnnouncementPayload(ids: readonly Buffer[]): { transactionIDs: string[] } {
  return { transactionIDs: ids.map((id) => id.toString('hex')) };
}

/**
 * chain_validatorsChanged: the next validators with their keys and weights, and the
 * thresholds; lisk-sdk spells the first one `preCommitThreshold` (capital C) here.
 */
export function validatorsChangedPayload(
  precommitThreshold: bigint,
  certificateThreshold: bigint,
  validators: readonly NextValidator[],
): Record<string, unknown> {
  return {
    nextValidators: validators.map((validator) => ({
      address: encodeLisk32Address(validator.address),
      blsKey: validator.blsKey.toString('hex'),
      generatorKey: validator.generatorKey.toString('hex'),
      bftWeight: validator.bftWeight.toString(),
    })),
    preCommitThreshold: precommitThreshold.toString(),
    certificateThreshold: certificateThreshold.toString(),
  };
}
