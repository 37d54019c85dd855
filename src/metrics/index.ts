export { METRICS_PATH, MetricsServer, type MetricsServerOptions } from './metrics-server.js';
export {
  type BlockPhase,
  type ChainMetricsSource,
  type Increment,
  type MetricsSources,
  type NetworkMetricsSource,
  NodeMetrics,
  type Observation,
  type RpcServerMetricsSource,
  type StoreMetricsSource,
  type WorkerPoolMetricsSource,
} from './node-metrics.js';
