import type { ReactNode } from "react";
import type { ControllerProps, FieldPathByValue, FieldValues } from "react-hook-form";
import { FormControl, FormField } from "@/components/ui/form";
import { LabeledItem } from "@/components/ui/form-fields";
import { SelectOnDemand } from "@/components/ui/select-on-demand";

export interface SelectOption {
  value: string;
  label: string;
}

/** What a select needs of react-hook-form's field. */
export interface SelectFieldBinding {
  value?: string | null;
  onChange: (value: string) => void;
  onBlur: () => void;
  name: string;
  ref: (instance: HTMLButtonElement | null) => void;
}

/**
 * A select bound to a form field, its trigger wired as the field's control (label, aria-invalid, message). Its list
 * loads when it is first opened, so a form's first paint carries no Radix select.
 */
export function FormSelect({
  field,
  options,
  placeholder,
  disabled,
}: {
  field: SelectFieldBinding;
  options: readonly SelectOption[];
  placeholder: string;
  disabled?: boolean;
}) {
  return (
    <FormControl>
      <SelectOnDemand
        value={field.value ?? ""}
        onValueChange={field.onChange}
        onBlur={field.onBlur}
        name={field.name}
        ref={field.ref}
        options={options}
        placeholder={placeholder}
        disabled={disabled}
      />
    </FormControl>
  );
}

/** A labelled select of `options` with its validation message. */
export function SelectField<TFieldValues extends FieldValues, TName extends FieldPathByValue<TFieldValues, string | null | undefined>>({
  control,
  name,
  label,
  options,
  placeholder,
  disabled,
}: Pick<ControllerProps<TFieldValues, TName>, "control" | "name"> & {
  label: ReactNode;
  options: readonly SelectOption[];
  placeholder: string;
  disabled?: boolean;
}) {
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <LabeledItem label={label}>
          <FormSelect field={field} options={options} placeholder={placeholder} disabled={disabled} />
        </LabeledItem>
      )}
    />
  );
}
