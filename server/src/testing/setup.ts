import { takeAnswerMismatches } from "./answer-check";

// A console.error during a server test is a bug the assertions did not catch.
const originalError = console.error;
beforeEach(() => {
  console.error = (...args: unknown[]) => {
    originalError(...args);
    throw new Error(`console.error during test: ${args.map(String).join(" ")}`);
  };
});
afterEach(() => {
  console.error = originalError;
  const mismatches = takeAnswerMismatches();
  if (mismatches.length > 0) throw new Error(`answers that break their declared schema:\n${mismatches.join("\n")}`);
});
