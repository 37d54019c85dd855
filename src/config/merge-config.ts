/**
 * How config layers combine (lisk-sdk's objects.mergeDeep, as lisk-commander's start uses it):
 * objects merge key by key, arrays and scalars replace, `null` and `undefined` leave the lower
 * value. One Basalt rule on top: `genesis.block` is replaced whole, because it holds one of two
 * alternatives (`fromFile` or `blob`) and merging a `blob` over a default `fromFile` would give
 * both (lisk-sdk then rejects its own merged config).
 */

type JsonObject = Record<string, unknown>;

function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value);
}

/** A deep copy of JSON-like data (objects and arrays copied, scalars shared). */
export function cloneConfigValue<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => cloneConfigValue(item)) as T;
  if (isPlainObject(value)) {
    const copy: JsonObject = {};
    for (const [key, item] of Object.entries(value)) copy[key] = cloneConfigValue(item);
    return copy as T;
  }
  return value;
}

function mergeInto(target: JsonObject, source: JsonObject, path: string): void {
  for (const [key, value] of Object.entries(source)) {
    if (value === undefined || value === null) continue;
    const keyPath = `${path}.${key}`;
    const current = target[key];
    if (isPlainObject(value) && isPlainObject(current) && keyPath !== '.genesis.block') {
      mergeInto(current, value, keyPath);
    } else {
      target[key] = cloneConfigValue(value);
    }
  }
}

/** Merges the layers from lowest to highest priority into a new object; the inputs are not changed. */
export function mergeConfigLayers(...layers: readonly (object | undefined)[]): JsonObject {
  const result: JsonObject = {};
  for (const layer of layers) {
    if (layer !== undefined) mergeInto(result, layer as JsonObject, '');
  }
  return result;
}
