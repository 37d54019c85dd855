/**
 * One array-of-objects member of a genesis asset, built entry by entry in both forms the
 * migration outputs: the entry's JSON text (as `JSON.stringify(…, null, '\t')` prints it inside
 * genesis_assets.json) and its lisk-codec bytes (LIP 0027: each element of an object array is the
 * field's key, the element's length and its encoding). Nothing but text and bytes is kept, so an
 * asset of hundreds of thousands of accounts does not sit in memory as objects.
 */
import { codec, type Schema } from '../../codec/index.js';
import { varintBytes as varint } from '../../codec/varint.js';

const WIRE_LENGTH_DELIMITED = 2;

export class ArrayFieldWriter {
  private readonly itemSchema: Schema;
  private readonly texts: string[] = [];
  private readonly encoded: Buffer[] = [];
  private readonly key: Buffer;

  /** `items` is the array member's `items` schema (an object). */
  constructor(
    readonly fieldNumber: number,
    items: object,
  ) {
    this.itemSchema = rootSchemaOf(`/migration/item/${fieldNumber}`, items);
    this.key = varint(fieldNumber * 8 + WIRE_LENGTH_DELIMITED);
  }

  get length(): number {
    return this.texts.length;
  }

  /** Adds one element: `json` in the key order to print, `value` in codec form (bytes, bigints). */
  add(json: object, value: object): void {
    this.texts.push(JSON.stringify(json, null, '\t'));
    const bytes = codec.encode(this.itemSchema, value);
    this.encoded.push(this.key, varint(bytes.length), bytes);
  }

  /** The encoded elements, ready to be concatenated with the other members of the asset. */
  bytes(): Buffer {
    return Buffer.concat(this.encoded);
  }

  /** The array as JSON text whose first line continues a line indented by `indent`. */
  text(indent: string): string {
    if (this.texts.length === 0) return '[]';
    const inner = `${indent}\t`;
    return `[\n${this.texts.map((text) => inner + text.replaceAll('\n', `\n${inner}`)).join(',\n')}\n${indent}]`;
  }
}

/** An object member of a schema (its `required` and `properties`) as a root schema of its own. */
export function rootSchemaOf(id: string, member: object): Schema {
  const { required, properties } = member as { required?: string[]; properties?: Record<string, unknown> };
  return { $id: id, type: 'object', required: required ?? [], properties: properties ?? {} } as Schema;
}

/** The length-delimited encoding of one object member (`fieldNumber`) from its bytes. */
export function lengthDelimited(fieldNumber: number, bytes: Buffer): Buffer {
  return Buffer.concat([varint(fieldNumber * 8 + WIRE_LENGTH_DELIMITED), varint(bytes.length), bytes]);
}
