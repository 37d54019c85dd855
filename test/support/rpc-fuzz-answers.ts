/**
 * What the RPC fuzz tests demand of every answer, on every transport: well-formed JSON-RPC 2.0
 * (test/unit/rpc/json-rpc-shape.ts), no internal detail in an error (stack frames, file paths,
 * JavaScript error names, messages of errors the node did not mean to show), and an internal
 * error only ever as the generic answer. Also the tally the tests print at the end.
 */
import { answerProblem } from '../unit/rpc/json-rpc-shape.js';
import { shownBody, type FuzzCase } from './rpc-fuzz-input.js';

/** The one message an internal error (-32603) may carry. */
export const GENERIC_INTERNAL_MESSAGE = 'Internal error.';

/**
 * Signs of internal detail in an answer. An error message may quote what the client sent, so a
 * sign that the request itself holds does not count (see `leakProblem`).
 */
const LEAK_SIGNS: readonly RegExp[] = [
  /\bat [\w$.<>]+ \(/, // a stack frame "at fn (file:line:col)"
  /\n\s+at /,
  /(?:file:\/\/|\/(?:src|srv|node_modules|work|home|root|tmp|usr|var|opt)\/)[\w.-]+/,
  /\.(?:ts|js|mjs|cjs):\d+/,
  /\b(?:Type|Reference|Range|Syntax|Eval|URI|Aggregate)Error\b/,
  /Cannot read propert|is not a function|is not iterable|undefined is not|Maximum call stack|Unexpected token/,
  /\bLMDB|MDB_|\bENOENT\b|\bEACCES\b|\bEPIPE\b/,
];

/** Why `answer` shows internal detail that `request` did not already contain, or undefined. */
export function leakProblem(answer: string, request: string): string | undefined {
  for (const sign of LEAK_SIGNS) {
    const found = sign.exec(answer);
    if (found !== null && !request.includes(found[0])) return `internal detail leaked (${JSON.stringify(found[0])})`;
  }
  return undefined;
}

interface ErrorShape {
  code: number;
  message: string;
}

/** The response objects of an answer text that `answerProblem` accepted. */
function responsesOf(text: string): { result?: unknown; error?: ErrorShape }[] {
  const value = JSON.parse(text) as unknown;
  return (Array.isArray(value) ? value : [value]) as { result?: unknown; error?: ErrorShape }[];
}

/** Counts of what came back, printed at the end of a run. */
export class FuzzTally {
  readonly requests = new Map<string, number>();
  /** `result`, or the error code, per response object (a batch answer counts each member). */
  readonly answers = new Map<string, number>();
  /** Transport outcomes that are not JSON-RPC answers: HTTP statuses other than 200, WebSocket closes. */
  readonly outcomes = new Map<string, number>();
  readonly kinds = new Map<string, number>();
  readonly failures: string[] = [];

  /** `secrets`: texts the server holds that no answer may show (what a test method throws, say). */
  constructor(private readonly secrets: readonly string[] = []) {}

  static add(map: Map<string, number>, key: string, count = 1): void {
    map.set(key, (map.get(key) ?? 0) + count);
  }

  get total(): number {
    let total = 0;
    for (const count of this.requests.values()) total += count;
    return total;
  }

  fail(message: string): void {
    if (this.failures.length < 20) this.failures.push(message);
  }

  /**
   * Checks one JSON-RPC answer text: its shape, leaks, the generic internal error; counts it.
   * Returns the response objects it holds, or undefined when it failed a check.
   */
  checkAnswer(where: string, answer: string, request: string): { result?: unknown; error?: ErrorShape }[] | undefined {
    const problem = answerProblem(answer) ?? (this.secrets.some((secret) => answer.includes(secret)) ? 'a secret leaked' : undefined);
    if (problem !== undefined) {
      this.fail(`${where}: ${problem}: ${request.slice(0, 200)} → ${answer.slice(0, 300)}`);
      return undefined;
    }
    const responses = responsesOf(answer);
    for (const response of responses) {
      const error = response.error;
      FuzzTally.add(this.answers, error === undefined ? 'result' : String(error.code));
      // Results are the node's data (a metrics report names LMDB, for one); errors must say only what the client did wrong.
      const leak = error === undefined ? undefined : leakProblem(JSON.stringify(error), request);
      if (leak !== undefined) this.fail(`${where}: ${leak}: ${request.slice(0, 200)} → ${JSON.stringify(error).slice(0, 300)}`);
      if (error?.code === -32603 && error.message !== GENERIC_INTERNAL_MESSAGE) {
        this.fail(`${where}: internal error with a specific message: ${request.slice(0, 200)} → ${answer.slice(0, 300)}`);
      }
    }
    return responses;
  }

  /**
   * Checks the HTTP answer to a POST of `fuzzCase`: a JSON-RPC answer with 200, nothing with 204
   * (notifications only), 413 exactly when the body is over the limit.
   */
  checkHttp(where: string, fuzzCase: FuzzCase, status: number, text: string): void {
    const shown = shownBody(fuzzCase.body);
    if (status === 200) this.checkAnswer(where, text, requestText(fuzzCase.body));
    else {
      FuzzTally.add(this.outcomes, `http ${status}`);
      if (status === 204) {
        if (text !== '') this.fail(`${where}: 204 with a body: ${shown}`);
      } else if (!(status === 413 && fuzzCase.oversized)) {
        this.fail(`${where}: unexpected status ${status}: ${shown} → ${text.slice(0, 200)}`);
      }
    }
    if (fuzzCase.oversized && status !== 413) this.fail(`${where}: oversized body got ${status}`);
  }

  /** POSTs `fuzzCase` to `url` and checks the answer (checkHttp); resolves with the status, undefined when the request failed. */
  async postHttp(url: string, where: string, fuzzCase: FuzzCase): Promise<number | undefined> {
    let status: number;
    let text: string;
    try {
      const response = await fetch(url, { method: 'POST', body: fuzzCase.body });
      status = response.status;
      text = await response.text();
    } catch (error) {
      this.fail(`${where}: request failed: ${String(error)}: ${shownBody(fuzzCase.body)}`);
      return undefined;
    }
    this.checkHttp(where, fuzzCase, status, text);
    return status;
  }

  /** The figures as lines of text. */
  report(): string {
    const line = (map: Map<string, number>): string =>
      [...map.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([key, count]) => `${key} ${count}`)
        .join(', ');
    return [
      `requests by transport: ${line(this.requests)} (total ${this.total})`,
      `cases by kind: ${line(this.kinds)}`,
      `answers by class: ${line(this.answers)}`,
      `other outcomes: ${line(this.outcomes) || 'none'}`,
    ].join('\n');
  }
}

/** A body as text, for the leak check (bytes as Latin-1, one character per byte). */
export function requestText(body: string | Uint8Array): string {
  return typeof body === 'string' ? body : Buffer.from(body).toString('latin1');
}
