import { describe, expect, it } from 'vitest';
import type { Logger } from '../../../src/logger.js';
import { NodeEventBus } from '../../../src/plugins/node-event-bus.js';
import { RawJson } from '../../../src/rpc/raw-json.js';

function errorLog(): { logger: Logger; errors: { fields: object; message: string | undefined }[] } {
  const errors: { fields: object; message: string | undefined }[] = [];
  const noop = (): void => undefined;
  const logger: Logger = {
    trace: noop,
    debug: noop,
    info: noop,
    warn: noop,
    error: (fields, message) => errors.push({ fields, message }),
    child: () => logger,
  };
  return { logger, errors };
}

describe('NodeEventBus', () => {
  it('delivers an event to its exact listeners, then to `*` listeners', () => {
    const bus = new NodeEventBus(errorLog().logger);
    const seen: string[] = [];
    bus.subscribe('*', (event) => void seen.push(`all:${event}`));
    bus.subscribe('chain_newBlock', (event, data) => void seen.push(`exact:${event}:${JSON.stringify(data)}`));
    bus.notify('chain_newBlock', { blockHeader: { height: 3 } });
    bus.notify('txpool_newTransaction', { transaction: {} });
    expect(seen).toEqual(['exact:chain_newBlock:{"blockHeader":{"height":3}}', 'all:chain_newBlock', 'all:txpool_newTransaction']);
  });

  it('parses RawJson once for all listeners, and not at all without listeners', () => {
    const bus = new NodeEventBus(errorLog().logger);
    const values: unknown[] = [];
    bus.subscribe('chain_newBlock', (_event, data) => void values.push(data));
    bus.subscribe('*', (_event, data) => void values.push(data));
    bus.notify('chain_newBlock', new RawJson('{"blockHeader":{"height":7}}'));
    expect(values).toEqual([{ blockHeader: { height: 7 } }, { blockHeader: { height: 7 } }]);
    expect(values[0]).toBe(values[1]);
    // Invalid JSON would be logged if parsed: nobody listens to this one, so it is not.
    const { logger, errors } = errorLog();
    new NodeEventBus(logger).notify('x', new RawJson('{'));
    expect(errors).toEqual([]);
  });

  it('logs and drops invalid RawJson when someone listens', () => {
    const { logger, errors } = errorLog();
    const bus = new NodeEventBus(logger);
    let called = false;
    bus.subscribe('x', () => void (called = true));
    bus.notify('x', new RawJson('{'));
    expect(called).toBe(false);
    expect(errors.map((entry) => entry.message)).toEqual(['Node event is not valid JSON; not delivered to plugins']);
  });

  it('stops delivering after unsubscribe, even from inside a delivery', () => {
    const bus = new NodeEventBus(errorLog().logger);
    const seen: string[] = [];
    const stopSecond = bus.subscribe('e', () => void seen.push('second'));
    bus.subscribe('e', () => {
      seen.push('first');
    });
    const stopSelf = bus.subscribe('e', () => {
      seen.push('self');
      stopSelf();
      stopSecond();
    });
    bus.notify('e', {});
    bus.notify('e', {});
    expect(seen).toEqual(['second', 'first', 'self', 'first']);
  });

  it('isolates listeners: a throw or a rejection is logged and the others still run', async () => {
    const { logger, errors } = errorLog();
    const bus = new NodeEventBus(logger);
    const seen: string[] = [];
    bus.subscribe('e', () => {
      throw new Error('sync failure');
    });
    bus.subscribe('e', async () => {
      await Promise.resolve();
      throw new Error('async failure');
    });
    bus.subscribe('e', () => void seen.push('ran'));
    expect(() => bus.notify('e', {})).not.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen).toEqual(['ran']);
    expect(errors.map((entry) => [entry.message, (entry.fields as { err: Error }).err.message])).toEqual([
      ['A plugin event listener failed', 'sync failure'],
      ['A plugin event listener failed', 'async failure'],
    ]);
  });
});
