/**
 * Shape checks for answers of the RPC server, shared by the property tests and the e2e fuzz
 * test: what "a well-formed JSON-RPC 2.0 response" means for Basalt.
 */
export const DOCUMENTED_ERROR_CODES = new Set([-32700, -32600, -32601, -32602, -32603, -32001, -32002]);

/** Why `value` is not one well-formed JSON-RPC 2.0 response object, or undefined if it is. */
export function responseProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not an object';
  const response = value as Record<string, unknown>;
  const keys = Object.keys(response).sort().join(',');
  if (response.jsonrpc !== '2.0') return 'jsonrpc is not "2.0"';
  const id = response.id;
  if (!(id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)))) return 'bad id';
  if (keys === 'id,jsonrpc,result') return undefined;
  if (keys !== 'error,id,jsonrpc') return `unexpected members ${keys}`;
  const error = response.error as Record<string, unknown> | null;
  if (typeof error !== 'object' || error === null) return 'error is not an object';
  if (Object.keys(error).sort().join(',') !== 'code,message') return 'error members are not code,message';
  if (!DOCUMENTED_ERROR_CODES.has(error.code as number)) return `undocumented code ${String(error.code)}`;
  if (typeof error.message !== 'string' || error.message === '') return 'empty message';
  return undefined;
}

/** Why a whole answer text (one response or a non-empty array of them) is malformed, or undefined. */
export function answerProblem(text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  if (!Array.isArray(value)) return responseProblem(value);
  if (value.length === 0) return 'empty array';
  for (const item of value) {
    const problem = responseProblem(item);
    if (problem !== undefined) return `batch member: ${problem}`;
  }
  return undefined;
}
