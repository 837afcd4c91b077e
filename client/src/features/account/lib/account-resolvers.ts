import { zodResolver } from "@hookform/resolvers/zod";
import { passwordChangeSchema, profileFormSchema } from "@shared/account";

/**
 * Settings' validation: the shared profile and password schemas, with their limits and messages. It is its own
 * chunk, loaded when a form is first touched, so the page paints and answers without the validation library.
 */
export const profileResolver = zodResolver(profileFormSchema);
export const passwordChangeResolver = zodResolver(passwordChangeSchema);
