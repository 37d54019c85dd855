/**
 * Compiles a JSON schema (a lisk-codec schema or a plain JSON schema as used by SDK endpoint,
 * command and config schemas) into a function that appends every error as `<path>: <reason>`.
 * Messages follow ajv's wording (`must be object`, `must have required property 'fee'`, ...);
 * paths are `.a.b[2].c`, the root being the empty path.
 *
 * Keywords: type, dataType, enum, const, minLength, maxLength, pattern, format, minimum,
 * maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, items, minItems, maxItems,
 * uniqueItems, properties, required, additionalProperties, patternProperties, propertyNames,
 * minProperties, maxProperties, allOf, anyOf, oneOf, not. Annotation keywords ($id, title,
 * description, default, examples, fieldNumber, ...) are ignored; `$ref` and conditional keywords
 * are refused when the schema is compiled, so that a schema never half-validates silently.
 */
import { ValidationError } from '../../errors.js';
import { compileDataType } from './data-type-check.js';
import { deepEqual } from './deep-equal.js';
import { FORMATS } from './formats.js';

export type Check = (data: unknown, path: string, errors: string[]) => void;
type Node = Record<string, unknown>;

const UNSUPPORTED = [
  '$ref',
  'if',
  'then',
  'else',
  'dependencies',
  'dependentRequired',
  'dependentSchemas',
  'contains',
  'prefixItems',
  'unevaluatedProperties',
  'unevaluatedItems',
];
const JSON_TYPES = new Set(['object', 'array', 'string', 'integer', 'number', 'boolean', 'null']);

function schemaError(where: string, reason: string): never {
  throw new ValidationError([`schema ${where}: ${reason}`]);
}

function isPlainObject(data: unknown): data is Record<string, unknown> {
  return typeof data === 'object' && data !== null && !Array.isArray(data);
}

function hasType(type: string, data: unknown): boolean {
  switch (type) {
    case 'object':
      return isPlainObject(data);
    case 'array':
      return Array.isArray(data);
    case 'string':
      return typeof data === 'string';
    case 'integer':
      return typeof data === 'number' && Number.isInteger(data);
    case 'number':
      return typeof data === 'number' && Number.isFinite(data);
    case 'boolean':
      return typeof data === 'boolean';
    default:
      return data === null;
  }
}

/** Length in code points, as ajv counts it (a surrogate pair is one character). */
function characterCount(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i += 1) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      count -= 1;
      i += 1;
    }
  }
  return count;
}

function numberOf(node: Node, keyword: string, where: string): number | undefined {
  const value = node[keyword];
  if (value === undefined) return undefined;
  if (typeof value !== 'number') return schemaError(where, `"${keyword}" must be a number`);
  return value;
}

function isNumeric(data: unknown): data is number | bigint {
  return typeof data === 'number' || typeof data === 'bigint';
}

interface TypeCheck {
  readonly test: (data: unknown) => boolean;
  readonly label: string;
}

function compileTypeCheck(node: Node, where: string): TypeCheck | undefined {
  const { type } = node;
  if (type === undefined) return undefined;
  const types = Array.isArray(type) ? type : [type];
  for (const t of types) if (typeof t !== 'string' || !JSON_TYPES.has(t)) schemaError(where, `unknown type ${JSON.stringify(t)}`);
  const names = types as string[];
  const label = names.join(',');
  // No closure per call: the validator runs on every RPC request's params.
  if (names.length === 1) {
    const only = names[0] as string;
    return { test: (data) => hasType(only, data), label };
  }
  return {
    test: (data) => {
      for (const name of names) if (hasType(name, data)) return true;
      return false;
    },
    label,
  };
}

function compileValueKeywords(node: Node, where: string, checks: Check[]): void {
  if (node.enum !== undefined) {
    const allowed = node.enum;
    if (!Array.isArray(allowed)) schemaError(where, '"enum" must be an array');
    checks.push((data, path, errors) => {
      if (!allowed.some((option) => deepEqual(option, data))) errors.push(`${path}: must be equal to one of the allowed values`);
    });
  }
  if ('const' in node) {
    const expected = node.const;
    checks.push((data, path, errors) => {
      if (!deepEqual(expected, data)) errors.push(`${path}: must be equal to constant`);
    });
  }
}

function compileNumberKeywords(node: Node, where: string, checks: Check[]): void {
  const bounds: [string, (data: number | bigint, limit: number) => boolean, string][] = [
    ['minimum', (d, l) => d >= l, '>='],
    ['maximum', (d, l) => d <= l, '<='],
    ['exclusiveMinimum', (d, l) => d > l, '>'],
    ['exclusiveMaximum', (d, l) => d < l, '<'],
  ];
  for (const [keyword, holds, operator] of bounds) {
    const limit = numberOf(node, keyword, where);
    if (limit === undefined) continue;
    checks.push((data, path, errors) => {
      if (isNumeric(data) && !holds(data, limit)) errors.push(`${path}: must be ${operator} ${limit}`);
    });
  }
  const multipleOf = numberOf(node, 'multipleOf', where);
  if (multipleOf !== undefined) {
    checks.push((data, path, errors) => {
      if (typeof data === 'number' && !Number.isInteger(data / multipleOf)) errors.push(`${path}: must be multiple of ${multipleOf}`);
    });
  }
}

function compileStringKeywords(node: Node, where: string, checks: Check[]): void {
  const minLength = numberOf(node, 'minLength', where);
  const maxLength = numberOf(node, 'maxLength', where);
  if (minLength !== undefined || maxLength !== undefined) {
    checks.push((data, path, errors) => {
      if (typeof data !== 'string') return;
      const count = characterCount(data);
      if (minLength !== undefined && count < minLength) errors.push(`${path}: must NOT have fewer than ${minLength} characters`);
      if (maxLength !== undefined && count > maxLength) errors.push(`${path}: must NOT have more than ${maxLength} characters`);
    });
  }
  if (node.pattern !== undefined) {
    if (typeof node.pattern !== 'string') schemaError(where, '"pattern" must be a string');
    const source = node.pattern;
    const regex = new RegExp(source, 'u');
    checks.push((data, path, errors) => {
      if (typeof data === 'string' && !regex.test(data)) errors.push(`${path}: must match pattern "${source}"`);
    });
  }
  if (node.format !== undefined) {
    const name = node.format;
    const format = typeof name === 'string' ? FORMATS.get(name) : undefined;
    if (format === undefined) {
      // Bytes formats of codec schemas only change the JSON form; dataType checks the bytes.
      if (node.dataType !== undefined && (name === 'hex' || name === 'base64' || name === 'lisk32')) return;
      schemaError(where, `unknown format ${JSON.stringify(name)}`);
    }
    const test = format.test as (value: unknown) => boolean;
    checks.push((data, path, errors) => {
      if (typeof data === format.appliesTo && !test(data)) errors.push(`${path}: must match format "${String(name)}"`);
    });
  }
}

function compileArrayKeywords(node: Node, where: string, checks: Check[]): void {
  const minItems = numberOf(node, 'minItems', where);
  const maxItems = numberOf(node, 'maxItems', where);
  if (minItems !== undefined || maxItems !== undefined) {
    checks.push((data, path, errors) => {
      if (!Array.isArray(data)) return;
      if (minItems !== undefined && data.length < minItems) errors.push(`${path}: must NOT have fewer than ${minItems} items`);
      if (maxItems !== undefined && data.length > maxItems) errors.push(`${path}: must NOT have more than ${maxItems} items`);
    });
  }
  if (node.uniqueItems === true) {
    checks.push((data, path, errors) => {
      if (!Array.isArray(data)) return;
      for (let i = 1; i < data.length; i += 1) {
        for (let j = 0; j < i; j += 1) {
          if (deepEqual(data[i], data[j])) {
            errors.push(`${path}: must NOT have duplicate items (items ## ${i} and ${j} are identical)`);
            return;
          }
        }
      }
    });
  }
  const { items } = node;
  if (Array.isArray(items)) {
    const itemChecks = items.map((item, i) => compileNode(item, `${where}/items/${i}`));
    checks.push((data, path, errors) => {
      if (!Array.isArray(data)) return;
      const count = Math.min(data.length, itemChecks.length);
      for (let i = 0; i < count; i += 1) (itemChecks[i] as Check)(data[i], `${path}[${i}]`, errors);
    });
  } else if (items !== undefined) {
    const itemCheck = compileNode(items, `${where}/items`);
    checks.push((data, path, errors) => {
      if (!Array.isArray(data)) return;
      for (let i = 0; i < data.length; i += 1) itemCheck(data[i], `${path}[${i}]`, errors);
    });
  }
}

function compileObjectKeywords(node: Node, where: string, checks: Check[]): void {
  if (node.required !== undefined) {
    const { required } = node;
    if (!Array.isArray(required) || !required.every((name) => typeof name === 'string')) {
      schemaError(where, '"required" must be an array of strings');
    }
    checks.push((data, path, errors) => {
      if (!isPlainObject(data)) return;
      for (const name of required as string[]) {
        if (data[name] === undefined) errors.push(`${path}: must have required property '${name}'`);
      }
    });
  }
  const properties = node.properties === undefined ? {} : node.properties;
  if (!isPlainObject(properties)) schemaError(where, '"properties" must be an object');
  // Each property's path suffix is made once: at the root (path '') `path + suffix` is the
  // suffix itself, so valid params cost no string per property.
  const propertyChecks = Object.entries(properties).map(
    ([name, sub]) => ({ name, suffix: `.${name}`, check: compileNode(sub, `${where}/properties/${name}`) }) as const,
  );
  if (propertyChecks.length > 0) {
    checks.push((data, path, errors) => {
      if (!isPlainObject(data)) return;
      for (const { name, suffix, check } of propertyChecks) {
        const value = data[name];
        if (value !== undefined) check(value, path + suffix, errors);
      }
    });
  }
  const patternSource = node.patternProperties === undefined ? {} : node.patternProperties;
  if (!isPlainObject(patternSource)) schemaError(where, '"patternProperties" must be an object');
  const patternChecks = Object.entries(patternSource).map(
    ([pattern, sub]) => [new RegExp(pattern, 'u'), compileNode(sub, `${where}/patternProperties/${pattern}`)] as const,
  );
  if (patternChecks.length > 0) {
    checks.push((data, path, errors) => {
      if (!isPlainObject(data)) return;
      for (const key of Object.keys(data)) {
        for (const [regex, check] of patternChecks) if (regex.test(key)) check(data[key], `${path}.${key}`, errors);
      }
    });
  }
  const additional = node.additionalProperties;
  if (additional !== undefined && additional !== true) {
    const known = new Set(Object.keys(properties));
    const isAdditional = (key: string): boolean => !known.has(key) && !patternChecks.some(([regex]) => regex.test(key));
    const additionalCheck = additional === false ? undefined : compileNode(additional, `${where}/additionalProperties`);
    checks.push((data, path, errors) => {
      if (!isPlainObject(data)) return;
      for (const key of Object.keys(data)) {
        if (!isAdditional(key)) continue;
        if (additionalCheck === undefined) errors.push(`${path}: must NOT have additional properties ('${key}')`);
        else additionalCheck(data[key], `${path}.${key}`, errors);
      }
    });
  }
  if (node.propertyNames !== undefined) {
    const nameCheck = compileNode(node.propertyNames, `${where}/propertyNames`);
    checks.push((data, path, errors) => {
      if (!isPlainObject(data)) return;
      for (const key of Object.keys(data)) {
        const nameErrors: string[] = [];
        nameCheck(key, '', nameErrors);
        if (nameErrors.length > 0) errors.push(`${path}: property name '${key}' is invalid`);
      }
    });
  }
  const minProperties = numberOf(node, 'minProperties', where);
  const maxProperties = numberOf(node, 'maxProperties', where);
  if (minProperties !== undefined || maxProperties !== undefined) {
    checks.push((data, path, errors) => {
      if (!isPlainObject(data)) return;
      const count = Object.keys(data).length;
      if (minProperties !== undefined && count < minProperties)
        errors.push(`${path}: must NOT have fewer than ${minProperties} properties`);
      if (maxProperties !== undefined && count > maxProperties) errors.push(`${path}: must NOT have more than ${maxProperties} properties`);
    });
  }
}

function subSchemas(node: Node, keyword: string, where: string): Check[] | undefined {
  const list = node[keyword];
  if (list === undefined) return undefined;
  if (!Array.isArray(list) || list.length === 0) schemaError(where, `"${keyword}" must be a non-empty array`);
  return list.map((sub, i) => compileNode(sub, `${where}/${keyword}/${i}`));
}

function passes(check: Check, data: unknown): boolean {
  const scratch: string[] = [];
  check(data, '', scratch);
  return scratch.length === 0;
}

function compileCombinators(node: Node, where: string, checks: Check[]): void {
  const allOf = subSchemas(node, 'allOf', where);
  if (allOf) {
    checks.push((data, path, errors) => {
      for (const check of allOf) check(data, path, errors);
    });
  }
  const anyOf = subSchemas(node, 'anyOf', where);
  if (anyOf) {
    checks.push((data, path, errors) => {
      if (!anyOf.some((check) => passes(check, data))) errors.push(`${path}: must match a schema in anyOf`);
    });
  }
  const oneOf = subSchemas(node, 'oneOf', where);
  if (oneOf) {
    checks.push((data, path, errors) => {
      if (oneOf.filter((check) => passes(check, data)).length !== 1) errors.push(`${path}: must match exactly one schema in oneOf`);
    });
  }
  if (node.not !== undefined) {
    const not = compileNode(node.not, `${where}/not`);
    checks.push((data, path, errors) => {
      if (passes(not, data)) errors.push(`${path}: must NOT be valid`);
    });
  }
}

function compileNode(schema: unknown, where: string): Check {
  if (schema === true) return () => {};
  if (schema === false) return (_data, path, errors) => void errors.push(`${path}: boolean schema is false`);
  if (!isPlainObject(schema)) return schemaError(where, 'must be an object or a boolean');
  for (const keyword of UNSUPPORTED) if (keyword in schema) schemaError(where, `unsupported keyword "${keyword}"`);

  const type = compileTypeCheck(schema, where);
  const dataType = schema.dataType === undefined ? undefined : compileDataType(schema.dataType, schema);
  if (schema.dataType !== undefined && dataType === undefined) schemaError(where, `unknown dataType ${JSON.stringify(schema.dataType)}`);

  const checks: Check[] = [];
  compileValueKeywords(schema, where, checks);
  compileNumberKeywords(schema, where, checks);
  // For bytes, minLength/maxLength count bytes and are checked by dataType; for strings they
  // count characters (ajv applies them to strings only, so bytes values are unaffected here).
  compileStringKeywords(schema, where, checks);
  compileArrayKeywords(schema, where, checks);
  compileObjectKeywords(schema, where, checks);
  compileCombinators(schema, where, checks);

  return (data, path, errors) => {
    // A value of the wrong type gets one error, not a cascade from keywords that cannot apply.
    if (type !== undefined && !type.test(data)) {
      errors.push(`${path}: must be ${type.label}`);
      return;
    }
    if (dataType !== undefined && !dataType(data, path, errors)) return;
    for (const check of checks) check(data, path, errors);
  };
}

const compiledValidators = new WeakMap<object, Check>();

/** The compiled check of a schema object, cached by object identity. */
export function compiledValidator(schema: object): Check {
  let check = compiledValidators.get(schema);
  if (check === undefined) {
    check = compileNode(schema, '#');
    compiledValidators.set(schema, check);
  }
  return check;
}
