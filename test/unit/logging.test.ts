import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logging.js';

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
