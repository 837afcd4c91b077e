// autocannon ships no types; this is the part of its API the benchmark uses.
declare module "autocannon" {
  interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (request: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest;
  }
  interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p99: number;
    max: number;
    total: number;
  }
  interface AutocannonResult {
    requests: Histogram;
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats?: Record<string, { count: number }>;
    duration: number;
  }
  interface AutocannonOptions {
    url: string;
    connections?: number;
    duration?: number;
    timeout?: number;
    requests?: AutocannonRequest[];
    headers?: Record<string, string>;
    method?: string;
    body?: string;
  }
  export default function autocannon(options: AutocannonOptions): Promise<AutocannonResult>;
}
