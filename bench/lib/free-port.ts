/** Ports for processes that must be told theirs up front. */
import { createServer } from 'node:net';

/** A TCP port free right now on `host` (the OS picks it, so it never collides with a fixed port). */
export function freePort(host: string): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, host, () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}
