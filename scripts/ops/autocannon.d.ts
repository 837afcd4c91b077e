// autocannon ships no types; this is the part of its API the benchmark uses.
declare module "autocannon" {
  export interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (request: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest;
  }
  export interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p99: number;
    max: number;
    total: number;
  }
  export interface AutocannonResult {
    requests: Histogram;
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats?: Record<string, { count: number }>;
    duration: number;
  }
  export interface AutocannonOptions {
    url: string;
    connections?: number;
    duration?: number;
    timeout?: number;
    requests?: AutocannonRequest[];
    headers?: Record<string, string>;
    method?: string;
    body?: string;
  }
  export interface AutocannonInstance {
    /** Ends the run early; the callback then gets the results so far. */
    stop(): void;
  }
  function autocannon(options: AutocannonOptions): Promise<AutocannonResult>;
  function autocannon(options: AutocannonOptions, done: (error: Error | null, result: AutocannonResult) => void): AutocannonInstance;
  export default autocannon;
}
