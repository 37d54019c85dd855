/**
 * The JSON-RPC 2.0 request envelope check (lisk-sdk's rules of controller/jsonrpc/utils.ts, except
 * that a missing `id` makes a notification instead of an error).
 */

/** A request object that passed `envelopeProblem`. */
export interface JsonRpcRequest {
  readonly jsonrpc: '2.0';
  readonly method: string;
  /** Named parameters only: Lisk endpoints take an object. */
  readonly params?: Record<string, unknown>;
  /** Absent for a notification. */
  readonly id?: number | string | null;
}

/** Whether `id` is an id we can echo exactly (a finite number, a string or null). */
export function isValidId(id: unknown): id is number | string | null {
  return id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
}

/**
 * Why `value` is not a valid request (a message for a -32600 error), or undefined when it is one.
 * Checked: an object (not an array), `jsonrpc` exactly "2.0", `method` a string, `params` absent
 * or an object, `id` absent or a valid id, and no other member.
 */
export function envelopeProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'Invalid request: expected a JSON-RPC request object.';
  }
  const request = value as Record<string, unknown>;
  // JSON.parse only creates own enumerable data properties, so for-in sees exactly the members.
  for (const key in request) {
    switch (key) {
      case 'jsonrpc':
        if (request.jsonrpc !== '2.0') return 'Invalid request: "jsonrpc" must be "2.0".';
        break;
      case 'method':
        if (typeof request.method !== 'string') return 'Invalid request: "method" must be a string.';
        break;
      case 'params': {
        const params = request.params;
        if (typeof params !== 'object' || params === null || Array.isArray(params)) {
          return 'Invalid request: "params" must be an object of named parameters.';
        }
        break;
      }
      case 'id':
        if (!isValidId(request.id)) return 'Invalid request: "id" must be a number, a string or null.';
        break;
      default:
        return `Invalid request: unexpected member ${quoteForMessage(key)}.`;
    }
  }
  if (request.jsonrpc === undefined) return 'Invalid request: "jsonrpc" must be "2.0".';
  if (request.method === undefined) return 'Invalid request: "method" must be a string.';
  return undefined;
}

/** The id to echo in an answer to `value`, as JSON text ("null" when there is no usable id). */
export function idJsonOf(value: unknown): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'null';
  const id = (value as Record<string, unknown>).id;
  return id !== undefined && isValidId(id) ? JSON.stringify(id) : 'null';
}

const MAX_QUOTED_LENGTH = 64;

/**
 * A client-supplied name fit for an error message: control characters removed (as lisk-sdk does)
 * and cut to a short length so an answer never echoes a huge string.
 */
export function quoteForMessage(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
  const short = clean.length > MAX_QUOTED_LENGTH ? `${clean.slice(0, MAX_QUOTED_LENGTH)}…` : clean;
  return `"${short}"`;
}
