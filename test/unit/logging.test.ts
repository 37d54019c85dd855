import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { chooseLogFormat, createLogger, prettyLine } from '../../src/logging.js';

function captureText(isTTY = false): { stream: Writable & { isTTY?: boolean }; text: () => string } {
  const chunks: string[] = [];
  const stream: Writable & { isTTY?: boolean } = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  if (isTTY) stream.isTTY = true;
  return { stream, text: () => chunks.join('') };
}

function capture(): { stream: Writable; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  return {
    stream,
    lines: () =>
      chunks
        .join('')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe('createLogger', () => {
  it('writes one JSON record per call with level, message and fields', () => {
    const out = capture();
    const logger = createLogger('info', out.stream);
    logger.info({ height: 5 }, 'Block stored');
    logger.debug({ height: 6 }, 'not shown at info');
    const [record] = out.lines();
    expect(out.lines()).toHaveLength(1);
    expect(record).toMatchObject({ height: 5, msg: 'Block stored', level: 30 });
  });

  it('censors secret fields wherever they appear in a record', () => {
    const out = capture();
    const logger = createLogger('trace', out.stream);
    logger.warn(
      { password: 'hunter2', keys: { generatorPrivateKey: 'aa', blsPrivateKey: 'bb' }, nested: { deep: { passphrase: 'p' } } },
      'x',
    );
    logger.child({ privateKey: 'cc' }).info({}, 'y');
    const text = out
      .lines()
      .map((line) => JSON.stringify(line))
      .join('\n');
    for (const secret of ['hunter2', '"aa"', '"bb"', '"cc"', '"p"']) expect(text).not.toContain(secret);
    expect(text).toContain('[redacted]');
  });
});

describe('log formats', () => {
  it('are JSON unless asked otherwise or writing to a terminal', () => {
    expect(chooseLogFormat(undefined, {})).toBe('json');
    expect(chooseLogFormat(undefined, { isTTY: false })).toBe('json');
    expect(chooseLogFormat(undefined, { isTTY: true })).toBe('pretty');
    expect(chooseLogFormat('json', { isTTY: true })).toBe('json');
    expect(chooseLogFormat('pretty', {})).toBe('pretty');
  });

  it('writes human lines in pretty format: time, level, module, fields, message; secrets still censored', () => {
    const out = captureText();
    const logger = createLogger('info', out.stream, 'pretty');
    logger.info({ height: 5, syncing: false, modes: ['ipc', 'ws'] }, 'Block stored');
    logger.child({ component: 'rpc' }).warn({ password: 'hunter2', port: 7887 }, 'Port busy');
    const lines = out.text().split('\n').filter(Boolean);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z INFO {2}basalt \[height=5 syncing=false modes=\["ipc","ws"\]\] Block stored$/,
    );
    expect(lines[1]).toMatch(/ WARN {2}rpc \[password=\[redacted\] port=7887\] Port busy$/);
    expect(out.text()).not.toContain('hunter2');
    expect(out.text()).not.toContain('\u001b[');
  });

  it('colours the level on a terminal, shows an error with its stack from the error level up', () => {
    const out = captureText(true);
    const logger = createLogger('info', out.stream, 'pretty');
    logger.error({ err: new Error('disk full') }, 'Commit failed');
    const [first, second] = out.text().split('\n');
    expect(first).toContain('\u001b[31mERROR\u001b[0m basalt [err=disk full] Commit failed');
    expect(second).toMatch(/^ {4}Error: disk full/);
  });

  it('passes through what is not a record, and cuts long values', () => {
    expect(prettyLine('not json\n')).toBe('not json\n');
    const line = prettyLine(JSON.stringify({ time: 't', level: 20, module: 'm', msg: 'x', blob: 'a'.repeat(500) }));
    expect(line).toBe(`t DEBUG m [blob=${'a'.repeat(119)}…] x\n`);
  });
});
