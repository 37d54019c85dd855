/**
 * Validation of the forging endpoints' input with Core 2.x's answer shape (cli_migration.md
 * §6.2): 400 `{"message":"Validation errors","errors":[{code, message, in, name, errors:[{code,
 * message, path}]}]}`, the outer entry naming the parameter (`data` is the PUT body) and the inner
 * ones the z-schema checks Core's swagger layer ran. No message repeats a password.
 */

export interface SchemaProblem {
  readonly code: string;
  readonly message: string;
  readonly path: readonly string[];
}

export interface ParameterError {
  readonly code: string;
  readonly message: string;
  readonly in: 'body' | 'query';
  readonly name: string;
  readonly errors: readonly SchemaProblem[];
}

export interface ValidationErrorBody {
  readonly message: 'Validation errors';
  readonly errors: readonly ParameterError[];
}

export interface ForgingToggleRequest {
  readonly publicKey: string;
  readonly password: string;
  readonly forging: boolean;
}

export type Validated<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: ValidationErrorBody };

/** `publicKey` format of Core's swagger: empty or 64 hex characters, any case. */
const PUBLIC_KEY_FORMAT = /^([0-9a-fA-F]{64})?$/;
const PASSWORD_MIN_LENGTH = 5;
/** Keeps echoed input short in answers. */
const ECHO_LIMIT = 128;

const typeName = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;

const wrongType = (expected: string, value: unknown, path: string[]): SchemaProblem => ({
  code: 'INVALID_TYPE',
  message: `Expected type ${expected} but found type ${typeName(value)}`,
  path,
});

const badFormat = (value: string, path: string[]): SchemaProblem => ({
  code: 'INVALID_FORMAT',
  message: `Object didn't pass validation for format publicKey: ${value.slice(0, ECHO_LIMIT)}`,
  path,
});

const validationErrors = (parameter: ParameterError): ValidationErrorBody => ({ message: 'Validation errors', errors: [parameter] });

const bodyError = (errors: SchemaProblem[]): ValidationErrorBody =>
  validationErrors({
    code: 'SCHEMA_VALIDATION_FAILED',
    message: 'Request validation failed: Parameter (data) failed schema validation',
    in: 'body',
    name: 'data',
    errors,
  });

/** The 400 body for a PUT whose body is not JSON (Basalt's; Core's parser answered with an HTML page). */
export const INVALID_JSON_BODY: ValidationErrorBody = validationErrors({
  code: 'INVALID_REQUEST_PAYLOAD',
  message: 'Request body is not valid JSON',
  in: 'body',
  name: 'data',
  errors: [],
});

/** PUT /api/node/status/forging body: {publicKey, password, forging}, all required. */
export function validateToggleBody(body: unknown): Validated<ForgingToggleRequest> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, error: bodyError([wrongType('object', body, [])]) };
  const fields = body as Record<string, unknown>;
  const problems: SchemaProblem[] = [];
  for (const name of ['publicKey', 'password', 'forging']) {
    if (!(name in fields)) problems.push({ code: 'OBJECT_MISSING_REQUIRED_PROPERTY', message: `Missing required property: ${name}`, path: [] });
  }
  const { publicKey, password, forging } = fields;
  if (publicKey !== undefined) {
    if (typeof publicKey !== 'string') problems.push(wrongType('string', publicKey, ['publicKey']));
    else if (publicKey === '' || !PUBLIC_KEY_FORMAT.test(publicKey)) problems.push(badFormat(publicKey, ['publicKey']));
  }
  if (password !== undefined) {
    if (typeof password !== 'string') problems.push(wrongType('string', password, ['password']));
    else if (password.length < PASSWORD_MIN_LENGTH) {
      problems.push({ code: 'MIN_LENGTH', message: `String is too short (${password.length} chars), minimum ${PASSWORD_MIN_LENGTH}`, path: ['password'] });
    }
  }
  if (forging !== undefined && typeof forging !== 'boolean') problems.push(wrongType('boolean', forging, ['forging']));
  if (problems.length > 0) return { ok: false, error: bodyError(problems) };
  return { ok: true, value: { publicKey: publicKey as string, password: password as string, forging: forging as boolean } };
}

/** GET /api/node/status/forging query: optional `publicKey`, "" or 64 hex; "" means none. */
export function validateForgingQuery(query: string): Validated<{ publicKey?: string }> {
  const values = new URLSearchParams(query).getAll('publicKey');
  if (values.length === 0) return { ok: true, value: {} };
  const parameterError = (problem: SchemaProblem): Validated<{ publicKey?: string }> => ({
    ok: false,
    error: validationErrors({
      code: 'INVALID_REQUEST_PARAMETER',
      message: 'Invalid parameter (publicKey): Value failed JSON Schema validation',
      in: 'query',
      name: 'publicKey',
      errors: [problem],
    }),
  });
  if (values.length > 1) return parameterError(wrongType('string', values, []));
  const publicKey = values[0] as string;
  if (!PUBLIC_KEY_FORMAT.test(publicKey)) return parameterError(badFormat(publicKey, []));
  return { ok: true, value: publicKey === '' ? {} : { publicKey } };
}
