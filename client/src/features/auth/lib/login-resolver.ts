import { zodResolver } from "@hookform/resolvers/zod";
import { loginSchema } from "@shared/auth";

/**
 * The sign-in form's validation: the shared login schema, with its limits and messages. It is its
 * own chunk, loaded when the visitor first touches the form, so the page a visitor lands on paints
 * without the validation library (about 15 KB compressed).
 */
export const loginResolver = zodResolver(loginSchema);
