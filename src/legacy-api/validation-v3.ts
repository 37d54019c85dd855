/**
 * Request validation of Lisk Core 3.x's `PATCH /api/forging` (lisk-sdk v5
 * `framework-plugins/lisk-framework-http-api-plugin/src/controllers/forging.ts`), with its 400
 * answers `{"errors":[{"message": ...}]}`. The schema check reports what lisk-validator (Ajv 8,
 * all errors) reported, in its order and wording: a root that is no object alone; otherwise the
 * missing required properties, then each property of the wrong JSON type. Then two checks of the
 * controller's own: a hex address, and the three heights present and not negative.
 */

export interface UpdateForgingRequest {
  /** Hex as sent (any case, possibly empty or of odd length, as 3.x let through). */
  readonly address: string;
  readonly password: string;
  readonly forging: boolean;
  readonly height: number;
  readonly maxHeightPreviouslyForged: number;
  readonly maxHeightPrevoted: number;
  readonly overwrite?: boolean;
}

/** 3.x's error body: one entry whose message may span several lines. */
export interface V3ErrorBody {
  readonly errors: readonly { readonly message: string }[];
}

const REQUIRED = ['address', 'password', 'forging'] as const;
const TYPES: readonly (readonly [keyof UpdateForgingRequest, 'string' | 'boolean' | 'number'])[] = [
  ['address', 'string'],
  ['password', 'string'],
  ['forging', 'boolean'],
  ['height', 'number'],
  ['maxHeightPreviouslyForged', 'number'],
  ['maxHeightPrevoted', 'number'],
  ['overwrite', 'boolean'],
];
const HEX = /^[0-9a-f]*$/i;

export const HEIGHTS_MESSAGE =
  'The maxHeightPreviouslyForged, maxHeightPrevoted, height parameter must be specified and greater than or equal to 0.';
export const ADDRESS_NOT_HEX_MESSAGE = 'The address parameter should be a hex string.';

export const v3Error = (message: string): V3ErrorBody => ({ errors: [{ message }] });

const validatorError = (problems: string[]): V3ErrorBody =>
  v3Error(`Lisk validator found ${problems.length} error[s]:\n${problems.join('\n')}`);

const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The request, or the 400 body 3.x gave for it. */
export function validateUpdateForgingBody(body: unknown): UpdateForgingRequest | V3ErrorBody {
  if (!isJsonObject(body)) return validatorError(["Property '' should be of type 'object'"]);
  const problems: string[] = [];
  for (const key of REQUIRED) {
    if (!(key in body)) problems.push(`Missing property, must have required property '${key}'`);
  }
  for (const [key, type] of TYPES) {
    if (key in body && typeof body[key] !== type) problems.push(`Property '.${key}' should be of type '${type}'`);
  }
  if (problems.length > 0) return validatorError(problems);
  const request = body as unknown as UpdateForgingRequest;
  if (!HEX.test(request.address)) return v3Error(ADDRESS_NOT_HEX_MESSAGE);
  const heights = [request.height, request.maxHeightPreviouslyForged, request.maxHeightPrevoted];
  if (heights.some((height) => height === undefined || height < 0)) return v3Error(HEIGHTS_MESSAGE);
  return request;
}

export const isV3ErrorBody = (value: unknown): value is V3ErrorBody => isJsonObject(value) && Array.isArray(value.errors);
