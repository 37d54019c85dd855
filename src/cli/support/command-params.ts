/**
 * The params of a transaction command, from JSON or from questions (commander
 * transaction/create.ts): `--params` JSON, a params file, or one prompt per property of the
 * command's params schema (`Please enter: <name>: `; arrays of scalars comma-separated; arrays of
 * objects one item per prompt, `Want to enter another <name>? (y/N) ` after each), then checked and
 * encoded with the schema.
 */
import { codec, validate, type ObjectItems, type Schema, type SchemaProperty } from '../../codec/index.js';
import { UsageError } from '../command.js';
import type { Prompter } from './prompt.js';

type JsonValue = string | number | boolean | JsonValue[] | { [key: string]: JsonValue };

const isBig = (dataType: string | undefined): boolean => dataType === 'uint64' || dataType === 'sint64';
const isSmall = (dataType: string | undefined): boolean => dataType === 'uint32' || dataType === 'sint32';

/** One typed answer: numbers for 32-bit integers, booleans, strings for everything else. */
function scalarFromAnswer(answer: string, dataType: string | undefined): JsonValue {
  const text = answer.trim();
  if (isSmall(dataType) && /^-?\d+$/.test(text)) return Number(text);
  if (dataType === 'boolean') {
    if (text === 'true') return true;
    if (text === 'false') return false;
  }
  return text;
}

/** Asks for every property of `properties`, in schema order (nested objects as `parent.child`). */
async function askProperties(
  properties: Record<string, SchemaProperty>,
  prompter: Prompter,
  prefix: string,
): Promise<Record<string, JsonValue>> {
  const result: Record<string, JsonValue> = {};
  for (const [name, property] of Object.entries(properties)) {
    const label = `${prefix}${name}`;
    if (property.type === 'array') {
      const items = property.items;
      if (items.type === 'object') {
        result[name] = await askObjectItems(label, items, prompter);
      } else {
        const answer = await prompter.line(`Please enter: ${label}(comma separated values (a,b)): `);
        result[name] = answer.trim() === '' ? [] : answer.split(',').map((part) => scalarFromAnswer(part, items.dataType));
      }
    } else if (property.type === 'object') {
      result[name] = await askProperties(property.properties, prompter, `${label}.`);
    } else {
      result[name] = scalarFromAnswer(await prompter.line(`Please enter: ${label}: `), property.dataType);
    }
  }
  return result;
}

/** Items of an array of objects: one comma-separated line per item, as Lisk asks. */
async function askObjectItems(label: string, items: ObjectItems, prompter: Prompter): Promise<JsonValue[]> {
  const names = Object.keys(items.properties);
  const list: JsonValue[] = [];
  for (;;) {
    const parts = (await prompter.line(`Please enter: ${label}(${names.join(',')}): `)).split(',');
    const item: Record<string, JsonValue> = {};
    names.forEach((field, i) => {
      const property = items.properties[field] as SchemaProperty;
      item[field] = scalarFromAnswer(parts[i] ?? '', property.type === undefined ? property.dataType : undefined);
    });
    list.push(item);
    const again = (await prompter.line(`Want to enter another ${label}? (y/N) `)).trim().toLowerCase();
    if (again !== 'y' && again !== 'yes') return list;
  }
}

/** Asks for the params `schema` describes (lisk-core transaction:create's prompts). */
export function promptParams(schema: Schema, prompter: Prompter): Promise<Record<string, JsonValue>> {
  return askProperties(schema.properties, prompter, '');
}

/**
 * The codec JSON form of `json` under `schema` with one convenience of lisk-sdk's fromJSON kept:
 * uint64/sint64 values may be JSON numbers (as in Lisk's own examples, `"amount":100000000`)
 * when they are safe integers; they become decimal strings.
 */
function normalize(property: SchemaProperty | Schema | ObjectItems, value: unknown): unknown {
  if (property.type === 'object') {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const [name, child] of Object.entries(property.properties)) {
      if (name in out) out[name] = normalize(child, out[name]);
    }
    return out;
  }
  if (property.type === 'array') {
    if (!Array.isArray(value)) return value;
    const items = property.items;
    return value.map((item) => (items.type === 'object' ? normalize(items, item) : normalizeScalar(items.dataType, item)));
  }
  return normalizeScalar(property.dataType, value);
}

function normalizeScalar(dataType: string | undefined, value: unknown): unknown {
  return isBig(dataType) && typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
}

/**
 * The encoded params of `json` under `schema`; UsageError (exit 1) naming the field for
 * anything that does not fit. Messages name paths and reasons, never values.
 */
export function encodeParams(schema: Schema, json: unknown): { bytes: Buffer; value: Record<string, unknown> } {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new UsageError('The params must be a JSON object.');
  let value: Record<string, unknown>;
  try {
    value = codec.fromJSON(schema, normalize(schema, json) as object) as Record<string, unknown>;
    validate(schema, value);
  } catch (error) {
    throw new UsageError(`Invalid params: ${(error as Error).message}`);
  }
  return { bytes: codec.encode(schema, value), value };
}
