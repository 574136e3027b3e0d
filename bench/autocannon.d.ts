// autocannon ships no types; this covers what bench/run.ts uses of its documented API.
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p99: number;
  }

  interface RequestSpec {
    method?: string;
    path?: string;
    body?: string;
    headers?: Record<string, string>;
  }

  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    pipelining?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: Array<RequestSpec & { setupRequest?: (request: RequestSpec, context: Record<string, unknown>) => RequestSpec }>;
  }

  interface Result {
    requests: Histogram & { total: number; sent: number };
    latency: Histogram;
    throughput: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
    '2xx': number;
  }

  interface Instance extends EventEmitter, PromiseLike<Result> {
    stop(): void;
  }

  function autocannon(options: Options): Instance;
  export default autocannon;
}
