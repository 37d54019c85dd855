/**
 * The `format` values understood by `validate` (the lisk-validator formats used by SDK endpoint,
 * command and config schemas, plus the ajv-formats ones the SDK schemas use). A format applies
 * only to values of its JSON type, like ajv: string formats ignore numbers and vice versa.
 */
import { isIP, isIPv4, isIPv6 } from 'node:net';
import { isBase64 } from '../base64.js';
import { parseIntegerString } from '../integer-string.js';
import { MAX_SINT32, MAX_SINT64, MAX_UINT32, MAX_UINT64, MIN_SINT32, MIN_SINT64 } from '../limits.js';
import { isValidLisk32Address } from '../lisk32.js';

export interface Format {
  readonly appliesTo: 'string' | 'number';
  readonly test: (value: never) => boolean;
}

const HEX = /^(?:[0-9a-fA-F]{2})*$/;
/** lisk-validator's `camelCase` format; lisk-codec's meta-schema also demands it of root property names. */
export const CAMEL_CASE = /^[a-z][0-9]*([A-Z][a-z]*[a-zA-Z0-9]*|[a-z][a-z]*[a-zA-Z0-9]*)?$/;
const PATH = /^(.?)(\/[^/]+)+(\/?)$/;
const NETWORK_VERSION = /^(\d|[1-9]\d{1,2})\.(\d|[1-9]\d{1,2})$/;
const HOSTNAME = /^[a-zA-Z](([-0-9a-zA-Z]+)?[0-9a-zA-Z])?(\.[a-zA-Z](([-0-9a-zA-Z]+)?[0-9a-zA-Z])?)*$/;
// semver 2.0.0 as `semver.valid` accepts it (non-loose): optional leading "v", no leading zeros.
const NUMERIC_ID = '0|[1-9]\\d*';
const PRERELEASE_ID = '(?:0|[1-9]\\d*|\\d*[a-zA-Z-][a-zA-Z0-9-]*)';
const SEMVER = new RegExp(
  `^v?(?:${NUMERIC_ID})\\.(?:${NUMERIC_ID})\\.(?:${NUMERIC_ID})` +
    `(?:-${PRERELEASE_ID}(?:\\.${PRERELEASE_ID})*)?(?:\\+[0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*)?$`,
);
const ENCRYPTED_PASSPHRASE = /^([a-zA-Z0-9]{2,15}=[a-z0-9+-]{1,512})(?:&([a-zA-Z0-9]{2,15}=[a-z0-9+-]{1,512})){0,10}$/;

function inRange(value: string, min: bigint, max: bigint): boolean {
  const parsed = parseIntegerString(value);
  return parsed !== undefined && parsed >= min && parsed <= max;
}

const stringFormat = (test: (value: string) => boolean): Format => ({ appliesTo: 'string', test });
const numberFormat = (test: (value: number) => boolean): Format => ({ appliesTo: 'number', test });

export const FORMATS: ReadonlyMap<string, Format> = new Map<string, Format>([
  ['hex', stringFormat((value) => HEX.test(value))],
  ['lisk32', stringFormat((value) => isValidLisk32Address(value))],
  ['uint64', stringFormat((value) => inRange(value, 0n, MAX_UINT64))],
  ['int64', stringFormat((value) => inRange(value, MIN_SINT64, MAX_SINT64))],
  ['uint32', numberFormat((value) => Number.isInteger(value) && value >= 0 && value <= MAX_UINT32)],
  ['int32', numberFormat((value) => Number.isInteger(value) && value >= MIN_SINT32 && value <= MAX_SINT32)],
  ['camelCase', stringFormat((value) => CAMEL_CASE.test(value))],
  ['path', stringFormat((value) => PATH.test(value))],
  ['ip', stringFormat((value) => isIP(value) !== 0)],
  ['ipv4', stringFormat((value) => isIPv4(value))],
  ['ipv6', stringFormat((value) => isIPv6(value))],
  ['ipOrFQDN', stringFormat((value) => isIPv4(value) || HOSTNAME.test(value))],
  ['version', stringFormat((value) => value.length <= 256 && SEMVER.test(value.trim()))],
  ['networkVersion', stringFormat((value) => NETWORK_VERSION.test(value))],
  ['base64', stringFormat((value) => isBase64(value))],
  ['encryptedPassphrase', stringFormat((value) => ENCRYPTED_PASSPHRASE.test(value))],
]);
