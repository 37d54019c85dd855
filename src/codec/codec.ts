/**
 * The lisk-codec API (LIP 0027 + LIP 0064; docs/protocol/codec.md): binary encode/decode and the
 * codec JSON form. Each schema object is validated and compiled once; the compiled functions
 * are cached in a WeakMap keyed by the schema object itself (schema `$id`s are not unique
 * across fixture files and modules, so they cannot be the key). A schema must not be mutated
 * after its first use.
 */
import type { Schema } from './types.js';
import { type BytesMode, compileDecoder } from './decoder.js';
import { compileEncoder } from './encoder.js';
import { type FastDecoder, compileFastDecoder } from './fast-decoder.js';
import { compileFastEncoder } from './fast-encoder.js';
import { compileFromJson } from './from-json.js';
import { type ObjectLayout, buildLayout } from './layout.js';
import { compileToJson } from './to-json.js';
import { validateSchema } from './validate-schema.js';
import { DecodeError } from '../errors.js';
import { bufferView } from './buffer-view.js';

interface CompiledSchema {
  encode: (value: object) => Buffer;
  decode: (bytes: Uint8Array) => Record<string, unknown>;
  /** Compiled on first use: few schemas are ever decoded this way. */
  decodeViews: ((bytes: Uint8Array) => Record<string, unknown>) | undefined;
  /** The fast view decoder alone, compiled on first use (decodeCanonicalViews). */
  canonicalViews: FastDecoder | undefined;
  layout: ObjectLayout;
  toJSON: (value: object) => Record<string, unknown>;
  fromJSON: (json: object) => Record<string, unknown>;
}

const compiledSchemas = new WeakMap<object, CompiledSchema>();

/**
 * The fast decoder takes canonical input; the general one, compiled on the first input the fast
 * one gives up on, gives every other input its value or its DecodeError (fast-decoder.ts).
 */
function compileDecode(layout: ObjectLayout, bytesMode: BytesMode): (bytes: Uint8Array) => Record<string, unknown> {
  const fast = compileFastDecoder(layout, bytesMode);
  let general: ((bytes: Uint8Array) => Record<string, unknown>) | undefined;
  return (bytes) => {
    if (!(bytes instanceof Uint8Array)) throw new DecodeError('Cannot decode: input must be a Uint8Array');
    const input = bufferView(bytes);
    const value = fast(input);
    if (value !== undefined) return value;
    general ??= compileDecoder(layout, bytesMode);
    return general(input);
  };
}

function compiled(schema: Schema): CompiledSchema {
  let entry = compiledSchemas.get(schema);
  if (entry === undefined) {
    validateSchema(schema);
    const layout = buildLayout(schema);
    const fast = compileFastEncoder(layout);
    const general = compileEncoder(layout);
    entry = {
      // The fast encoder takes the plain values; the general one gives every other value its
      // bytes or its EncodeError (fast-encoder.ts).
      encode: (value) => fast(value) ?? general(value),
      decode: compileDecode(layout, 'copy'),
      decodeViews: undefined,
      canonicalViews: undefined,
      layout,
      toJSON: compileToJson(layout),
      fromJSON: compileFromJson(layout),
    };
    compiledSchemas.set(schema, entry);
  }
  return entry;
}

export const codec = {
  /**
   * Encodes a value (numbers for uint32/sint32, bigints for uint64/sint64, Uint8Array for bytes)
   * into canonical lisk-codec bytes. Throws EncodeError naming the property
   * path for a wrong type, an out-of-range integer or a missing required property; throws
   * ValidationError for a malformed schema.
   */
  encode(schema: Schema, value: object): Buffer {
    return compiled(schema).encode(value);
  },

  /**
   * Decodes bytes with every acceptance rule of the SDK decoder (docs/protocol/codec.md); throws
   * DecodeError otherwise. Returned bytes fields are copies, never views into `bytes`.
   */
  decode<T = Record<string, unknown>>(schema: Schema, bytes: Uint8Array): T {
    return compiled(schema).decode(bytes) as T;
  },

  /**
   * As `decode`, but bytes fields are views into `bytes`, not copies: for input that is decoded
   * again at once (a block's nested encodings) or that the caller hands over for good (a private
   * copy of a block). Changing `bytes` afterwards changes the decoded value; keeping one field
   * keeps all of `bytes` alive.
   */
  decodeViews<T = Record<string, unknown>>(schema: Schema, bytes: Uint8Array): T {
    const entry = compiled(schema);
    entry.decodeViews ??= compileDecode(entry.layout, 'view');
    return entry.decodeViews(bytes) as T;
  },

  /**
   * As `decodeViews`, but only for the canonical encoding of a value whose strings are ASCII (what
   * every encoder writes for such a value): any other input, valid or not, gives undefined instead
   * of its value or a DecodeError. For a caller that decodes canonical input in fewer steps with a
   * schema of its own (the same bytes read as nested objects) and takes its usual steps for the rest.
   */
  decodeCanonicalViews<T = Record<string, unknown>>(schema: Schema, bytes: Uint8Array): T | undefined {
    if (!(bytes instanceof Uint8Array)) return undefined;
    const entry = compiled(schema);
    entry.canonicalViews ??= compileFastDecoder(entry.layout, 'view');
    return entry.canonicalViews(bufferView(bytes)) as T | undefined;
  },

  /** Converts a decoded value to the codec JSON form. */
  toJSON<T = Record<string, unknown>>(schema: Schema, value: object): T {
    return compiled(schema).toJSON(value) as T;
  },

  /** Strictly converts the codec JSON form back to a value; throws FormatError. */
  fromJSON<T = Record<string, unknown>>(schema: Schema, json: object): T {
    return compiled(schema).fromJSON(json) as T;
  },
};
