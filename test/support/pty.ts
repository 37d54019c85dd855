/**
 * Runs a `basalt` command on a pseudo-terminal and answers its prompts, as a person at a
 * keyboard would: hidden prompts (passphrases, passwords) read from a TTY only, so a pipe cannot
 * test them. Python's pty module drives the terminal (python3 is on every CI image we use).
 */
import { spawn } from 'node:child_process';
import { CLI_MAIN, ROOT } from './node-process.js';

/**
 * For each [expected, answer] step: wait until `expected` appears in the output, then type
 * `answer` and Enter. Prints {code, transcript, answered} as JSON.
 */
const PTY_DRIVER = `
import json, os, pty, select, sys, time
spec = json.loads(sys.stdin.read())
pid, fd = pty.fork()
if pid == 0:
    env = dict(os.environ); env.update(spec['env'])
    os.chdir(spec['cwd'])
    os.execvpe(spec['argv'][0], spec['argv'], env)
out = b''; pos = 0; step = 0; steps = spec['steps']
deadline = time.time() + spec['timeout']
while time.time() < deadline:
    ready, _, _ = select.select([fd], [], [], 0.1)
    if ready:
        try:
            data = os.read(fd, 65536)
        except OSError:
            data = b''
        if not data:
            break
        out += data
    while step < len(steps):
        expected = steps[step][0].encode()
        at = out.find(expected, pos)
        if at < 0:
            break
        pos = at + len(expected)
        os.write(fd, steps[step][1].encode() + b'\\r')
        step += 1
else:
    os.kill(pid, 9)
_, status = os.waitpid(pid, 0)
code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else -1
print(json.dumps({'code': code, 'transcript': out.decode('utf8', 'replace'), 'answered': step}))
`;

export interface PtyResult {
  /** Exit code of the command (-1 when it was killed at the timeout). */
  readonly code: number;
  /** What the terminal showed: prompts, echoed input (none for hidden prompts), output. */
  readonly transcript: string;
  /** How many steps were answered. */
  readonly answered: number;
}

/** Runs `basalt ARGS` on a pseudo-terminal, answering `steps` in order. */
export function runBasaltOnPty(
  args: readonly string[],
  steps: readonly (readonly [string, string])[],
  options: { env?: Record<string, string>; timeoutSeconds?: number } = {},
): Promise<PtyResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', ['-c', PTY_DRIVER], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', () => {
      try {
        resolve(JSON.parse(stdout) as PtyResult);
      } catch {
        reject(new Error(`pty driver failed: ${stderr}`));
      }
    });
    const argv = [process.execPath, '--import', 'tsx', CLI_MAIN, ...args];
    child.stdin.end(JSON.stringify({ argv, env: options.env ?? {}, cwd: ROOT, steps, timeout: options.timeoutSeconds ?? 120 }));
  });
}
