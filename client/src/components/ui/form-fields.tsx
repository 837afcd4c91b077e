// Select fields live in select-fields.tsx: the sign-in and register pages use these labelled fields,
// and must not load Radix Select (and its positioning library) with them.
import type { ReactElement, ReactNode } from "react";
import type { ControllerProps, ControllerRenderProps, FieldPath, FieldValues } from "react-hook-form";
import { FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from "@/components/ui/form";
import { Switch } from "@/components/ui/switch";

/** Label, control, optional description and validation message, in that order. */
export function LabeledItem({ label, description, children }: { label: ReactNode; description?: ReactNode; children: ReactNode }) {
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

/** An on/off setting in its own bordered row: its label and switch on one line, what it means under them. */
export function SwitchField<TFieldValues extends FieldValues, TName extends FieldPath<TFieldValues>>({
  control,
  name,
  label,
  description,
}: Pick<ControllerProps<TFieldValues, TName>, "control" | "name"> & { label: ReactNode; description: ReactNode }) {
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <FormItem hasDescription className="rounded-md border p-4">
          <div className="flex items-center justify-between gap-4">
            <FormLabel>{label}</FormLabel>
            <FormControl>
              <Switch checked={field.value} onCheckedChange={field.onChange} onBlur={field.onBlur} ref={field.ref} />
            </FormControl>
          </div>
          <FormDescription>{description}</FormDescription>
          <FormMessage />
        </FormItem>
      )}
    />
  );
}
