/** A Logger that keeps every line it is given, for tests that check what was logged and how often. */
import type { Logger } from '../../src/logger.js';

export interface LogLine {
  level: string;
  fields: Record<string, unknown>;
  message: string | undefined;
}

export function recordingLogger(lines: LogLine[] = []): Logger {
  const at =
    (level: string) =>
    (fields: object, message?: string): void =>
      void lines.push({ level, fields: fields as Record<string, unknown>, message });
  const logger: Logger = {
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: () => logger,
  };
  return logger;
}
