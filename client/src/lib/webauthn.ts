// The browser's part of a WebAuthn ceremony (a passkey's sign-in, re-authentication, registration or signature).
// The browser's WebAuthn library is loaded only when a ceremony starts, so no page's first load carries it.

/** A ceremony the browser did not complete: the user cancelled, it timed out, or this device cannot do it. */
export class PasskeyCancelledError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PasskeyCancelledError";
  }
}

/** What to tell the user when the browser refused a ceremony (the library's WebAuthnError, or the DOMException). */
function browserRefusal(error: unknown, registering: boolean): PasskeyCancelledError | null {
  if (!(error instanceof Error)) return null;
  const code = "code" in error && typeof error.code === "string" ? error.code : "";
  if (code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED" || error.name === "InvalidStateError") {
    return new PasskeyCancelledError("This device already holds a passkey for your account.");
  }
  if (error.name === "NotAllowedError" || code === "ERROR_CEREMONY_ABORTED" || error.name === "AbortError") {
    return new PasskeyCancelledError(
      registering
        ? "No passkey was added: the request was cancelled or timed out."
        : "No passkey was used: the request was cancelled or timed out.",
    );
  }
  if (error.name === "NotSupportedError" || error.name === "SecurityError" || code.startsWith("ERROR_")) {
    return new PasskeyCancelledError("This browser or device cannot use a passkey here.");
  }
  if (/WebAuthn is not supported/i.test(error.message)) return new PasskeyCancelledError("This browser does not support passkeys.");
  return null;
}

const loadBrowserLibrary = () => import("@simplewebauthn/browser");
export type BrowserLibrary = Awaited<ReturnType<typeof loadBrowserLibrary>>;
type AuthenticationAnswer = Awaited<ReturnType<BrowserLibrary["startAuthentication"]>>;

/** Runs the browser's part of a ceremony (it asks the user); a refusal becomes a PasskeyCancelledError that says why. */
export async function onThisDevice<Answer>(ceremony: (library: BrowserLibrary) => Promise<unknown>, registering: boolean): Promise<Answer> {
  const library = await loadBrowserLibrary();
  try {
    return (await ceremony(library)) as Answer;
  } catch (error) {
    throw browserRefusal(error, registering) ?? error;
  }
}

/** This device's proof that it holds one of the passkeys the server's request options allow, over their challenge. */
export function authenticateOnThisDevice<Answer = AuthenticationAnswer>(options: unknown): Promise<Answer> {
  return onThisDevice(
    ({ startAuthentication }) => startAuthentication({ optionsJSON: options as Parameters<typeof startAuthentication>[0]["optionsJSON"] }),
    false,
  );
}
