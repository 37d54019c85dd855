/**
 * Reading one bytes field out of a stored v3 block header or transaction without decoding the
 * rest. The generator-key scan visits every header and every transaction of the chain (millions
 * on mainnet) for one public key each; a full decode copies every bytes field of each. The walk
 * below still checks the structure of the whole record: every field of the schema present, in
 * field-number order, with its wire type, lengths inside the record, nothing trailing.
 */

/** Wire types of lisk-codec (LIP 0027): 0 varint, 2 length-delimited. */
type WireType = 0 | 2;

/** v3 block header fields 1 … 9 (see v3-schemas.ts). */
const HEADER_WIRE_TYPES: readonly WireType[] = [0, 0, 0, 2, 2, 2, 0, 2, 2];
/** v3 transaction fields 1 … 6; field 7 (signatures) is a repeated bytes field. */
const TRANSACTION_WIRE_TYPES: readonly WireType[] = [0, 0, 0, 0, 2, 2];
const TRANSACTION_REPEATED_FIELD = 7;

const HEADER_GENERATOR_KEY_FIELD = 6;
const TRANSACTION_SENDER_KEY_FIELD = 5;

/** The generator public key of a stored v3 block header (a view into `record`); throws on a malformed record. */
export function v3HeaderGeneratorKey(record: Buffer): Buffer {
  return readField(record, HEADER_WIRE_TYPES, undefined, HEADER_GENERATOR_KEY_FIELD);
}

/** The sender public key of a stored v3 transaction (a view into `record`); throws on a malformed record. */
export function v3TransactionSenderKey(record: Buffer): Buffer {
  return readField(record, TRANSACTION_WIRE_TYPES, TRANSACTION_REPEATED_FIELD, TRANSACTION_SENDER_KEY_FIELD);
}

function readField(record: Buffer, wireTypes: readonly WireType[], repeatedField: number | undefined, wanted: number): Buffer {
  const cursor = { at: 0 };
  let found: Buffer | undefined;
  for (let index = 0; index < wireTypes.length; index += 1) {
    const fieldNumber = index + 1;
    const wireType = wireTypes[index] as WireType;
    if (readVarint(record, cursor) !== fieldNumber * 8 + wireType) throw malformed(`field ${fieldNumber} is missing or out of order`);
    if (wireType === 0) {
      readVarint(record, cursor);
    } else {
      const value = readLengthDelimited(record, cursor);
      if (fieldNumber === wanted) found = value;
    }
  }
  if (repeatedField !== undefined) {
    while (cursor.at < record.length) {
      if (readVarint(record, cursor) !== repeatedField * 8 + 2) throw malformed(`unexpected field after field ${repeatedField - 1}`);
      readLengthDelimited(record, cursor);
    }
  }
  if (cursor.at !== record.length) throw malformed('trailing bytes');
  return found as Buffer;
}

function readLengthDelimited(record: Buffer, cursor: { at: number }): Buffer {
  const length = readVarint(record, cursor);
  const end = cursor.at + length;
  if (end > record.length) throw malformed('a length runs past the end of the record');
  const value = record.subarray(cursor.at, end);
  cursor.at = end;
  return value;
}

/** An unsigned varint of at most 10 bytes, as a number (lengths and keys are small). */
function readVarint(record: Buffer, cursor: { at: number }): number {
  let value = 0;
  let scale = 1;
  for (let read = 0; read < 10; read += 1) {
    if (cursor.at >= record.length) throw malformed('the record ends inside a varint');
    const byte = record[cursor.at] as number;
    cursor.at += 1;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return value;
    scale *= 128;
  }
  throw malformed('a varint is longer than 10 bytes');
}

function malformed(reason: string): Error {
  return new Error(`malformed record: ${reason}`);
}
