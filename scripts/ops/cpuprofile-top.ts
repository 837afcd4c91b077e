// Reads a V8 .cpuprofile (node --cpu-prof) and lists where the time went: the functions with the most self time,
// the most total time (each function counted once per sample, so recursion is not counted twice), and self time
// per package. `npx tsx scripts/ops/cpuprofile-top.ts <file.cpuprofile> [count]`; npm run bench -- --profile uses it.
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** node_modules/<package> (scoped too), node's own modules, or the app's file. */
function packageOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1]!;
  if (url.startsWith("node:")) return "node:" + url.slice(5).split("/")[0];
  return url.includes("/dist/") ? "quorum" : url.split("/").slice(-2).join("/");
}

function keyOf(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url
    ? `${url
        .replace(/^file:\/\//, "")
        .replace(/^.*node_modules\//, "")
        .replace(/^.*\/dist\//, "dist/")}:${lineNumber + 1}`
    : "";
  return `${functionName || "(anonymous)"} ${where}`.trim();
}

export function summarizeProfile(profile: CpuProfile, count = 25): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const packages = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    const node = byId.get(id);
    if (!node) return;
    if (node.callFrame.functionName === "(idle)") {
      idle += delta;
      return;
    }
    busy += delta;
    const key = keyOf(node);
    self.set(key, (self.get(key) ?? 0) + delta);
    const pkg = packageOf(node.callFrame.url, node.callFrame.functionName);
    packages.set(pkg, (packages.get(pkg) ?? 0) + delta);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!;
      const frameKey = keyOf(frame);
      if (frameKey === "(root)" || seen.has(frameKey)) continue;
      seen.add(frameKey);
      total.set(frameKey, (total.get(frameKey) ?? 0) + delta);
    }
  });
  const pct = (value: number) => `${((100 * value) / Math.max(busy, 1)).toFixed(1).padStart(5)}%`;
  const top = (map: Map<string, number>) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([key, value]) => `  ${pct(value)}  ${key}`)
      .join("\n");
  return [
    `busy ${(busy / 1e6).toFixed(1)} s, idle ${(idle / 1e6).toFixed(1)} s (percentages are of busy time)`,
    "self time by package:",
    top(packages),
    "self time:",
    top(self),
    "total time:",
    top(total),
  ].join("\n");
}

if (process.argv[1]?.endsWith("cpuprofile-top.ts") && process.argv[2]) {
  console.log(summarizeProfile(JSON.parse(readFileSync(process.argv[2], "utf8")) as CpuProfile, Number(process.argv[3] ?? 25)));
}
