import { useForm } from "react-hook-form";
import { deferredResolver } from "@/lib/deferred-resolver";
import type { Company, CompanyProfileInput } from "@shared/companies";
import { industryLabel, optionsWithCurrent, settingsIndustries, settingsStages, stageLabel } from "@shared/options";
import { Button } from "@/components/ui/button";
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { LabeledField } from "@/components/ui/form-fields";
import { SelectField } from "@/components/ui/select-fields";
import { Input } from "@/components/ui/input";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import { applyServerErrors } from "@/lib/form-errors";
import { useUpdateCompany } from "@/features/companies/api/update-company";
import { CompanyLogoField, CompanyWebsiteField, EmployeeCountField } from "@/features/companies/components/company-profile-fields";

type Values = CompanyProfileInput;

// The validation chunk is requested when the form is first focused or pressed (deferredResolver).
const validation = deferredResolver<Values>(
  async () => (await import("@/features/companies/lib/company-profile-resolver")).companyProfileResolver,
);

/** The form's values for a company: empty strings where the company has nothing. */
export function companyToFormValues(company: Company): Values {
  return {
    name: company.name,
    industry: company.industry ?? "",
    location: company.location ?? "",
    stage: company.stage ?? "",
    description: company.description ?? "",
    logoUrl: company.logoUrl ?? "",
    website: company.website ?? "",
    employeeCount: (company.employeeCount ?? "") as Values["employeeCount"],
    invitationMessage: company.invitationMessage ?? "",
    requireSecondFactor: company.requireSecondFactor,
  };
}

/** The General tab of Company Settings. It offers the settings' own lists of industries and stages, which differ from the wizard's. */
export function CompanyGeneralForm({ company }: { company: Company }) {
  const updateCompany = useUpdateCompany(company.id);
  const form = useForm({
    resolver: validation.resolver,
    defaultValues: companyToFormValues(company),
    // A saved change comes back from the server: the form follows it.
    values: companyToFormValues(company),
    resetOptions: { keepDirtyValues: true },
  });

  async function onSubmit(values: Values) {
    try {
      await updateCompany.mutateAsync(values);
      toast({ title: "Company updated", description: "Your company settings have been saved." });
    } catch (error) {
      // A founder without a second factor of their own may not require one: the refusal is said under the switch.
      applyServerErrors(form, error);
      toast({ title: "Update failed", description: "There was an error updating company settings.", variant: "destructive" });
    }
  }

  const industry = form.watch("industry");
  const stage = form.watch("stage");
  const pending = updateCompany.isPending;

  return (
    <Form {...form}>
      <form
        onSubmit={form.handleSubmit(onSubmit)}
        {...validation.prefetchOnTouch}
        noValidate
        aria-label="Company profile"
        className="grid gap-5"
      >
        <CompanyLogoField />
        <LabeledField control={form.control} name="name" label="Company name">
          {(field) => <Input autoComplete="organization" {...field} />}
        </LabeledField>
        <div className="grid gap-5 sm:grid-cols-2">
          <SelectField
            control={form.control}
            name="industry"
            label="Industry"
            options={optionsWithCurrent(settingsIndustries, industry, industryLabel)}
            placeholder="Select industry"
          />
          <SelectField
            control={form.control}
            name="stage"
            label="Funding stage"
            options={optionsWithCurrent(settingsStages, stage, stageLabel)}
            placeholder="Select stage"
          />
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          <LabeledField control={form.control} name="location" label="Location">
            {(field) => <Input placeholder="City, Country" {...field} />}
          </LabeledField>
          <EmployeeCountField />
        </div>
        <CompanyWebsiteField />
        <LabeledField control={form.control} name="description" label="Description">
          {(field) => <Textarea rows={4} {...field} value={field.value ?? ""} />}
        </LabeledField>
        <LabeledField
          control={form.control}
          name="invitationMessage"
          label="Invitation message"
          description="Kept with the company for the invitations you send to new members."
        >
          {(field) => <Textarea rows={3} placeholder="Welcome to our board portal..." {...field} value={field.value ?? ""} />}
        </LabeledField>
        <FormField
          control={form.control}
          name="requireSecondFactor"
          render={({ field }) => (
            <FormItem hasDescription className="rounded-md border p-4">
              <div className="flex items-center justify-between gap-4">
                <FormLabel>Require two-factor sign-in</FormLabel>
                <FormControl>
                  <Switch checked={field.value ?? false} onCheckedChange={field.onChange} onBlur={field.onBlur} ref={field.ref} />
                </FormControl>
              </div>
              <FormDescription>
                Members without a second factor (an authenticator app or a passkey) must set one up before they can open the company.
              </FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        <div className="flex justify-end">
          <Button type="submit" disabled={pending}>
            {pending ? "Saving..." : "Save Changes"}
          </Button>
        </div>
      </form>
    </Form>
  );
}
