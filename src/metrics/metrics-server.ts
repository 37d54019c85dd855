/**
 * `GET /metrics` for Prometheus, on a host and port of its own (config `metrics`), off by
 * default. node:http rather than uWebSockets.js: a scraper asks every 15 s or so, so the few
 * microseconds uWS saves per request buy nothing, and a second uWS app would share nothing with
 * the RPC server anyway. Rendering the text is the cost that matters, and prom-client does it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BasaltError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { NodeMetrics } from './node-metrics.js';

export const METRICS_PATH = '/metrics';

export interface MetricsServerOptions {
  readonly host: string;
  /** 0 asks the system for a free port (see `port` once started). */
  readonly port: number;
}

export class MetricsServer {
  private server: Server | undefined;
  private boundPort: number;

  constructor(
    private readonly metrics: NodeMetrics,
    private readonly options: MetricsServerOptions,
    private readonly logger: Logger,
  ) {
    this.boundPort = options.port;
  }

  /** The bound port once started (the configured one before). */
  get port(): number {
    return this.boundPort;
  }

  /** Listens; rejects with the system's error when the address is taken or not available. */
  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const path = (req.url ?? '').split('?', 1)[0];
      if (path !== METRICS_PATH) {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end(`Not found. Metrics are served at GET ${METRICS_PATH}.`);
        return;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain' }).end(`${METRICS_PATH} answers GET only.`);
        return;
      }
      this.metrics.registry.metrics().then(
        (text) => res.writeHead(200, { 'Content-Type': this.metrics.registry.contentType }).end(req.method === 'HEAD' ? undefined : text),
        (error: unknown) => {
          this.logger.error({ err: error }, 'Metrics could not be collected');
          res.writeHead(500, { 'Content-Type': 'text/plain' }).end('Metrics could not be collected.');
        },
      );
    });
    // A scrape is one short request: idle keep-alive sockets must not hold the stop up.
    server.keepAliveTimeout = 5_000;
    const { host, port } = this.options;
    await new Promise<void>((resolve, reject) => {
      const refuse = (error: Error): void =>
        reject(
          new BasaltError('ERR_METRICS_LISTEN', `The metrics server cannot listen on ${host}:${port}: ${error.message}`, { cause: error }),
        );
      server.once('error', refuse);
      server.listen(port, host, () => {
        server.off('error', refuse);
        resolve();
      });
    });
    server.on('error', (error) => this.logger.error({ err: error }, 'Metrics server error'));
    this.server = server;
    this.boundPort = (server.address() as AddressInfo).port;
    this.logger.info({ host: this.options.host, port: this.boundPort, path: METRICS_PATH }, 'Metrics server listening');
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server === undefined) return;
    this.server = undefined;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}
