/**
 * Questions on the terminal (docs/protocol/cli.md): hidden prompts for secrets and visible ones for
 * command params. On a terminal a hidden answer is read in raw mode, so the terminal never echoes
 * it (not even as `*`, which would leak its length). When stdin is a pipe, answers are read line by
 * line from it, which lets scripts feed secrets without putting them on the command line or in the
 * shell history.
 *
 * Questions go to stderr: stdout carries only the command's data (JSON), so it can be piped.
 */
import type { CliIO } from '../command.js';

/** What the prompter reads from: process.stdin or a stand-in (tests). */
export interface PromptInput extends NodeJS.ReadableStream {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
}

/** CliIO plus an optional input; commands fall back to process.stdin. */
export interface PromptIO extends CliIO {
  readonly stdin?: PromptInput;
}

/** The user pressed Ctrl-C or Ctrl-D at a prompt. */
export class PromptCancelledError extends Error {
  constructor() {
    super('Cancelled at the prompt.');
  }
}

const CTRL_C = '\u0003';
const CTRL_D = '\u0004';
const BACKSPACE = '\u007f';
const CTRL_H = '\b';

interface PendingAnswer {
  readonly hidden: boolean;
  readonly resolve: (answer: string) => void;
  readonly reject: (error: Error) => void;
  current: string;
}

/**
 * Reads answers from one input. One prompter per command run: input that arrives before it is
 * asked for (a pipe delivers every line at once) is kept for the next question.
 */
export class Prompter {
  private queue = '';
  private ended = false;
  private listening = false;
  private pending: PendingAnswer | undefined;
  private rawMode = false;

  constructor(
    private readonly input: PromptInput,
    private readonly output: NodeJS.WritableStream,
  ) {}

  /** Asks `question` and reads the answer without echo. */
  secret(question: string): Promise<string> {
    return this.ask(question, true);
  }

  /** Asks `question` and reads a visible answer. */
  line(question: string): Promise<string> {
    return this.ask(question, false);
  }

  /** Stops reading; the input no longer keeps the process alive. */
  close(): void {
    this.setRaw(false);
    if (this.listening) {
      this.input.removeListener('data', this.onData);
      this.input.removeListener('end', this.onEnd);
      this.listening = false;
    }
    this.input.pause();
  }

  private ask(question: string, hidden: boolean): Promise<string> {
    if (this.pending) return Promise.reject(new Error('A prompt is already waiting for an answer.'));
    return new Promise<string>((resolve, reject) => {
      this.pending = { hidden, resolve, reject, current: '' };
      // Echo goes off before the question shows: a fast typist (or a script) answering the
      // moment it appears must not see the answer echoed.
      if (hidden) this.setRaw(true);
      this.output.write(question);
      if (!this.listening) {
        this.input.setEncoding('utf8');
        this.input.on('data', this.onData);
        this.input.on('end', this.onEnd);
        this.listening = true;
      }
      this.input.resume();
      this.pump();
    });
  }

  private readonly onData = (chunk: string | Buffer): void => {
    this.queue += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    this.pump();
  };

  private readonly onEnd = (): void => {
    this.ended = true;
    this.pump();
  };

  /** Moves queued characters into the waiting answer until it is complete. */
  private pump(): void {
    const pending = this.pending;
    if (!pending) return;
    let index = 0;
    for (; index < this.queue.length; index += 1) {
      const char = this.queue[index] as string;
      if (char === '\r' || char === '\n') {
        // CR LF (a Windows-style pipe) is one line end; a CR alone is Enter in raw mode.
        const next = char === '\r' && this.queue[index + 1] === '\n' ? index + 2 : index + 1;
        this.queue = this.queue.slice(next);
        this.finish(pending.current);
        return;
      }
      if (this.rawMode && (char === CTRL_C || (char === CTRL_D && pending.current === ''))) {
        this.queue = '';
        this.fail(new PromptCancelledError());
        return;
      }
      if (this.rawMode && (char === BACKSPACE || char === CTRL_H)) {
        pending.current = [...pending.current].slice(0, -1).join('');
        continue;
      }
      pending.current += char;
    }
    this.queue = '';
    if (this.ended) {
      if (pending.current !== '') this.finish(pending.current);
      else this.fail(new Error('No answer: the input ended before the prompt was answered.'));
    }
  }

  private finish(answer: string): void {
    const pending = this.pending as PendingAnswer;
    this.pending = undefined;
    // Enter was not echoed in raw mode: end the prompt's line ourselves.
    if (pending.hidden) this.output.write('\n');
    this.idle();
    pending.resolve(answer);
  }

  private fail(error: Error): void {
    const pending = this.pending as PendingAnswer;
    this.pending = undefined;
    this.output.write('\n');
    this.idle();
    pending.reject(error);
  }

  private idle(): void {
    this.setRaw(false);
    this.input.pause();
  }

  private setRaw(on: boolean): void {
    if (!this.input.isTTY || typeof this.input.setRawMode !== 'function' || this.rawMode === on) return;
    this.input.setRawMode(on);
    this.rawMode = on;
  }
}

/** A prompter on the command's input (process.stdin unless the IO brings one), asking on stderr. */
export function createPrompter(io: PromptIO): Prompter {
  return new Prompter(io.stdin ?? process.stdin, io.stderr);
}
