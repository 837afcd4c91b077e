import type { Config } from "tailwindcss";

// Tailwind 4 reads its theme from CSS (client/src/index.css); this file carries the
// content globs and the class-based dark mode so the set-up is visible at the top level.
export default {
  content: ["./client/index.html", "./client/src/**/*.{ts,tsx}"],
  darkMode: "class",
  theme: { extend: {} },
} satisfies Config;
