import { useId } from "react";
import { versionLine, type PaperFactsOf } from "@/components/paper-facts";

type AttachedDocument = Pick<PaperFactsOf, "id" | "name" | "version" | "replacedAt">;

/**
 * The documents a resolution carries, by name under their heading, each replaced one with its latest version ("v3 ·
 * replaced 2 Jun 14:05"); nothing when it carries none.
 */
export function AttachedDocuments({ heading, documents }: { heading: string; documents: readonly AttachedDocument[] }) {
  const headingId = useId();
  if (documents.length === 0) return null;
  return (
    <section aria-labelledby={headingId} className="grid gap-1">
      <h3 id={headingId} className="font-medium">
        {heading}
      </h3>
      <ul className="list-inside list-disc">
        {documents.map((document) => {
          const version = versionLine(document);
          return (
            <li key={document.id}>
              {document.name}
              {version && (
                <>
                  {" "}
                  <span className="ml-1 text-xs text-muted-foreground">{version}</span>
                </>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
