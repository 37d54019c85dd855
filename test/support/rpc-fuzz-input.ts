/**
 * Request generation for the RPC fuzz tests: seeded, and aware of the structure of what it
 * attacks. The methods and their params come from the server's own `rpc.discover` document, so
 * most requests reach a real method with the right keys and wrong, boundary or junk values;
 * the rest break the envelope, the JSON text or the bytes themselves.
 *
 * One generator serves the RpcServer-level fuzz (test methods that throw) and the node-level
 * one (a spawned `basalt start`), so both attack with the same cases.
 */
import { mulberry32 } from './seeded-random.js';

/** A JSON schema as `rpc.discover` gives it (Lisk's codec keywords already turned into JSON types). */
export interface ParamSchema {
  readonly type?: string | readonly string[];
  readonly format?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly enum?: readonly unknown[];
  readonly items?: ParamSchema;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly properties?: Readonly<Record<string, ParamSchema>>;
  readonly required?: readonly string[];
}

export interface FuzzParam {
  readonly name: string;
  readonly required: boolean;
  readonly schema: ParamSchema;
}

export interface FuzzMethod {
  readonly name: string;
  readonly params: readonly FuzzParam[];
  /**
   * A method whose success would change the node (its keys, its generation status): it is still
   * called, but always without one of its required params, so that only its params check runs.
   */
  readonly neutralised?: boolean;
}

interface OpenRpcMethodLike {
  name: string;
  params?: { name: string; required?: boolean; schema?: ParamSchema }[];
}

/**
 * The methods of an `rpc.discover` answer. Methods named in `sideEffects` are neutralised when
 * they have a required param to leave out, and dropped otherwise.
 */
export function methodsFromOpenRpc(document: { methods: readonly OpenRpcMethodLike[] }, sideEffects: ReadonlySet<string>): FuzzMethod[] {
  const methods: FuzzMethod[] = [];
  for (const method of document.methods) {
    const params = (method.params ?? []).map((param) => ({
      name: param.name,
      required: param.required === true,
      schema: param.schema ?? {},
    }));
    if (!sideEffects.has(method.name)) methods.push({ name: method.name, params });
    else if (params.some((param) => param.required)) methods.push({ name: method.name, params, neutralised: true });
  }
  return methods;
}

/** Values the chain really holds (IDs, addresses, keys, heights), so that valid-ish params sometimes hit stored data. */
export interface KnownValues {
  hex: string[];
  lisk32: string[];
  integers: number[];
}

export interface FuzzLimits {
  /** The server's largest body / message. */
  readonly maxBodyBytes: number;
  /** The server's largest batch. */
  readonly maxBatchSize: number;
}

/** One generated case: what to send and what kind of case it is (for the figures). */
export interface FuzzCase {
  readonly kind: string;
  readonly body: string | Uint8Array;
  /** Larger than the server's limit: 413 over HTTP, close 1009 over WebSocket. */
  readonly oversized: boolean;
}

const STRINGS = [
  '',
  'a',
  '2.0',
  '1.0',
  'null',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  '\u0000',
  '\ud800',
  'é€😀',
  '"',
  '\\',
  '</script>',
  '%s%n',
  '../../etc/passwd',
  ' 1',
  '0x00',
  'NaN',
  '-0',
  '1e400',
];
const NUMBERS = [
  0,
  -0,
  1,
  -1,
  0.5,
  -1.5,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 32,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  1e308,
  -1e308,
  Number.MIN_VALUE,
];
const BIG_DECIMALS = [
  '0',
  '-1',
  '18446744073709551615',
  '18446744073709551616',
  '9223372036854775808',
  '1'.repeat(80),
  '1e3',
  '0x10',
  ' 5',
  '+5',
];
const KEY_NAMES = [
  'a',
  'b',
  'height',
  'size',
  'ms',
  'id',
  'ids',
  'address',
  'topics',
  'from',
  'to',
  'tokenID',
  'queries',
  'chainID',
  '__proto__',
  'constructor',
];
const HEX_LENGTHS = [0, 1, 2, 7, 8, 16, 31, 32, 40, 63, 64, 65, 96, 128, 192, 194];
const JSONRPC_VERSIONS: unknown[] = ['1.0', '2', '2.00', ' 2.0', '2.0 ', '3.0', 2, 2.0, null, true, '', ['2.0'], { version: '2.0' }];

export class RpcFuzzer {
  readonly random: () => number;

  constructor(
    seed: number,
    private readonly methods: readonly FuzzMethod[],
    private readonly limits: FuzzLimits,
    /** Method names beyond the discovered ones: unknown, malformed, connection-local. */
    private readonly extraMethodNames: readonly string[] = [],
    private readonly known: KnownValues = { hex: [], lisk32: [], integers: [] },
  ) {
    this.random = mulberry32(seed);
  }

  int(n: number): number {
    return Math.floor(this.random() * n);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  chance(p: number): boolean {
    return this.random() < p;
  }

  string(): string {
    if (this.chance(0.5)) return this.pick(STRINGS);
    let text = '';
    const length = this.int(24);
    for (let i = 0; i < length; i += 1) text += String.fromCharCode(this.chance(0.8) ? 32 + this.int(95) : this.int(0x10000));
    return text;
  }

  hex(length: number): string {
    let text = '';
    for (let i = 0; i < length; i += 1) text += '0123456789abcdef'[this.int(16)];
    return text;
  }

  /** Any JSON value, nested up to a few levels. */
  value(depth = 0): unknown {
    switch (this.int(depth > 3 ? 6 : 9)) {
      case 0:
        return null;
      case 1:
        return this.chance(0.5);
      case 2:
        return this.pick(NUMBERS);
      case 3:
      case 4:
        return this.string();
      case 5:
        return this.int(100);
      case 6:
        return Array.from({ length: this.int(5) }, () => this.value(depth + 1));
      default: {
        const object: Record<string, unknown> = {};
        const keys = this.int(5);
        for (let i = 0; i < keys; i += 1) object[this.chance(0.6) ? this.pick(KEY_NAMES) : this.string()] = this.value(depth + 1);
        return object;
      }
    }
  }

  private huge(): string {
    const length = this.int(this.limits.maxBodyBytes / 2);
    return this.chance(0.5) ? 'x'.repeat(length) : this.hex(length);
  }

  /** A value the schema accepts, as far as a blind guess can tell, taken from the chain when possible. */
  private validValue(schema: ParamSchema, depth: number): unknown {
    if (schema.enum !== undefined && schema.enum.length > 0) return this.pick(schema.enum);
    const type = Array.isArray(schema.type) ? this.pick(schema.type as string[]) : (schema.type as string | undefined);
    switch (type) {
      case 'integer':
      case 'number': {
        if (this.known.integers.length > 0 && this.chance(0.5)) return this.pick(this.known.integers);
        const min = schema.minimum ?? 0;
        const max = Math.min(schema.maximum ?? min + 1_000, min + 1_000);
        return min + this.int(max - min + 1);
      }
      case 'boolean':
        return this.chance(0.5);
      case 'array': {
        const min = schema.minItems ?? 0;
        const length = min + this.int(Math.max(1, Math.min(schema.maxItems ?? min + 4, min + 4) - min + 1));
        return Array.from({ length }, () => this.validValue(schema.items ?? {}, depth + 1));
      }
      case 'object': {
        const object: Record<string, unknown> = {};
        for (const [key, child] of Object.entries(schema.properties ?? {})) {
          if ((schema.required ?? []).includes(key) || this.chance(0.5)) object[key] = depth > 4 ? null : this.validValue(child, depth + 1);
        }
        return object;
      }
      case 'string': {
        if (schema.format === 'lisk32' && this.known.lisk32.length > 0) return this.pick(this.known.lisk32);
        if (schema.format === 'hex' || schema.format === undefined) {
          const fitting = this.known.hex.filter(
            (hex) => hex.length >= (schema.minLength ?? 0) && hex.length <= (schema.maxLength ?? Number.POSITIVE_INFINITY),
          );
          if (fitting.length > 0 && this.chance(0.7)) return this.pick(fitting);
          if (schema.format === 'hex') return this.hex(schema.minLength ?? schema.maxLength ?? 64);
        }
        if (/^\d+$/.test(String(schema.format ?? '')) || schema.format === 'uint64' || schema.format === 'int64')
          return this.pick(BIG_DECIMALS);
        return this.string().slice(0, schema.maxLength ?? 24);
      }
      default:
        return this.value(depth + 1);
    }
  }

  /** A value of the wrong type, at a boundary, too long, of the wrong length, or nested junk. */
  private badValue(schema: ParamSchema): unknown {
    switch (this.int(9)) {
      case 0:
        return this.value(1);
      case 1:
        return this.pick(NUMBERS);
      case 2:
        return this.pick(BIG_DECIMALS);
      case 3:
        return this.hex(this.pick(HEX_LENGTHS));
      case 4:
        return this.hex(63) + this.pick(['g', 'G', ' ', 'é', '\u0000']);
      case 5:
        return this.chance(0.1) ? this.huge() : this.string();
      case 6: {
        const inner = this.validValue(schema, 2);
        return this.chance(0.5) ? [inner] : { value: inner };
      }
      case 7:
        return Array.from({ length: this.chance(0.2) ? 500 + this.int(5_000) : this.int(8) }, () =>
          this.chance(0.5) ? this.validValue(schema.items ?? schema, 3) : this.value(2),
        );
      default:
        return this.pick([null, true, false, {}, [], '', -1, 0]);
    }
  }

  /** Params for `method`: right keys with right, wrong or boundary values; keys missing or extra. */
  params(method: FuzzMethod): unknown {
    if (method.params.length === 0 && this.chance(0.3)) return this.chance(0.5) ? undefined : {};
    if (this.chance(0.05)) return this.value(0);
    const params: Record<string, unknown> = {};
    for (const param of method.params) {
      if (!param.required && this.chance(0.4)) continue;
      if (param.required && this.chance(0.05)) continue;
      params[param.name] = this.chance(0.6) ? this.validValue(param.schema, 0) : this.badValue(param.schema);
    }
    if (this.chance(0.1)) params[this.chance(0.5) ? this.pick(KEY_NAMES) : this.string()] = this.value(1);
    if (method.neutralised) {
      const required = method.params.filter((param) => param.required);
      delete params[this.pick(required).name];
    }
    return params;
  }

  methodName(): string {
    if (this.extraMethodNames.length > 0 && this.chance(0.08)) return this.pick(this.extraMethodNames);
    return this.pick(this.methods).name;
  }

  /** A request to a real method (with schema-shaped params) or to an extra name; sometimes a notification. */
  request(): Record<string, unknown> {
    const name = this.methodName();
    const method = this.methods.find((candidate) => candidate.name === name);
    const request: Record<string, unknown> = { jsonrpc: '2.0', method: name };
    if (this.chance(0.9)) request.id = this.pick([this.int(1e6), this.string(), null, -1, 2 ** 53, 1.5]);
    const params = method === undefined ? (this.chance(0.5) ? this.value(1) : undefined) : this.params(method);
    if (params !== undefined) request.params = params;
    return request;
  }

  /** A request with one envelope member wrong, missing or extra. */
  nearRequest(): Record<string, unknown> {
    const request = this.request();
    switch (this.int(7)) {
      case 0:
        request.jsonrpc = this.pick(JSONRPC_VERSIONS);
        break;
      case 1:
        request.method = this.value(2);
        break;
      case 2:
        request.params = this.value(1);
        break;
      case 3:
        request.id = this.value(1);
        break;
      case 4:
        request[this.chance(0.5) ? this.pick(['result', 'error', 'Method', 'ID', '__proto__']) : this.string() || 'x'] = this.value(2);
        break;
      case 5:
        delete request[this.pick(['jsonrpc', 'method', 'id', 'params'])];
        break;
      default:
        request.jsonrpc = this.pick(JSONRPC_VERSIONS);
        request.method = this.string();
    }
    return request;
  }

  /** A valid request's text with characters flipped, dropped, inserted or cut off. */
  mutatedText(): string {
    let text = JSON.stringify(this.chance(0.7) ? this.request() : [this.request(), this.request()]);
    const edits = 1 + this.int(4);
    for (let i = 0; i < edits; i += 1) {
      const at = this.int(text.length + 1);
      switch (this.int(4)) {
        case 0:
          text =
            text.slice(0, at) +
            this.pick(['{', '}', '[', ']', '"', ',', ':', '\\', '\u0000', 'null', '1e999', '\\ud800', '\\u00']) +
            text.slice(at);
          break;
        case 1:
          text = text.slice(0, at) + text.slice(at + 1 + this.int(3));
          break;
        case 2:
          text = text.slice(0, at) + String.fromCharCode(this.int(0x10000)) + text.slice(at + 1);
          break;
        default:
          text = text.slice(0, at);
      }
    }
    return text;
  }

  /** A valid request's UTF-8 with invalid sequences (lone continuation bytes, overlongs, surrogates) spliced in. */
  invalidUtf8(): Uint8Array {
    const text = Buffer.from(JSON.stringify(this.request()));
    const junk = this.pick([[0xff], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xe2, 0x82]]);
    const at = this.int(text.length + 1);
    return Buffer.concat([text.subarray(0, at), Buffer.from(junk), text.subarray(at)]);
  }

  bytes(): Uint8Array {
    const bytes = new Uint8Array(this.int(256));
    for (let i = 0; i < bytes.length; i += 1) bytes[i] = this.int(256);
    return bytes;
  }

  /** A batch of requests, near-requests and junk; sometimes past the server's batch limit, sometimes far past it. */
  batch(): unknown[] {
    // Thousands of tiny members: the batch limit must be checked before any member is looked at.
    if (this.chance(0.03)) {
      const member = this.pick<unknown>([{}, 1, null, [], { jsonrpc: '2.0', method: 'x' }]);
      return Array.from({ length: 1_000 + this.int(10_000) }, () => member);
    }
    const length = this.chance(0.1)
      ? this.limits.maxBatchSize + 1 + this.int(this.limits.maxBatchSize)
      : this.int(this.limits.maxBatchSize + 2);
    return Array.from({ length }, () => (this.chance(0.6) ? this.request() : this.chance(0.5) ? this.nearRequest() : this.value(1)));
  }

  /** Deep nesting: unclosed, closed as a whole body, or closed inside the params of a real method. */
  nesting(): string {
    const depth = 1 + this.int(this.chance(0.5) ? 20_000 : 2_000);
    const [open, close] = this.pick([
      ['[', ']'],
      ['{"a":', '}'],
      ['[{"b":', '}]'],
    ]) as [string, string];
    const nested = `${open.repeat(depth)}1${close.repeat(depth)}`;
    switch (this.int(3)) {
      case 0:
        return open.repeat(depth);
      case 1:
        return nested;
      default: {
        const method = this.pick(this.methods);
        const key = method.params.length > 0 ? this.pick(method.params).name : this.pick(KEY_NAMES);
        return `{"jsonrpc":"2.0","id":1,"method":${JSON.stringify(method.name)},"params":{${JSON.stringify(key)}:${nested}}}`;
      }
    }
  }

  /** The next case, by weight; `allowOversized` false keeps every body within the server's limit. */
  next(allowOversized = true): FuzzCase {
    const roll = this.int(1000);
    let kind: string;
    let body: string | Uint8Array;
    if (roll < 300) [kind, body] = ['request', JSON.stringify(this.request())];
    else if (roll < 430) [kind, body] = ['envelope', JSON.stringify(this.nearRequest())];
    else if (roll < 580) [kind, body] = ['mutated', this.mutatedText()];
    else if (roll < 630) [kind, body] = ['value', JSON.stringify(this.value(0)) ?? ''];
    else if (roll < 680) [kind, body] = ['bytes', this.bytes()];
    else if (roll < 720) [kind, body] = ['utf8', this.invalidUtf8()];
    else if (roll < 900) [kind, body] = ['batch', JSON.stringify(this.batch())];
    else if (roll < 950) [kind, body] = ['nesting', this.nesting()];
    else if (roll < 975) {
      const size =
        allowOversized && this.chance(0.5)
          ? this.limits.maxBodyBytes + this.int(this.limits.maxBodyBytes)
          : this.int(this.limits.maxBodyBytes - 200);
      const request = this.request();
      request.params = { [this.pick(KEY_NAMES)]: 'x'.repeat(size) };
      [kind, body] = ['huge', JSON.stringify(request)];
    } else if (roll < 990) [kind, body] = ['empty', this.pick(['', ' ', '\n', '{}', '[]', 'null', '""', '0'])];
    else
      [kind, body] = [
        'repeat',
        JSON.stringify(
          Array.from({ length: 1 + this.int(this.limits.maxBatchSize) }, () => ({ jsonrpc: '2.0', method: this.methodName() })),
        ),
      ];
    const size = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
    if (!allowOversized && size > this.limits.maxBodyBytes) return this.next(false);
    return { kind, body, oversized: size > this.limits.maxBodyBytes };
  }
}

/** The first characters of a case's body, for failure messages. */
export function shownBody(body: string | Uint8Array): string {
  return typeof body === 'string'
    ? JSON.stringify(body.slice(0, 200))
    : `<${body.length} bytes: ${Buffer.from(body.subarray(0, 60)).toString('hex')}>`;
}
