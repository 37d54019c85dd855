/**
 * The prompter (hidden and visible questions) and the order of secret sources: flag, then
 * environment variable, then prompt; Lisk's prompt texts and errors.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Prompter, PromptCancelledError } from '../../../src/cli/support/prompt.js';
import { PASSPHRASE_ENV, PASSWORD_ENV, readSecret } from '../../../src/cli/support/secrets.js';
import { FakeTerminal } from './support.js';

function output() {
  let text = '';
  const stream = new PassThrough();
  stream.on('data', (chunk) => (text += String(chunk)));
  return { stream, text: () => text };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('Prompter on a terminal', () => {
  it('reads a hidden answer in raw mode, handles backspace, restores the mode, ends the line itself', async () => {
    const terminal = new FakeTerminal();
    const out = output();
    const prompter = new Prompter(terminal, out.stream);
    const answer = prompter.secret('Secret: ');
    await tick();
    expect(terminal.rawModes).toEqual([true]);
    terminal.write('pa');
    terminal.write('sx\u007fs\r');
    expect(await answer).toBe('pass');
    expect(terminal.rawModes).toEqual([true, false]);
    await tick();
    expect(out.text()).toBe('Secret: \n');
    prompter.close();
  });

  it('switches raw mode off for a visible question after a hidden one', async () => {
    const terminal = new FakeTerminal();
    const prompter = new Prompter(terminal, output().stream);
    const first = prompter.secret('A: ');
    terminal.write('one\r');
    expect(await first).toBe('one');
    const second = prompter.line('B: ');
    terminal.write('two\n');
    expect(await second).toBe('two');
    expect(terminal.rawModes).toEqual([true, false]);
    prompter.close();
  });

  it('Ctrl-C and Ctrl-D on an empty answer cancel; the terminal leaves raw mode', async () => {
    for (const key of ['abc\u0003', '\u0004']) {
      const terminal = new FakeTerminal();
      const prompter = new Prompter(terminal, output().stream);
      const answer = prompter.secret('S: ');
      terminal.write(key);
      await expect(answer).rejects.toThrow(PromptCancelledError);
      expect(terminal.rawModes).toEqual([true, false]);
      prompter.close();
    }
  });
});

describe('Prompter on a pipe', () => {
  it('reads one line per question from input that arrived all at once (LF and CRLF)', async () => {
    const pipe = new PassThrough();
    pipe.end('first\r\nsecond\n\nfourth');
    const prompter = new Prompter(pipe, output().stream);
    expect(await prompter.secret('1: ')).toBe('first');
    expect(await prompter.line('2: ')).toBe('second');
    expect(await prompter.line('3: ')).toBe('');
    expect(await prompter.secret('4: ')).toBe('fourth');
    await expect(prompter.line('5: ')).rejects.toThrow('No answer: the input ended before the prompt was answered.');
    prompter.close();
  });

  it('keeps control characters of a pipe as they are (no raw-mode editing)', async () => {
    const pipe = new PassThrough();
    pipe.end('a\u007fb\n');
    const prompter = new Prompter(pipe, output().stream);
    expect(await prompter.secret('S: ')).toBe('a\u007fb');
    prompter.close();
  });
});

describe('readSecret', () => {
  const pipePrompter = (input: string) => {
    const pipe = new PassThrough();
    pipe.end(input);
    const out = output();
    return { prompter: new Prompter(pipe, out.stream), out };
  };

  it('takes the flag first, then the environment, then the prompt (an empty flag counts as absent)', async () => {
    const { prompter } = pipePrompter('from-prompt\n');
    const never = () => {
      throw new Error('must not prompt');
    };
    expect(await readSecret(never, { kind: 'password', flag: 'from-flag', confirm: true, env: { [PASSWORD_ENV]: 'env' } })).toBe(
      'from-flag',
    );
    expect(await readSecret(never, { kind: 'password', flag: undefined, confirm: true, env: { [PASSWORD_ENV]: 'from-env' } })).toBe(
      'from-env',
    );
    expect(await readSecret(never, { kind: 'passphrase', flag: undefined, confirm: true, env: { [PASSPHRASE_ENV]: 'env phrase' } })).toBe(
      'env phrase',
    );
    expect(await readSecret(() => prompter, { kind: 'password', flag: '', confirm: false, env: {} })).toBe('from-prompt');
  });

  it("asks Lisk's questions and refuses empty or differing answers", async () => {
    const ok = pipePrompter('x y z\nx y z\n');
    expect(await readSecret(() => ok.prompter, { kind: 'passphrase', flag: undefined, confirm: true, env: {} })).toBe('x y z');
    expect(ok.out.text()).toBe('Please enter passphrase: \nPlease re-enter passphrase: \n');
    const custom = pipePrompter('pw\n');
    await readSecret(() => custom.prompter, {
      kind: 'password',
      flag: undefined,
      confirm: false,
      env: {},
      question: 'Enter password to decrypt the encrypted passphrase: ',
    });
    expect(custom.out.text()).toBe('Enter password to decrypt the encrypted passphrase: \n');
    await expect(
      readSecret(() => pipePrompter('a\nb\n').prompter, { kind: 'password', flag: undefined, confirm: true, env: {} }),
    ).rejects.toThrow('Password was not successfully repeated.');
    await expect(
      readSecret(() => pipePrompter('\n').prompter, { kind: 'password', flag: undefined, confirm: false, env: {} }),
    ).rejects.toThrow('Password was not successfully repeated.');
  });
});
