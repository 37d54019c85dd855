/**
 * Helpers of the CLI unit tests: an IO that captures stdout/stderr and feeds stdin, and a fake
 * terminal input that records raw-mode switches.
 */
import { PassThrough, Writable } from 'node:stream';
import type { PromptInput, PromptIO } from '../../../src/cli/support/prompt.js';

export interface CapturedIO extends PromptIO {
  readonly stdin: PromptInput;
  out(): string;
  err(): string;
}

function sink(append: (text: string) => void): Writable {
  return new Writable({
    write(chunk, _encoding, done) {
      append(String(chunk));
      done();
    },
  });
}

/** An IO whose stdin is a pipe holding `input` (then ended), unless `stdin` is given. */
export function captureIO(input = '', stdin?: PromptInput): CapturedIO {
  let out = '';
  let err = '';
  const pipe = stdin ?? new PassThrough();
  if (!stdin) (pipe as PassThrough).end(input);
  return { stdin: pipe, stdout: sink((text) => (out += text)), stderr: sink((text) => (err += text)), out: () => out, err: () => err };
}

/** A stand-in for a terminal: isTTY, records setRawMode calls; write() types characters. */
export class FakeTerminal extends PassThrough implements PromptInput {
  readonly isTTY = true;
  readonly rawModes: boolean[] = [];
  setRawMode(mode: boolean): this {
    this.rawModes.push(mode);
    return this;
  }
}

/** Temporarily sets environment variables for `work`. */
export async function withEnv<T>(vars: Record<string, string | undefined>, work: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((key) => [key, process.env[key]]));
  for (const [key, value] of Object.entries(vars)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  try {
    return await work();
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}
