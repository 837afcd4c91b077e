/** A device name a person recognises ("Chrome on macOS") from a User-Agent header; no more is read from it. */
export function deviceFromUserAgent(userAgent: string | null | undefined): string {
  if (!userAgent) return "Unknown device";
  const browser = firstMatch(userAgent, [
    [/\bEdg(e|A|iOS)?\//, "Edge"],
    [/\bOPR\/|\bOpera\b/, "Opera"],
    [/\bFirefox\/|\bFxiOS\//, "Firefox"],
    [/\bHeadlessChrome\//, "Headless Chrome"],
    [/\bChromium\//, "Chromium"],
    [/\bChrome\/|\bCriOS\//, "Chrome"],
    [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
    [/^curl\//, "curl"],
  ]);
  const system = firstMatch(userAgent, [
    [/\biPhone\b|\biPad\b|\biPod\b/, "iOS"],
    [/\bAndroid\b/, "Android"],
    [/\bCrOS\b/, "ChromeOS"],
    [/\bWindows\b/, "Windows"],
    [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
    [/\bLinux\b/, "Linux"],
  ]);
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? "Unknown device";
}

function firstMatch(value: string, patterns: [RegExp, string][]): string | null {
  for (const [pattern, name] of patterns) if (pattern.test(value)) return name;
  return null;
}
