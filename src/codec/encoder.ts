/**
 * Compiles a schema layout into an encoder (docs/protocol/codec.md): fields in ascending
 * fieldNumber order, packed arrays for varint items, one key per element for bytes/string/object
 * items, nothing at all for empty arrays. Output is written into a single Buffer sized by a first
 * pass.
 */
import { EncodeError } from '../errors.js';
import { EncodeContext } from './encode-context.js';
import { isObjectValue } from './object-value.js';
import type { ArrayFieldLayout, FieldLayout, ObjectLayout } from './layout.js';
import { resolvePath } from './path-template.js';
import { SCALAR_WRITERS } from './scalar-writers.js';
import { varintSize, writeVarint } from './varint.js';

interface FieldEncoder {
  /** Encoded size of the field (key included); validates the value. */
  measure(value: unknown, ctx: EncodeContext): number;
  write(value: unknown, ctx: EncodeContext): void;
}

interface ObjectEncoder {
  measure(value: Record<string, unknown>, ctx: EncodeContext): number;
  write(value: Record<string, unknown>, ctx: EncodeContext): void;
}

function fail(ctx: EncodeContext, template: string, reason: string): never {
  const path = resolvePath(template, ctx.indices);
  throw new EncodeError(`Cannot encode ${path === '' ? 'the root object' : path}: ${reason}`);
}

function writeKey(ctx: EncodeContext, key: Buffer): void {
  if (key.length === 1) {
    ctx.buf[ctx.pos++] = key[0] as number;
  } else {
    ctx.buf.set(key, ctx.pos);
    ctx.pos += key.length;
  }
}

function compileArrayField(field: ArrayFieldLayout): FieldEncoder {
  const { key, depth, path } = field;
  const keyLength = key.length;
  const itemPath = `${path}[]`;
  const notArray = (ctx: EncodeContext, value: unknown): never =>
    fail(ctx, path, `must be an array, got ${value === null ? 'null' : typeof value}`);

  if (field.items.kind === 'object') {
    const item = compileObject(field.items.object);
    return {
      measure(value, ctx) {
        if (!Array.isArray(value)) return notArray(ctx, value);
        let total = 0;
        for (let i = 0; i < value.length; i += 1) {
          ctx.indices[depth] = i;
          const element: unknown = value[i];
          if (!isObjectValue(element)) fail(ctx, itemPath, 'must be an object');
          const slot = ctx.scratch.length;
          ctx.scratch.push(0);
          const inner = item.measure(element, ctx);
          ctx.scratch[slot] = inner;
          total += keyLength + varintSize(inner) + inner;
        }
        return total;
      },
      write(value, ctx) {
        const elements = value as Record<string, unknown>[];
        for (let i = 0; i < elements.length; i += 1) {
          writeKey(ctx, key);
          ctx.pos = writeVarint(ctx.buf, ctx.pos, ctx.scratch[ctx.next++] as number);
          item.write(elements[i] as Record<string, unknown>, ctx);
        }
      },
    };
  }

  const writer = SCALAR_WRITERS[field.items.dataType];
  if (field.packed) {
    return {
      measure(value, ctx) {
        if (!Array.isArray(value)) return notArray(ctx, value);
        if (value.length === 0) return 0;
        const slot = ctx.scratch.length;
        ctx.scratch.push(0);
        let content = 0;
        for (let i = 0; i < value.length; i += 1) {
          const size = writer.size(value[i], ctx);
          if (size < 0) {
            ctx.indices[depth] = i;
            fail(ctx, itemPath, writer.reason(value[i]));
          }
          content += size;
        }
        ctx.scratch[slot] = content;
        return keyLength + varintSize(content) + content;
      },
      write(value, ctx) {
        const elements = value as unknown[];
        if (elements.length === 0) return;
        writeKey(ctx, key);
        ctx.pos = writeVarint(ctx.buf, ctx.pos, ctx.scratch[ctx.next++] as number);
        for (let i = 0; i < elements.length; i += 1) writer.write(elements[i], ctx);
      },
    };
  }
  return {
    measure(value, ctx) {
      if (!Array.isArray(value)) return notArray(ctx, value);
      let total = 0;
      for (let i = 0; i < value.length; i += 1) {
        const size = writer.size(value[i], ctx);
        if (size < 0) {
          ctx.indices[depth] = i;
          fail(ctx, itemPath, writer.reason(value[i]));
        }
        total += keyLength + size;
      }
      return total;
    },
    write(value, ctx) {
      const elements = value as unknown[];
      for (let i = 0; i < elements.length; i += 1) {
        writeKey(ctx, key);
        writer.write(elements[i], ctx);
      }
    },
  };
}

function compileField(field: FieldLayout): FieldEncoder {
  const { key, path } = field;
  const keyLength = key.length;
  if (field.kind === 'scalar') {
    const writer = SCALAR_WRITERS[field.dataType];
    return {
      measure(value, ctx) {
        const size = writer.size(value, ctx);
        if (size < 0) fail(ctx, path, writer.reason(value));
        return keyLength + size;
      },
      write(value, ctx) {
        writeKey(ctx, key);
        writer.write(value, ctx);
      },
    };
  }
  if (field.kind === 'object') {
    const nested = compileObject(field.object);
    return {
      measure(value, ctx) {
        if (!isObjectValue(value)) fail(ctx, path, 'must be an object');
        const slot = ctx.scratch.length;
        ctx.scratch.push(0);
        const inner = nested.measure(value, ctx);
        ctx.scratch[slot] = inner;
        return keyLength + varintSize(inner) + inner;
      },
      write(value, ctx) {
        writeKey(ctx, key);
        ctx.pos = writeVarint(ctx.buf, ctx.pos, ctx.scratch[ctx.next++] as number);
        nested.write(value as Record<string, unknown>, ctx);
      },
    };
  }
  return compileArrayField(field);
}

function compileObject(layout: ObjectLayout): ObjectEncoder {
  const names = layout.fields.map((field) => field.name);
  // Absent values: the SDK silently skips an absent scalar (the fixtures rely on it) and
  // crashes on an absent object. Basalt skips absent scalars and arrays that the schema does not
  // require, and rejects the rest, since the decoder could not read the result back.
  const mustBePresent = layout.fields.map((field) => field.required || field.kind === 'object');
  const paths = layout.fields.map((field) => field.path);
  const encoders = layout.fields.map(compileField);
  const count = names.length;
  return {
    measure(value, ctx) {
      let total = 0;
      for (let i = 0; i < count; i += 1) {
        const fieldValue = value[names[i] as string];
        if (fieldValue === undefined) {
          if (mustBePresent[i] === true) fail(ctx, paths[i] as string, 'property is missing');
          continue;
        }
        total += (encoders[i] as FieldEncoder).measure(fieldValue, ctx);
      }
      return total;
    },
    write(value, ctx) {
      for (let i = 0; i < count; i += 1) {
        const fieldValue = value[names[i] as string];
        if (fieldValue !== undefined) (encoders[i] as FieldEncoder).write(fieldValue, ctx);
      }
    },
  };
}

/** Returns `encode(value) -> bytes` for a schema layout. */
export function compileEncoder(layout: ObjectLayout): (value: object) => Buffer {
  const root = compileObject(layout);
  return (value) => {
    const ctx = new EncodeContext();
    if (!isObjectValue(value)) fail(ctx, '', 'must be an object');
    const size = root.measure(value, ctx);
    ctx.buf = Buffer.allocUnsafe(size);
    root.write(value, ctx);
    if (ctx.pos !== size) throw new EncodeError(`Internal encoder error: wrote ${ctx.pos} of ${size} bytes`);
    return ctx.buf;
  };
}
