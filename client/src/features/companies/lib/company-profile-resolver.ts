import { zodResolver } from "@hookform/resolvers/zod";
import { companyProfileSchema } from "@shared/companies";

/**
 * Company Settings' profile validation: the shared profile schema, with its limits and messages. It is its own chunk,
 * loaded when the form is first touched, so the page paints and answers without the validation library.
 */
export const companyProfileResolver = zodResolver(companyProfileSchema);
