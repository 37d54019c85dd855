/**
 * `validate(schema, value)`: checks a value against a lisk-codec schema (decoded values:
 * numbers, bigints, Uint8Array) or a plain JSON schema (JSON values), collecting every error as
 * `<path>: <reason>` (root = empty path, e.g. `: must be object`; nested `.header.height`,
 * `.items[2].amount`). The schema is compiled once and cached by object identity.
 */
import { ValidationError } from '../../errors.js';
import { compiledValidator } from './compile-validator.js';

/** Every validation error of `value` under `schema` (empty when valid). */
export function validationErrors(schema: object, value: unknown): string[] {
  const errors: string[] = [];
  compiledValidator(schema)(value, '', errors);
  return errors;
}

/** Throws one ValidationError listing every problem when `value` does not satisfy `schema`. */
export function validate(schema: object, value: unknown): void {
  const errors = validationErrors(schema, value);
  if (errors.length > 0) throw new ValidationError(errors);
}
