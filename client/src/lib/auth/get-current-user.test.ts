import { HttpResponse } from "msw";
import * as authApi from "@shared/api/auth";
import { getAuthToken, setAuthToken } from "@/lib/auth-token";
import { EARLY_CURRENT_USER } from "@/lib/auth-token-key";
import { getCurrentUser } from "@/lib/auth/get-current-user";
import { buildUser } from "@/testing/factories";
import { handle } from "@/testing/handle";
import { server } from "@/testing/server";

const holder = window as unknown as Record<string, unknown>;

/** What the preload script leaves on the window: its request for the current user and the token it sent. */
function leaveEarlyRequest(token: string, response: Promise<Response>) {
  holder[EARLY_CURRENT_USER] = { token, response };
}

/** Counts the app's own requests for the current user, answering with `user`. */
function countServerRequests(user = buildUser({ firstName: "Asked" })) {
  const counter = { requests: 0 };
  server.use(
    handle(authApi.currentUser, () => {
      counter.requests += 1;
      return user;
    }),
  );
  return counter;
}

afterEach(() => {
  holder[EARLY_CURRENT_USER] = undefined;
});

describe("getCurrentUser", () => {
  it("takes the preload script's answer instead of asking again, once", async () => {
    setAuthToken("stored-token");
    const early = buildUser({ firstName: "Early" });
    leaveEarlyRequest("stored-token", Promise.resolve(HttpResponse.json(early)));
    const counter = countServerRequests();

    expect((await getCurrentUser())?.firstName).toBe("Early");
    expect(counter.requests).toBe(0);
    // A later ask (after a profile change, say) goes to the server.
    expect((await getCurrentUser())?.firstName).toBe("Asked");
    expect(counter.requests).toBe(1);
  });

  it("asks the server when the early request was sent with another token, and ends that request", async () => {
    setAuthToken("new-token");
    const stale = HttpResponse.json(buildUser({ firstName: "Someone else" }));
    leaveEarlyRequest("old-token", Promise.resolve(stale));
    const counter = countServerRequests();

    expect((await getCurrentUser())?.firstName).toBe("Asked");
    expect(counter.requests).toBe(1);
    // Its body was dropped (an answer nobody reads keeps its request open).
    await vi.waitFor(() => expect(stale.bodyUsed || stale.body?.locked).toBe(true));
  });

  it("tells a preload script that runs late to send nothing: the app has asked already", async () => {
    setAuthToken("stored-token");
    countServerRequests();
    await getCurrentUser();
    expect(holder[EARLY_CURRENT_USER]).toBe(false);
  });

  it("asks the server when the early request did not get through", async () => {
    setAuthToken("stored-token");
    leaveEarlyRequest("stored-token", Promise.reject(new TypeError("Failed to fetch")));
    const counter = countServerRequests();

    expect((await getCurrentUser())?.firstName).toBe("Asked");
    expect(counter.requests).toBe(1);
  });

  it("treats an early 401 like its own: the token is dropped and nobody is signed in", async () => {
    setAuthToken("revoked-token");
    leaveEarlyRequest("revoked-token", Promise.resolve(HttpResponse.json({ message: "Unauthorized" }, { status: 401 })));
    const counter = countServerRequests();

    expect(await getCurrentUser()).toBeNull();
    expect(getAuthToken()).toBeNull();
    expect(counter.requests).toBe(0);
  });
});
