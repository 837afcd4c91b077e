import { useId, type ReactNode } from "react";
import type { ControllerProps, FieldPath, FieldValues, PathValue } from "react-hook-form";
import { FormField } from "@/components/ui/form";
import { cn } from "@/lib/utils";

export interface ChoiceCard<TValue extends string> {
  value: TValue;
  label: ReactNode;
  hint: ReactNode;
}

/** A form field chosen among a few cards under a legend: each card a radio button, its label and a line of hint. */
export function ChoiceCardsField<TFieldValues extends FieldValues, TName extends FieldPath<TFieldValues>>({
  control,
  name,
  legend,
  options,
}: Pick<ControllerProps<TFieldValues, TName>, "control" | "name"> & {
  legend: ReactNode;
  options: readonly ChoiceCard<PathValue<TFieldValues, TName> & string>[];
}) {
  const id = useId();
  return (
    <FormField
      control={control}
      name={name}
      render={({ field }) => (
        <fieldset className="grid gap-2">
          <legend className="mb-1 text-sm font-medium">{legend}</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {options.map((option) => (
              <label
                key={option.value}
                className={cn(
                  "grid cursor-pointer gap-0.5 rounded-md border p-3 text-sm has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/50",
                  field.value === option.value ? "border-primary bg-primary/10" : "hover:bg-accent",
                )}
              >
                {/* Named by its label alone, the hint its description: a hint's words never name the radio. */}
                <span className="flex items-center gap-2 font-medium">
                  <input
                    type="radio"
                    name={field.name}
                    value={option.value}
                    checked={field.value === option.value}
                    onChange={() => field.onChange(option.value)}
                    aria-labelledby={`${id}-${option.value}`}
                    aria-describedby={`${id}-${option.value}-hint`}
                    className="size-4 accent-primary"
                  />
                  <span id={`${id}-${option.value}`}>{option.label}</span>
                </span>
                <span id={`${id}-${option.value}-hint`} className="text-xs text-muted-foreground">
                  {option.hint}
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      )}
    />
  );
}
