import type { ReactElement, ReactNode } from "react";
import type { ControllerProps, ControllerRenderProps, FieldPath, FieldPathByValue, FieldValues } from "react-hook-form";
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";

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

/** A select bound to a form field, its trigger wired as the field's control (label, aria-invalid, message). */
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
    <Select value={field.value ?? ""} onValueChange={field.onChange} name={field.name} disabled={disabled}>
      <FormControl>
        <SelectTrigger ref={field.ref} onBlur={field.onBlur}>
          <SelectValue placeholder={placeholder} />
        </SelectTrigger>
      </FormControl>
      <SelectContent>
        {options.map((option) => (
          <SelectItem key={option.value} value={option.value}>
            {option.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

/** Label, control, optional description and validation message, in that order. */
function LabeledItem({ label, description, children }: { label: ReactNode; description?: ReactNode; children: ReactNode }) {
  return (
    <FormItem hasDescription={!!description}>
      <FormLabel>{label}</FormLabel>
      {children}
      {description && <FormDescription>{description}</FormDescription>}
      <FormMessage />
    </FormItem>
  );
}

/**
 * The usual field: label, the control `children` renders for the field, an optional description and
 * the validation message. Fields laid out otherwise (a checkbox beside its label, a button by the label)
 * use FormField and FormItem directly.
 */
export function LabeledField<TFieldValues extends FieldValues, TName extends FieldPath<TFieldValues>>({
  control,
  name,
  label,
  description,
  children,
}: Pick<ControllerProps<TFieldValues, TName>, "control" | "name"> & {
  label: ReactNode;
  description?: ReactNode;
  children: (field: ControllerRenderProps<TFieldValues, TName>) => ReactElement;
}) {
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <LabeledItem label={label} description={description}>
          <FormControl>{children(field)}</FormControl>
        </LabeledItem>
      )}
    />
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
