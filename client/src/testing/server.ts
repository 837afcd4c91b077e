import { setupServer } from "msw/node";
import { handlers } from "@/testing/handlers";

/** The msw server of the client tests; unhandled requests fail the test (see setup.ts). */
export const server = setupServer(...handlers);
