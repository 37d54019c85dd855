/**
 * The shape of a `basalt` command. Exit codes are shared by every command: 0 success,
 * 1 usage error, 2 node or environment error, 3 a chain that disagrees with what Basalt computes,
 * 4 a write the store could not commit (disk full or failing; committed blocks are kept).
 */
export const EXIT_OK = 0;
export const EXIT_USAGE = 1;
export const EXIT_NODE_ERROR = 2;
export const EXIT_CHAIN_MISMATCH = 3;
export const EXIT_STORE_WRITE_FAILED = 4;

export class UsageError extends Error {}

export interface CliIO {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

export interface CliCommand {
  readonly name: string;
  readonly summary: string;
  /** Full help text: usage line, flags, examples. */
  readonly help: string;
  run(argv: readonly string[], io: CliIO): Promise<number>;
}
