/**
 * Where a command gets a passphrase or a password (docs/protocol/cli.md): a flag, an
 * environment variable, or a hidden prompt, in that order. Flags and environment variables
 * exist for scripts and are a risk: a flag's value is visible to every local user in the
 * process list and lands in the shell history; an environment variable is readable by the
 * same user (/proc/<pid>/environ) and inherited by child processes. Every command's help says so.
 *
 * Prompt texts and errors are Lisk's: `Please enter passphrase: `, `Please re-enter
 * passphrase: `, `Passphrase was not successfully repeated.`
 */
import { createPrompter, type Prompter, type PromptIO } from './prompt.js';

/** Environment variables read when the flag is absent (documented as a risk in every help). */
export const PASSPHRASE_ENV = 'BASALT_PASSPHRASE';
export const PASSWORD_ENV = 'BASALT_PASSWORD';

/** The help paragraph every command with secrets shows. */
export const SECRETS_RISK_NOTE = `Secrets: without --passphrase/--password (or ${PASSPHRASE_ENV}/${PASSWORD_ENV}) you are
asked on a hidden prompt; with a pipe on stdin, one line per question is read from it. The flags
and variables exist for scripts and are a RISK: a flag's value is visible to other local users in
the process list and is kept in your shell history; a variable is inherited by child processes.`;

export type SecretKind = 'passphrase' | 'password';

export interface SecretRequest {
  readonly kind: SecretKind;
  /** The flag's value; an empty string counts as absent (as Lisk treats --password=""). */
  readonly flag: string | undefined;
  /** Ask twice and compare (keys:create, passphrase:encrypt, keys:encrypt). */
  readonly confirm: boolean;
  /** A custom question instead of `Please enter <kind>: ` (generator:enable). */
  readonly question?: string;
  readonly env?: NodeJS.ProcessEnv;
}

const capitalised = (kind: SecretKind): string => `${kind.charAt(0).toUpperCase()}${kind.slice(1)}`;

/** Thrown for an empty or unconfirmed answer; the message never contains the secret. */
export class SecretNotRepeatedError extends Error {
  constructor(kind: SecretKind) {
    super(`${capitalised(kind)} was not successfully repeated.`);
  }
}

/** The secret from the flag, the environment, or the prompter. */
export async function readSecret(prompter: () => Prompter, request: SecretRequest): Promise<string> {
  if (request.flag !== undefined && request.flag !== '') return request.flag;
  const fromEnv = (request.env ?? process.env)[request.kind === 'passphrase' ? PASSPHRASE_ENV : PASSWORD_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  const ask = prompter();
  const answer = await ask.secret(request.question ?? `Please enter ${request.kind}: `);
  if (answer === '') throw new SecretNotRepeatedError(request.kind);
  if (request.confirm) {
    const repeated = await ask.secret(`Please re-enter ${request.kind}: `);
    if (repeated !== answer) throw new SecretNotRepeatedError(request.kind);
  }
  return answer;
}

/**
 * readSecret for one question: the prompter, when one is needed at all, is opened for it and
 * closed before the answer is returned or the read fails.
 */
export async function readSecretOnce(io: PromptIO, request: SecretRequest): Promise<string> {
  let prompter: Prompter | undefined;
  try {
    return await readSecret(() => (prompter ??= createPrompter(io)), request);
  } finally {
    prompter?.close();
  }
}
