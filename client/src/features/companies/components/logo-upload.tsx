import { ImageUp, X } from "lucide-react";
import { useId, useRef, useState } from "react";
import { logoNotImageMessage, logoTooLargeMessage, maxLogoBytes } from "@shared/company-logo";
import { Button } from "@/components/ui/button";
import { CompanyLogo } from "@/features/companies/components/company-logo";

export const logoHint = "Upload a square image, 512x512px or larger (PNG, JPG, GIF or WebP, up to 2 MB).";

/** Why a chosen file cannot be the logo, or null when it can. */
export function logoFileProblem(file: File): string | null {
  if (!file.type.startsWith("image/") || file.size === 0) return logoNotImageMessage;
  if (file.size > maxLogoBytes) return logoTooLargeMessage;
  return null;
}

/** The file as a data URL (what the company's logoUrl holds). */
export function readFileAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => (typeof reader.result === "string" ? resolve(reader.result) : reject(new Error("unreadable file")));
    reader.onerror = () => reject(reader.error ?? new Error("unreadable file"));
    reader.readAsDataURL(file);
  });
}

/**
 * Logo picker with a preview. The chosen image is read into a data URL; a file that is not an
 * image, or is larger than 2 MB, is refused with a message and leaves the current logo alone.
 */
export function LogoUpload({
  value,
  onChange,
  error,
  label = "Company logo",
}: {
  value: string | null | undefined;
  onChange: (dataUrl: string) => void;
  /** A validation message from the form (e.g. the server refused the logo). */
  error?: string;
  label?: string;
}) {
  const inputId = useId();
  const hintId = `${inputId}-hint`;
  const problemId = `${inputId}-problem`;
  const inputRef = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const message = problem ?? error ?? null;
  const describedBy = message ? `${hintId} ${problemId}` : hintId;

  async function choose(file: File | undefined) {
    if (!file) return;
    const fileProblem = logoFileProblem(file);
    if (fileProblem) {
      setProblem(fileProblem);
      return;
    }
    try {
      onChange(await readFileAsDataUrl(file));
      setProblem(null);
    } catch {
      setProblem("The file could not be read. Please try another image.");
    }
  }

  return (
    <div className="grid gap-3">
      <div className="flex flex-col items-start gap-4 sm:flex-row sm:items-center">
        <CompanyLogo logoUrl={value} className="size-24 rounded-lg border-border [&>svg]:size-10" />
        <div className="grid gap-2">
          <label htmlFor={inputId} className="text-sm font-medium">
            {label}
          </label>
          <div className="flex flex-wrap gap-2">
            {/* The button is what people reach, so it carries the label, the hint and the error; the file input is hidden. */}
            <Button
              type="button"
              variant="outline"
              size="sm"
              onClick={() => inputRef.current?.click()}
              aria-describedby={describedBy}
              aria-invalid={message ? true : undefined}
            >
              <ImageUp aria-hidden />
              <span className="sr-only">{label}:</span> {value ? "Change logo" : "Upload logo"}
            </Button>
            {value && (
              <Button
                type="button"
                variant="ghost"
                size="sm"
                onClick={() => {
                  onChange("");
                  setProblem(null);
                  if (inputRef.current) inputRef.current.value = "";
                }}
              >
                <X aria-hidden />
                Remove logo
              </Button>
            )}
          </div>
          <input
            ref={inputRef}
            id={inputId}
            type="file"
            accept="image/*"
            tabIndex={-1}
            aria-hidden
            className="sr-only"
            onChange={(event) => void choose(event.target.files?.[0])}
          />
          <p id={hintId} className="text-sm text-muted-foreground">
            {logoHint}
          </p>
        </div>
      </div>
      {message && (
        <p id={problemId} role="alert" className="text-sm font-medium text-destructive">
          {message}
        </p>
      )}
    </div>
  );
}
