/**
 * The lisk-codec `dataType` keyword applied to decoded values (what lisk-validator's dataType
 * keyword checks): uint32/sint32 are integer numbers in range, uint64/sint64 bigints in range,
 * bytes a Uint8Array whose byte length honours minLength/maxLength (and is 20 with
 * `format: 'lisk32'`), string and boolean their JS types.
 */
import { MAX_SINT32, MAX_SINT64, MAX_UINT32, MAX_UINT64, MIN_SINT32, MIN_SINT64 } from '../limits.js';

/** Pushes `<path>: <reason>` errors; returns false when the value failed. */
export type DataTypeCheck = (data: unknown, path: string, errors: string[]) => boolean;

function simple(dataType: string, test: (data: unknown) => boolean): DataTypeCheck {
  return (data, path, errors) => {
    if (test(data)) return true;
    errors.push(`${path}: must be ${dataType}`);
    return false;
  };
}

function bytesCheck(schema: Record<string, unknown>): DataTypeCheck {
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : undefined;
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
  const isAddress = schema.format === 'lisk32';
  return (data, path, errors) => {
    if (!(data instanceof Uint8Array)) {
      errors.push(`${path}: must be bytes`);
      return false;
    }
    const before = errors.length;
    if (minLength !== undefined && data.length < minLength) {
      errors.push(`${path}: must NOT have fewer than ${minLength} bytes`);
    }
    if (maxLength !== undefined && data.length > maxLength) {
      errors.push(`${path}: must NOT have more than ${maxLength} bytes`);
    }
    if (isAddress && data.length !== 20) errors.push(`${path}: must be 20 bytes (format lisk32)`);
    return errors.length === before;
  };
}

/** Builds the check for `schema.dataType`, or undefined when the value is not a known dataType. */
export function compileDataType(dataType: unknown, schema: Record<string, unknown>): DataTypeCheck | undefined {
  switch (dataType) {
    case 'uint32':
      return simple('uint32', (d) => typeof d === 'number' && Number.isInteger(d) && d >= 0 && d <= MAX_UINT32);
    case 'sint32':
      return simple('sint32', (d) => typeof d === 'number' && Number.isInteger(d) && d >= MIN_SINT32 && d <= MAX_SINT32);
    case 'uint64':
      return simple('uint64', (d) => typeof d === 'bigint' && d >= 0n && d <= MAX_UINT64);
    case 'sint64':
      return simple('sint64', (d) => typeof d === 'bigint' && d >= MIN_SINT64 && d <= MAX_SINT64);
    case 'string':
      return simple('string', (d) => typeof d === 'string');
    case 'boolean':
      return simple('boolean', (d) => typeof d === 'boolean');
    case 'bytes':
      return bytesCheck(schema);
    default:
      return undefined;
  }
}
