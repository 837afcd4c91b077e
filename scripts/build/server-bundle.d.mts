import type { BuildOptions } from "esbuild";

export declare const serverBundleOptions: BuildOptions;

export declare const pdfWorkerEntry: Record<string, string>;
