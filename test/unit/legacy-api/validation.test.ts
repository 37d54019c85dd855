/** Body and query validation of the legacy forging API, with Lisk Core 2.x's 400 shape. */
import { describe, expect, it } from 'vitest';
import {
  isValidationFailure,
  malformedBody,
  validatePublicKeyQuery,
  validateToggleBody,
  type ValidationFailure,
} from '../../../src/legacy-api/validation.js';

const PK = 'ab'.repeat(32);

describe('validateToggleBody', () => {
  it('accepts {publicKey, password, forging}', () => {
    expect(validateToggleBody({ publicKey: PK, password: 'secret', forging: true })).toEqual({
      publicKey: PK,
      password: 'secret',
      forging: true,
    });
    // Upper-case hex passes the format check (the toggle then finds no entry).
    expect(isValidationFailure(validateToggleBody({ publicKey: PK.toUpperCase(), password: 'secret', forging: false }))).toBe(false);
  });

  it('reports one error with its own message', () => {
    expect(validateToggleBody({ publicKey: PK, password: 'secret' })).toEqual({
      message: 'Validation errors',
      errors: [
        {
          code: 'INVALID_REQUEST_PARAMETER',
          errors: [{ code: 'OBJECT_MISSING_REQUIRED_PROPERTY', message: 'Missing required property: forging', path: [] }],
          in: 'body',
          message: 'Invalid parameter (data): Missing required property: forging',
          name: 'data',
        },
      ],
    });
  });

  it('reports several errors under "Value failed JSON Schema validation", never echoing the password', () => {
    const failure = validateToggleBody({ publicKey: 'xyz', password: 'pw1', forging: 'yes' });
    expect(isValidationFailure(failure)).toBe(true);
    const [parameter] = (failure as ValidationFailure).errors;
    expect(parameter?.message).toBe('Invalid parameter (data): Value failed JSON Schema validation');
    expect(parameter?.errors).toEqual([
      { code: 'INVALID_FORMAT', message: "Object didn't pass validation for format publicKey: xyz", path: ['publicKey'] },
      { code: 'MIN_LENGTH', message: 'String is too short (3 chars), minimum 5', path: ['password'] },
      { code: 'INVALID_TYPE', message: 'Expected type boolean but found type string', path: ['forging'] },
    ]);
    expect(JSON.stringify(failure)).not.toContain('pw1');
  });

  it('refuses non-objects and wrong types', () => {
    for (const body of [null, [], 'text', 5]) expect(isValidationFailure(validateToggleBody(body))).toBe(true);
    const failure = validateToggleBody({ publicKey: 1, password: 123456, forging: true });
    expect(JSON.stringify(failure)).toContain('Expected type string but found type number');
  });

  it('has a stable answer for a body that is not JSON', () => {
    expect(malformedBody().errors[0]?.message).toBe('Invalid parameter (data): Request body is not valid JSON');
  });
});

describe('validatePublicKeyQuery', () => {
  it('takes an absent or empty value as no filter and checks the format otherwise', () => {
    expect(validatePublicKeyQuery(undefined)).toBeUndefined();
    expect(validatePublicKeyQuery('')).toBeUndefined();
    expect(validatePublicKeyQuery(PK)).toBe(PK);
    const failure = validatePublicKeyQuery('zz');
    expect(isValidationFailure(failure)).toBe(true);
    expect((failure as ValidationFailure).errors[0]).toMatchObject({ in: 'query', name: 'publicKey' });
  });
});
