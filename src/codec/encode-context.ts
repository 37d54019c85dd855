/**
 * State of one `encode` call. Encoding runs in two passes over the value: `measure` computes the
 * exact output size and records, in `scratch`, what the second pass would otherwise recompute
 * (nested object lengths, packed array lengths, NFC-normalised strings and their UTF-8 length);
 * `write` then fills one preallocated Buffer, consuming `scratch` in the same order.
 */
const NO_OUTPUT = Buffer.alloc(0);

export class EncodeContext {
  readonly scratch: (number | string)[] = [];
  /** Next unread `scratch` entry during the write pass. */
  next = 0;
  /** Index of the current element of each enclosing array, for error paths. */
  readonly indices: number[] = [];
  buf: Buffer = NO_OUTPUT;
  pos = 0;
}
