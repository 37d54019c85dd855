/**
 * Well-formedness of a lisk-codec schema (LIP 0027 "Lisk JSON schemas"),
 * checked once when a schema is first compiled. The rules follow what lisk-codec + its
 * meta-schema enforce, plus what the SDK only finds out later by crashing:
 * - the root is `type: 'object'` with a `properties` object (camelCase names, as the SDK's
 *   meta-schema demands for the root);
 * - every property has exactly one of `dataType` (a scalar) or `type` ('object' | 'array');
 * - every property has an integer `fieldNumber` in 1..18999, unique among its siblings
 *   (nested objects may reuse numbers);
 * - arrays have `items`, a scalar (`dataType`) or an object schema; arrays of arrays are not
 *   allowed;
 * - `required` is an array of distinct strings; bytes `format` is hex, base64 or lisk32.
 * Not required: listing every property in `required` (LIP 0064 asks for it, but the SDK's own
 * transaction schema does not list `signatures`).
 */
import { ValidationError } from '../errors.js';
import { MAX_FIELD_NUMBER, MIN_FIELD_NUMBER } from './limits.js';
import { CAMEL_CASE } from './validator/formats.js';

const DATA_TYPES = new Set(['uint32', 'sint32', 'uint64', 'sint64', 'bytes', 'string', 'boolean']);
const BYTES_FORMATS = new Set(['hex', 'base64', 'lisk32']);
const NON_NEGATIVE_INTEGER_KEYWORDS = ['minLength', 'maxLength', 'minItems', 'maxItems'];

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkRequired(node: Node, where: string, errors: string[]): void {
  const { required } = node;
  if (required === undefined) return;
  if (!Array.isArray(required) || !required.every((name) => typeof name === 'string')) {
    errors.push(`${where}.required: must be an array of strings`);
  } else if (new Set(required).size !== required.length) {
    errors.push(`${where}.required: must not list a property twice`);
  }
}

function checkKeywords(node: Node, where: string, errors: string[]): void {
  for (const keyword of NON_NEGATIVE_INTEGER_KEYWORDS) {
    const value = node[keyword];
    if (value !== undefined && !(Number.isInteger(value) && (value as number) >= 0)) {
      errors.push(`${where}.${keyword}: must be a non-negative integer`);
    }
  }
}

function checkScalar(node: Node, where: string, errors: string[]): void {
  const { dataType, format } = node;
  if (typeof dataType !== 'string' || !DATA_TYPES.has(dataType)) {
    errors.push(`${where}.dataType: must be one of ${[...DATA_TYPES].join(', ')}`);
    return;
  }
  if (dataType === 'bytes' && format !== undefined && !(typeof format === 'string' && BYTES_FORMATS.has(format))) {
    errors.push(`${where}.format: bytes format must be one of hex, base64, lisk32`);
  }
}

function checkObject(node: Node, where: string, errors: string[], isRoot: boolean): void {
  const { properties } = node;
  if (!isNode(properties)) {
    errors.push(`${where}.properties: must be an object`);
    return;
  }
  checkRequired(node, where, errors);
  const seen = new Map<number, string>();
  for (const [name, property] of Object.entries(properties)) {
    const at = `${where}.properties.${name}`;
    if (isRoot && !CAMEL_CASE.test(name)) errors.push(`${at}: property name must be camelCase`);
    if (!isNode(property)) {
      errors.push(`${at}: must be an object`);
      continue;
    }
    const { fieldNumber } = property;
    if (!Number.isInteger(fieldNumber) || (fieldNumber as number) < MIN_FIELD_NUMBER || (fieldNumber as number) > MAX_FIELD_NUMBER) {
      errors.push(`${at}.fieldNumber: must be an integer from ${MIN_FIELD_NUMBER} to ${MAX_FIELD_NUMBER}`);
    } else {
      const other = seen.get(fieldNumber as number);
      if (other !== undefined) errors.push(`${at}.fieldNumber: ${String(fieldNumber)} is already used by '${other}'`);
      else seen.set(fieldNumber as number, name);
    }
    checkProperty(property, at, errors);
  }
}

function checkProperty(node: Node, where: string, errors: string[]): void {
  checkKeywords(node, where, errors);
  const hasDataType = node.dataType !== undefined;
  const hasType = node.type !== undefined;
  if (hasDataType === hasType) {
    errors.push(`${where}: must have exactly one of "dataType" or "type"`);
    return;
  }
  if (hasDataType) {
    checkScalar(node, where, errors);
  } else if (node.type === 'object') {
    checkObject(node, where, errors, false);
  } else if (node.type === 'array') {
    checkArrayItems(node, where, errors);
  } else {
    errors.push(`${where}.type: must be "object" or "array" (scalars use "dataType")`);
  }
}

function checkArrayItems(node: Node, where: string, errors: string[]): void {
  const { items } = node;
  const at = `${where}.items`;
  if (!isNode(items)) {
    errors.push(`${at}: must be an object`);
    return;
  }
  checkKeywords(items, at, errors);
  const hasDataType = items.dataType !== undefined;
  const hasType = items.type !== undefined;
  if (hasDataType === hasType) {
    errors.push(`${at}: must have exactly one of "dataType" or "type"`);
  } else if (hasDataType) {
    checkScalar(items, at, errors);
  } else if (items.type === 'array') {
    errors.push(`${at}: arrays of arrays are not allowed`);
  } else if (items.type === 'object') {
    checkObject(items, at, errors, false);
  } else {
    errors.push(`${at}.type: must be "object" (scalar items use "dataType")`);
  }
}

/** Lists every problem of a lisk-codec schema (empty when it is well formed). */
export function schemaProblems(schema: unknown): string[] {
  const errors: string[] = [];
  if (!isNode(schema)) return [': schema must be an object'];
  if (schema.type !== 'object') errors.push('.type: root schema must have type "object"');
  if (schema.$id !== undefined && typeof schema.$id !== 'string') errors.push('.$id: must be a string');
  if (schema.dataType !== undefined) errors.push(': root schema must not have "dataType"');
  checkObject(schema, '', errors, true);
  return errors;
}

/** Throws a ValidationError listing every problem when `schema` is not a well-formed lisk-codec schema. */
export function validateSchema(schema: object): void {
  const errors = schemaProblems(schema);
  if (errors.length > 0) throw new ValidationError(errors);
}
