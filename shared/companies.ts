import { z } from "zod";
import { answer } from "./answer";
import { logoNotImageMessage, logoTooLargeMessage, maxLogoBytes, maxLogoUrlLength } from "./company-logo";
import { email, id, isHttpUrl, limits, optionalHttpUrl, password, requiredText, text } from "./input";
import { employeeCounts } from "./options";
import { companyRoles } from "./roles";
import { readingSettingsAnswerFields, readingSettingsFields } from "./paper-reading";
import { searchSettingsAnswerFields, searchSettingsFields } from "./search";
import { governanceSettingsAnswerFields, governanceSettingsFields } from "./written-resolutions";

export { logoNotImageMessage, logoTooLargeMessage, maxLogoBytes, maxLogoUrlLength };

const dataImageUrl = /^data:image\/[a-z0-9.+-]+(;[a-z0-9=.+-]+)*;base64,[a-z0-9+/]+=*$/i;

/** True for a data:image/* URL or an https address (what a company logo may be). */
export function isAcceptableLogoUrl(value: string): boolean {
  return dataImageUrl.test(value) || isHttpUrl(value, ["https:"]);
}

const optionalText = (max: number) => z.nullish(text({ max }));

const website = z.nullish(optionalHttpUrl("Please enter a valid URL"));

const logoUrl = z.nullish(
  text({ max: maxLogoUrlLength, maxMessage: logoTooLargeMessage, trim: false }).check(
    z.refine((value) => value === "" || isAcceptableLogoUrl(value), logoNotImageMessage),
  ),
);

const employeeCount = z.union([z.enum(employeeCounts), z.literal("")], { error: "Please choose a company size" }).nullish();

const companyFields = {
  name: requiredText("Company name is required", limits.title),
  industry: requiredText("Industry is required"),
  location: requiredText("Location is required", limits.title),
  stage: requiredText("Funding stage is required"),
  description: optionalText(2000),
  logoUrl,
  website,
  employeeCount,
};

/** POST /api/companies and PUT /api/companies/:id; also the settings form. */
export const companyProfileSchema = z.object({
  ...companyFields,
  invitationMessage: optionalText(2000),
  /** Members without a second factor must set one up before they see the company; absent: unchanged. */
  requireSecondFactor: z.optional(z.boolean({ error: "Require two-factor sign-in must be on or off" })),
  /** The board's rule for written resolutions (founders and admins); absent: unchanged. */
  ...governanceSettingsFields,
  /** Read receipts and how long directors' notes are kept (founders and admins); absent: unchanged. */
  ...readingSettingsFields,
  ...searchSettingsFields,
});
export type CompanyProfileInput = z.input<typeof companyProfileSchema>;

/** The onboarding wizard's form: City and Country are combined into `location` when it submits. */
export const onboardingFormSchema = z
  .object({
    name: companyFields.name,
    industry: companyFields.industry,
    stage: companyFields.stage,
    description: companyFields.description,
    city: text({ max: limits.name }),
    country: text({ max: limits.name }),
    website,
    employeeCount,
    logoUrl,
  })
  .refine((values) => Boolean(values.city?.trim() || values.country?.trim()), {
    message: "Location is required",
    path: ["city"],
    // Reported together with the other fields' messages, not only once they are fixed.
    when: () => true,
  });
export type OnboardingFormValues = z.input<typeof onboardingFormSchema>;

/** "City, Country", or whichever of the two was given. */
export function combineLocation(city: string | null | undefined, country: string | null | undefined): string {
  return [city?.trim(), country?.trim()].filter(Boolean).join(", ");
}

/** The onboarding form's values as the body of POST /api/companies. */
export function onboardingToCompany(values: OnboardingFormValues): CompanyProfileInput {
  return {
    name: values.name,
    industry: values.industry,
    stage: values.stage,
    location: combineLocation(values.city, values.country),
    description: values.description || null,
    website: values.website || null,
    employeeCount: values.employeeCount || null,
    logoUrl: values.logoUrl || null,
  };
}

const roleField = z.enum(companyRoles, { error: "Role is required" });
/** The route implies the company; a body may repeat it (the forms send it) but never name another. */
const bodyCompanyId = z.nullish(id("companyId must be the company in the address"));

/** The Add Member dialog: creates the account, or adds an existing one by e-mail. */
export const addMemberSchema = z.object({
  email: email("Invalid email address"),
  firstName: requiredText("First name is required"),
  lastName: requiredText("Last name is required"),
  role: roleField,
  password: password("Password must be at least 6 characters"),
  companyId: bodyCompanyId,
});
export type AddMemberInput = z.input<typeof addMemberSchema>;

/** The invite form of Company Settings. */
export const inviteSchema = z.object({
  email: email("Please enter a valid email"),
  role: roleField,
  companyId: bodyCompanyId,
});
export type InviteInput = z.input<typeof inviteSchema>;

/**
 * POST /api/companies/:id/members: a body with a password adds a member (addMemberSchema), one without invites
 * (inviteSchema). The body decides which schema judges it, so each refusal carries that schema's own messages.
 */
export const memberRequestSchema = z.custom<AddMemberInput | InviteInput>().transform((body, context) => {
  const password = (body as { password?: unknown } | null | undefined)?.password;
  const result = (typeof password === "string" && password !== "" ? addMemberSchema : inviteSchema).safeParse(body);
  if (result.success) return result.data;
  for (const issue of result.error.issues) context.issues.push({ code: "custom", path: issue.path, message: issue.message, input: body });
  return z.NEVER;
});

/** PATCH /api/users/:userId/role. */
export const roleChangeSchema = z.object({
  role: roleField,
  companyId: z.optional(id("Invalid company")),
});
export type RoleChangeInput = z.input<typeof roleChangeSchema>;

/** PATCH /api/users/:id/active-company and PUT /api/users/:id. */
export const switchCompanySchema = z.object({
  companyId: id("Choose a company"),
});

// Answers. Timestamps travel as ISO strings.

const role = answer.enum(companyRoles);

export const companySchema = answer.object({
  id: answer.number().int(),
  name: answer.string(),
  industry: answer.string().nullable(),
  location: answer.string().nullable(),
  stage: answer.string().nullable(),
  description: answer.string().nullable(),
  logoUrl: answer.string().nullable(),
  website: answer.string().nullable(),
  employeeCount: answer.string().nullable(),
  invitationMessage: answer.string().nullable(),
  requireSecondFactor: answer.boolean(),
  ...governanceSettingsAnswerFields,
  ...readingSettingsAnswerFields,
  ...searchSettingsAnswerFields,
  createdAt: answer.string(),
});
export type Company = z.infer<typeof companySchema>;

/** An item of GET /api/companies. */
export const companySummarySchema = answer.object({
  id: answer.number().int(),
  name: answer.string(),
  logoUrl: answer.string().nullable(),
  industry: answer.string().nullable(),
  role,
});
export type CompanySummary = z.infer<typeof companySummarySchema>;

export const companyMemberSchema = answer.object({
  id: answer.number().int(),
  firstName: answer.string().nullable(),
  lastName: answer.string().nullable(),
  username: answer.string(),
  email: answer.string(),
  role,
  profileImageUrl: answer.string().nullable(),
  isMultiCompanyMember: answer.boolean(),
  otherCompanies: answer.array(answer.object({ id: answer.number().int(), name: answer.string(), role })),
});
export type CompanyMember = z.infer<typeof companyMemberSchema>;

/** An invitation as its company's founders and admins see it: pending, or answered, revoked or expired. */
export const pendingInvitationSchema = answer.object({
  id: answer.number().int(),
  email: answer.string(),
  role,
  createdAt: answer.string(),
  expiresAt: answer.string(),
  status: answer.enum(["pending", "accepted", "declined", "revoked", "expired"]),
  /** False for an invitation made before invitations had links: resending it gives it one. */
  hasLink: answer.boolean(),
});
export type PendingInvitation = z.infer<typeof pendingInvitationSchema>;

/** GET /api/companies/:id/settings. `invitations` is ours and only sent to founders and admins. */
export const companySettingsSchema = answer.object({
  company: companySchema,
  members: answer.array(companyMemberSchema),
  invitations: answer.array(pendingInvitationSchema).optional(),
});
export type CompanySettings = z.infer<typeof companySettingsSchema>;

/**
 * POST /api/companies/:id/members and an invitation's resend: the same shape whether or not an account holds the
 * address. `inviteUrl` is shown to the inviter this once (only its token's digest is kept): it joins, but proves no
 * address (the inviter holds it too); the mailed link does both.
 */
export const addMemberResultSchema = answer.object({
  status: answer.literal("invited"),
  invitation: answer.object({
    id: answer.number().int(),
    email: answer.string(),
    role,
    createdAt: answer.string(),
    expiresAt: answer.string(),
  }),
  inviteUrl: answer.string(),
});
export type AddMemberResult = z.infer<typeof addMemberResultSchema>;

/** PATCH /api/users/:userId/role. */
export const roleChangeResultSchema = answer.object({ id: answer.number().int(), companyId: answer.number().int(), role });
export type RoleChangeResult = z.infer<typeof roleChangeResultSchema>;
