import { currentUser } from "../../shared/api/auth";
import { preloadScript } from "./signed-in-preload";

describe("the signed-in preload script", () => {
  // The app takes the script's answer in place of its own request (client/src/lib/auth/get-current-user.ts), so
  // both must ask the same endpoint: the script is written out by the build, outside the client's declared calls.
  it("asks for the current user at the address the endpoint's declaration names", () => {
    expect(preloadScript([], [])).toContain(`fetch(${JSON.stringify(currentUser.path)},`);
  });
});
