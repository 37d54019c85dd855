/**
 * Params schemas of the engine's `chain_*` and `state_*` methods. lisk-sdk
 * checks most of these by hand with terse messages; Basalt validates them once, through the
 * dispatcher, so every bad value is a -32602 naming the field (`params.height: must be >= 0`).
 */

/** Heights are uint32 (header field 3): negative, fractional and huge values are refused. */
export const HEIGHT_PROPERTY = { type: 'integer', minimum: 0, maximum: 0xffff_ffff } as const;

/** Block and transaction IDs are SHA-256 hashes: 64 hex characters. */
export const ID_PROPERTY = { type: 'string', format: 'hex', minLength: 64, maxLength: 64 } as const;

/** State proofs take SMT keys: 6 prefix bytes ‖ SHA-256 of the rest of the state key (38 bytes). */
const SMT_STATE_KEY_PROPERTY = { type: 'string', format: 'hex', minLength: 76, maxLength: 76 } as const;

/** Event tree keys: 8 bytes of H(topic) ‖ a uint32 (12 bytes). */
const EVENT_KEY_PROPERTY = { type: 'string', format: 'hex', minLength: 24, maxLength: 24 } as const;

export const heightRequest = {
  type: 'object',
  required: ['height'],
  properties: { height: HEIGHT_PROPERTY },
} as const;

export const idRequest = {
  type: 'object',
  required: ['id'],
  properties: { id: ID_PROPERTY },
} as const;

export function idsRequest(maxIds: number): object {
  return {
    type: 'object',
    required: ['ids'],
    properties: { ids: { type: 'array', minItems: 1, maxItems: maxIds, items: ID_PROPERTY } },
  };
}

export const heightRangeRequest = {
  type: 'object',
  required: ['from', 'to'],
  properties: { from: HEIGHT_PROPERTY, to: HEIGHT_PROPERTY },
} as const;

export function proveEventsRequest(maxQueries: number): object {
  return {
    type: 'object',
    required: ['height', 'queries'],
    properties: { height: HEIGHT_PROPERTY, queries: { type: 'array', maxItems: maxQueries, items: EVENT_KEY_PROPERTY } },
  };
}

export const headersRequest = {
  type: 'object',
  required: ['header1', 'header2'],
  properties: { header1: { type: 'string', format: 'hex' }, header2: { type: 'string', format: 'hex' } },
} as const;

export function stateProveRequest(maxKeys: number): object {
  return {
    type: 'object',
    required: ['queryKeys'],
    properties: { queryKeys: { type: 'array', maxItems: maxKeys, items: SMT_STATE_KEY_PROPERTY } },
  };
}
