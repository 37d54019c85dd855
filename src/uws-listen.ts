/**
 * Listening on a TCP port with uWebSockets.js for the node's two HTTP servers (the RPC server and
 * the legacy forging API), with the exclusive-port option: without it uWS may share a port with
 * another process (SO_REUSEPORT) instead of failing to listen.
 *
 * The installed package has that option at run time but lacks it in its type declarations; the
 * augmentation below adds the missing `listen` overload, so no call needs a cast.
 */
import uWS, { type TemplatedApp, type us_listen_socket } from 'uWebSockets.js';

declare module 'uWebSockets.js' {
  interface TemplatedApp {
    /** Listens to host and port with uSockets listen options (LIBUS_LISTEN_*). */
    listen(
      host: RecognizedString,
      port: number,
      options: number,
      cb: (listenSocket: us_listen_socket | false) => void | Promise<void>,
    ): TemplatedApp;
  }
}

/** uSockets' LIBUS_LISTEN_EXCLUSIVE_PORT, from the addon when it exports the constant. */
const LISTEN_EXCLUSIVE_PORT = numberExport('LIBUS_LISTEN_EXCLUSIVE_PORT') ?? 1;

function numberExport(name: string): number | undefined {
  const value: unknown = Reflect.get(uWS, name);
  return typeof value === 'number' ? value : undefined;
}

/** Listens on `host:port`, refusing a port another process holds; `callback` gets false on failure. */
export function listenExclusive(
  app: TemplatedApp,
  host: string,
  port: number,
  callback: (listenSocket: us_listen_socket | false) => void,
): void {
  app.listen(host, port, LISTEN_EXCLUSIVE_PORT, callback);
}

/** The local port of a listen socket (the one the system chose when asked for port 0). */
export function listenSocketPort(listenSocket: us_listen_socket): number {
  return uWS.us_socket_local_port(listenSocket);
}
