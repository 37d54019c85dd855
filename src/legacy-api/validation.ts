/**
 * Request validation of the legacy forging API with Lisk Core 2.x's answer (its http_api swagger
 * pipeline): 400
 * `{"message":"Validation errors","errors":[{code,message,in,name,errors:[{code,message,path}]}]}`,
 * the shape swagger-node-runner gives z-schema failures. The outer message is the single inner
 * message, or "Value failed JSON Schema validation" when there are several. Messages never
 * repeat a password.
 */

export interface SchemaError {
  readonly code: string;
  readonly message: string;
  readonly path: readonly string[];
}

export interface ParameterError {
  readonly code: 'INVALID_REQUEST_PARAMETER';
  readonly errors: readonly SchemaError[];
  readonly in: 'body' | 'query';
  readonly message: string;
  readonly name: string;
}

export interface ValidationFailure {
  readonly message: 'Validation errors';
  readonly errors: readonly ParameterError[];
}

export interface ForgingToggleRequest {
  readonly publicKey: string;
  readonly password: string;
  readonly forging: boolean;
}

/** The body parameter's name in Lisk Core's swagger definition of PUT /node/status/forging. */
export const BODY_PARAMETER = 'data';
const PUBLIC_KEY = /^[0-9a-fA-F]{64}$/;
const MIN_PASSWORD_LENGTH = 5;

const typeName = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

function failure(where: 'body' | 'query', name: string, errors: SchemaError[]): ValidationFailure {
  const message = errors.length === 1 ? (errors[0] as SchemaError).message : 'Value failed JSON Schema validation';
  return {
    message: 'Validation errors',
    errors: [{ code: 'INVALID_REQUEST_PARAMETER', errors, in: where, message: `Invalid parameter (${name}): ${message}`, name }],
  };
}

/** A body that is not JSON at all: same envelope, so clients parse one shape of 400. */
export function malformedBody(): ValidationFailure {
  return failure('body', BODY_PARAMETER, [{ code: 'INVALID_JSON', message: 'Request body is not valid JSON', path: [] }]);
}

const formatError = (format: string, value: string, path: string[]): SchemaError => ({
  code: 'INVALID_FORMAT',
  message: `Object didn't pass validation for format ${format}: ${value}`,
  path,
});

/** `{publicKey: 64-hex, password: string ≥ 5 chars, forging: boolean}`, all required (2.x swagger.yml). */
export function validateToggleBody(body: unknown): ForgingToggleRequest | ValidationFailure {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return failure('body', BODY_PARAMETER, [
      { code: 'INVALID_TYPE', message: `Expected type object but found type ${typeName(body)}`, path: [] },
    ]);
  }
  const errors: SchemaError[] = [];
  const record = body as Record<string, unknown>;
  for (const key of ['publicKey', 'password', 'forging']) {
    if (!(key in record)) errors.push({ code: 'OBJECT_MISSING_REQUIRED_PROPERTY', message: `Missing required property: ${key}`, path: [] });
  }
  const { publicKey, password, forging } = record;
  if (publicKey !== undefined) {
    if (typeof publicKey !== 'string') {
      errors.push({ code: 'INVALID_TYPE', message: `Expected type string but found type ${typeName(publicKey)}`, path: ['publicKey'] });
    } else if (!PUBLIC_KEY.test(publicKey)) {
      errors.push(formatError('publicKey', publicKey, ['publicKey']));
    }
  }
  if (password !== undefined) {
    if (typeof password !== 'string') {
      errors.push({ code: 'INVALID_TYPE', message: `Expected type string but found type ${typeName(password)}`, path: ['password'] });
    } else if (password.length < MIN_PASSWORD_LENGTH) {
      // The length only: z-schema says the same, and the password stays out of the answer.
      errors.push({
        code: 'MIN_LENGTH',
        message: `String is too short (${password.length} chars), minimum ${MIN_PASSWORD_LENGTH}`,
        path: ['password'],
      });
    }
  }
  if (forging !== undefined && typeof forging !== 'boolean') {
    errors.push({ code: 'INVALID_TYPE', message: `Expected type boolean but found type ${typeName(forging)}`, path: ['forging'] });
  }
  if (errors.length > 0) return failure('body', BODY_PARAMETER, errors);
  return { publicKey: publicKey as string, password: password as string, forging: forging as boolean };
}

/** The optional `publicKey` query of GET /node/status/forging: "" or 64 hex (2.x swagger.yml). */
export function validatePublicKeyQuery(value: string | undefined): string | undefined | ValidationFailure {
  if (value === undefined || value === '') return undefined;
  if (!PUBLIC_KEY.test(value)) return failure('query', 'publicKey', [formatError('publicKey', value, [])]);
  return value;
}

export const isValidationFailure = (value: unknown): value is ValidationFailure =>
  typeof value === 'object' && value !== null && (value as { message?: unknown }).message === 'Validation errors';
