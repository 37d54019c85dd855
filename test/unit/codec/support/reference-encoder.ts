/**
 * A deliberately naive lisk-codec encoder for tests: recursive, Buffer.concat everywhere, bigint
 * arithmetic for every integer, written from LIP 0027 and docs/protocol/codec.md without looking at
 * src/codec. It serves two purposes:
 * - an oracle: without faults its output must equal `codec.encode` byte for byte;
 * - a fault injector: it can make exactly one part of a valid encoding non-canonical (a
 *   non-shortest varint, two fields swapped, a field written twice, a bad boolean byte, an
 *   extra byte inside a nested object), fixing up every enclosing length prefix, so that the
 *   decoder's rejection rules can be tested on otherwise valid input.
 * Faults are addressed by the index of the occurrence in traversal order; `counts` of a clean run
 * tells how many occurrences there are.
 */
import type { Schema } from '../../../../src/codec/index.js';

export interface Faults {
  /** Writes the k-th varint (keys, lengths, values) with one superfluous 0x80/0x00 byte. */
  nonShortestVarint?: number;
  /** Swaps the first two written fields of the k-th object that writes at least two fields. */
  swapFields?: number;
  /** Writes the k-th scalar or nested-object field twice. */
  duplicateField?: number;
  /** Replaces the k-th boolean byte (scalar or packed item). */
  badBoolean?: { index: number; byte: number };
  /** Appends a 0x00 byte inside the k-th nested object (object field or object array element). */
  extraByteInObject?: number;
}

export interface Counts {
  varints: number;
  swappableObjects: number;
  duplicableFields: number;
  booleans: number;
  nestedObjects: number;
}

type Json = Record<string, unknown>;

const VARINT_TYPES = new Set(['uint32', 'sint32', 'uint64', 'sint64', 'boolean']);

class ReferenceEncoder {
  readonly counts: Counts = { varints: 0, swappableObjects: 0, duplicableFields: 0, booleans: 0, nestedObjects: 0 };

  constructor(private readonly faults: Faults) {}

  varint(value: bigint): Buffer {
    const bytes: number[] = [];
    let rest = value;
    do {
      let byte = Number(rest & 0x7fn);
      rest >>= 7n;
      if (rest > 0n) byte |= 0x80;
      bytes.push(byte);
    } while (rest > 0n);
    const index = this.counts.varints++;
    if (index === this.faults.nonShortestVarint) {
      bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) | 0x80;
      bytes.push(0);
    }
    return Buffer.from(bytes);
  }

  key(fieldNumber: number, wireType: number): Buffer {
    return this.varint(BigInt(fieldNumber) * 8n + BigInt(wireType));
  }

  boolean(value: boolean): Buffer {
    const index = this.counts.booleans++;
    const fault = this.faults.badBoolean;
    return Buffer.from([fault !== undefined && fault.index === index ? fault.byte : value ? 1 : 0]);
  }

  /** Value bytes of a scalar, without key. */
  scalar(dataType: string, value: unknown): Buffer {
    switch (dataType) {
      case 'uint32':
        return this.varint(BigInt(value as number));
      case 'sint32':
      case 'sint64': {
        const v = BigInt(value as number | bigint);
        return this.varint(v >= 0n ? 2n * v : -2n * v - 1n);
      }
      case 'uint64':
        return this.varint(value as bigint);
      case 'boolean':
        return this.boolean(value as boolean);
      case 'bytes':
        return this.lengthDelimited(Buffer.from(value as Uint8Array));
      case 'string':
        return this.lengthDelimited(Buffer.from((value as string).normalize('NFC'), 'utf8'));
      default:
        throw new Error(`unknown dataType ${dataType}`);
    }
  }

  lengthDelimited(content: Buffer): Buffer {
    return Buffer.concat([this.varint(BigInt(content.length)), content]);
  }

  nestedObject(schema: Json, value: Json): Buffer {
    let content = this.object(schema, value);
    const index = this.counts.nestedObjects++;
    if (index === this.faults.extraByteInObject) content = Buffer.concat([content, Buffer.from([0])]);
    return this.lengthDelimited(content);
  }

  /** Bytes of one field (empty for an empty array) and whether it may be duplicated. */
  field(property: Json, value: unknown): { bytes: Buffer; duplicable: boolean } {
    const fieldNumber = property.fieldNumber as number;
    if (property.type === 'object') {
      return { bytes: Buffer.concat([this.key(fieldNumber, 2), this.nestedObject(property, value as Json)]), duplicable: true };
    }
    if (property.type === 'array') {
      const items = property.items as Json;
      const elements = value as unknown[];
      if (elements.length === 0) return { bytes: Buffer.alloc(0), duplicable: false };
      if (items.type === 'object') {
        const parts = elements.flatMap((element) => [this.key(fieldNumber, 2), this.nestedObject(items, element as Json)]);
        return { bytes: Buffer.concat(parts), duplicable: false };
      }
      const dataType = items.dataType as string;
      if (VARINT_TYPES.has(dataType)) {
        const key = this.key(fieldNumber, 2);
        const content = Buffer.concat(elements.map((element) => this.scalar(dataType, element)));
        return { bytes: Buffer.concat([key, this.lengthDelimited(content)]), duplicable: false };
      }
      const parts = elements.flatMap((element) => [this.key(fieldNumber, 2), this.scalar(dataType, element)]);
      return { bytes: Buffer.concat(parts), duplicable: false };
    }
    const dataType = property.dataType as string;
    const key = this.key(fieldNumber, VARINT_TYPES.has(dataType) ? 0 : 2);
    return { bytes: Buffer.concat([key, this.scalar(dataType, value)]), duplicable: true };
  }

  object(schema: Json, value: Json): Buffer {
    const properties = Object.entries(schema.properties as Record<string, Json>).sort(
      ([, a], [, b]) => (a.fieldNumber as number) - (b.fieldNumber as number),
    );
    const written: Buffer[] = [];
    for (const [name, property] of properties) {
      const { bytes, duplicable } = this.field(property, value[name]);
      if (bytes.length === 0) continue;
      written.push(bytes);
      if (duplicable) {
        const index = this.counts.duplicableFields++;
        if (index === this.faults.duplicateField) written.push(bytes);
      }
    }
    if (written.length >= 2) {
      const index = this.counts.swappableObjects++;
      if (index === this.faults.swapFields) [written[0], written[1]] = [written[1] as Buffer, written[0] as Buffer];
    }
    return Buffer.concat(written);
  }
}

/** Encodes `value` (decoded form) under `schema`, injecting at most the given faults. */
export function referenceEncode(schema: Schema, value: object, faults: Faults = {}): { bytes: Buffer; counts: Counts } {
  const encoder = new ReferenceEncoder(faults);
  const bytes = encoder.object(schema as unknown as Json, value as Json);
  return { bytes, counts: encoder.counts };
}
