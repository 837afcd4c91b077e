import { useFormContext } from "react-hook-form";
import type { CompanyProfileInput } from "@shared/companies";
import { employeeCountOptions } from "@shared/options";
import { FormField } from "@/components/ui/form";
import { LabeledField } from "@/components/ui/form-fields";
import { SelectField } from "@/components/ui/select-fields";
import { Input } from "@/components/ui/input";
import { LogoUpload } from "@/features/companies/components/logo-upload";

/**
 * The company profile fields that Company Settings and the onboarding wizard ask for alike.
 * They read the form from its <Form> provider; both forms hold these fields with these types.
 */
type SharedProfileFields = Pick<CompanyProfileInput, "logoUrl" | "website" | "employeeCount">;

export function CompanyLogoField() {
  const { control } = useFormContext<SharedProfileFields>();
  return (
    <FormField
      control={control}
      name="logoUrl"
      render={({ field, fieldState }) => <LogoUpload value={field.value} onChange={field.onChange} error={fieldState.error?.message} />}
    />
  );
}

export function CompanyWebsiteField() {
  const { control } = useFormContext<SharedProfileFields>();
  return (
    <LabeledField control={control} name="website" label="Website">
      {(field) => <Input type="url" inputMode="url" placeholder="https://example.com" {...field} value={field.value ?? ""} />}
    </LabeledField>
  );
}

export function EmployeeCountField() {
  const { control } = useFormContext<SharedProfileFields>();
  return (
    <SelectField
      control={control}
      name="employeeCount"
      label="Number of employees"
      options={employeeCountOptions}
      placeholder="Select company size"
    />
  );
}
