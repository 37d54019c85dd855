/** Endpoint response schemas of the fee module, as `system_getMetadata` reports them (lisk-sdk fee/schemas.ts). */

export const getMinFeePerByteResponseSchema: Record<string, unknown> = {
  $id: '/fee/endpoint/getMinFeePerByteResponse',
  type: 'object',
  properties: { minFeePerByte: { type: 'integer', format: 'uint32' } },
  required: ['minFeePerByte'],
};

/**
 * lisk-sdk's schema names the field `feeTokenID`, but its endpoint answers `{ tokenID }`; the
 * answer is what clients see, so Basalt answers `tokenID` too and keeps the schema as published.
 */
export const getFeeTokenIDResponseSchema: Record<string, unknown> = {
  $id: '/fee/endpoint/getFeeTokenIDResponseSchema',
  type: 'object',
  properties: { feeTokenID: { type: 'string', format: 'hex' } },
  required: ['feeTokenID'],
};
