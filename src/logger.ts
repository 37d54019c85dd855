/**
 * The logging surface every room uses. The node wires a structured logger behind it (running-node
 * issue); tests and library users get the silent one. Log calls take a fields object first so
 * that values stay structured; never pass secrets (keys, passphrases, passwords) in either.
 */
export interface Logger {
  trace(fields: object, message?: string): void;
  debug(fields: object, message?: string): void;
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
  child(fields: object): Logger;
}

const noop = (): void => undefined;

export const silentLogger: Logger = {
  trace: noop,
  debug: noop,
  info: noop,
  warn: noop,
  error: noop,
  child: () => silentLogger,
};
