import type { Control, FieldPath, FieldValues } from "react-hook-form";
import { acceptAttribute } from "@shared/documents";
import { FormControl, FormField } from "@/components/ui/form";
import { LabeledItem } from "@/components/ui/form-fields";
import { Input } from "@/components/ui/input";
import { Progress } from "@/components/ui/progress";
import { formatFileSize } from "@/lib/format";

/** A form's file input, of the types a document may be, that shows the chosen file's name and size under it. */
export function FileField<Values extends FieldValues>({
  control,
  name,
  label,
  file,
}: {
  control: Control<Values>;
  name: FieldPath<Values>;
  label: string;
  /** The file chosen so far (the form's watched value). */
  file: File | null | undefined;
}) {
  return (
    <FormField
      control={control}
      name={name}
      render={({ field: { onChange, onBlur, name: fieldName, ref } }) => (
        <LabeledItem
          label={label}
          description={
            file ? (
              <span className="break-all">
                {file.name} · {formatFileSize(file.size)}
              </span>
            ) : undefined
          }
        >
          <FormControl>
            <Input
              type="file"
              accept={acceptAttribute}
              name={fieldName}
              ref={ref}
              onBlur={onBlur}
              onChange={(event) => onChange(event.target.files?.[0] ?? null)}
              className="cursor-pointer file:mr-3"
            />
          </FormControl>
        </LabeledItem>
      )}
    />
  );
}

/** How far an upload has gone, announced as it moves; nothing before it starts. */
export function UploadProgress({ progress }: { progress: number | null }) {
  if (progress === null) return null;
  return (
    <div className="grid gap-1" aria-live="polite">
      <Progress value={progress} aria-label="Upload progress" />
      <p className="text-xs text-muted-foreground">Uploading… {progress}%</p>
    </div>
  );
}
