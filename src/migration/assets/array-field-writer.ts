/**
 * One array-of-objects member of a genesis asset, built entry by entry in both forms the
 * migration outputs: the entry's JSON text (as `JSON.stringify(…, null, '\t')` prints it inside
 * genesis_assets.json) and its lisk-codec bytes (LIP 0027: each element of an object array is the
 * field's key, the element's length and its encoding). Nothing but text and bytes is kept, and
 * both in few large pieces (texts joined a few hundred entries at a time, bytes in one growing
 * buffer), so an asset of hundreds of thousands of accounts is neither millions of objects for
 * the garbage collector nor a tree of them in memory.
 */
import { codec, type Schema } from '../../codec/index.js';
import { varintBytes as varint } from '../../codec/varint.js';

const WIRE_LENGTH_DELIMITED = 2;
/** Entry texts joined into one string at a time. */
const ENTRIES_PER_CHUNK = 512;

export class ArrayFieldWriter {
  private readonly itemSchema: Schema;
  private readonly key: Buffer;
  private readonly entryIndent: string;
  private readonly chunks: string[] = [];
  private pending: string[] = [];
  private count = 0;
  private encoded = Buffer.allocUnsafe(1 << 16);
  private encodedLength = 0;

  /**
   * `items` is the array member's `items` schema (an object); `indent` is the indentation of the
   * line that holds the array's key in the JSON document.
   */
  constructor(
    readonly fieldNumber: number,
    items: object,
    readonly indent: string,
  ) {
    this.itemSchema = rootSchemaOf(`/migration/item/${fieldNumber}`, items);
    this.key = varint(fieldNumber * 8 + WIRE_LENGTH_DELIMITED);
    this.entryIndent = `${indent}\t`;
  }

  get length(): number {
    return this.count;
  }

  /** Adds one element: `json` in the key order to print, `value` in codec form (bytes, bigints). */
  add(json: object, value: object): void {
    this.pending.push(this.entryIndent + JSON.stringify(json, null, '\t').replaceAll('\n', `\n${this.entryIndent}`));
    this.count += 1;
    if (this.pending.length === ENTRIES_PER_CHUNK) this.flushText();
    const bytes = codec.encode(this.itemSchema, value);
    this.append(this.key);
    this.append(varint(bytes.length));
    this.append(bytes);
  }

  /** The encoded elements, ready to be concatenated with the other members of the asset. */
  bytes(): Buffer {
    return this.encoded.subarray(0, this.encodedLength);
  }

  /** The array as JSON text, in pieces to be joined, following its key on the key's line. */
  textPieces(): string[] {
    this.flushText();
    if (this.chunks.length === 0) return ['[]'];
    return ['[\n', ...this.chunks.flatMap((chunk, index) => (index === 0 ? [chunk] : [',\n', chunk])), `\n${this.indent}]`];
  }

  private flushText(): void {
    if (this.pending.length === 0) return;
    this.chunks.push(this.pending.join(',\n'));
    this.pending = [];
  }

  private append(bytes: Buffer): void {
    if (this.encodedLength + bytes.length > this.encoded.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.encoded.length * 2, this.encodedLength + bytes.length));
      this.encoded.copy(grown, 0, 0, this.encodedLength);
      this.encoded = grown;
    }
    bytes.copy(this.encoded, this.encodedLength);
    this.encodedLength += bytes.length;
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
