/**
 * In tests every answer a route sends is held to its declared schema (http/endpoints.ts): a mismatch is kept
 * here and fails the test that caused it (setup.ts), so the API's description cannot drift from what it does.
 */
const mismatches: string[] = [];

export function reportAnswerMismatch(problem: string): void {
  mismatches.push(problem);
}

/** The mismatches reported since the last call, which clears them. */
export function takeAnswerMismatches(): string[] {
  return mismatches.splice(0, mismatches.length);
}
