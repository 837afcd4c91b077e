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
});
