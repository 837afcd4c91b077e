import { useId } from "react";

/** The documents a resolution carries, by name under their heading; nothing when it carries none. */
export function AttachedDocuments({ heading, documents }: { heading: string; documents: readonly { id: number; name: string }[] }) {
  const headingId = useId();
  if (documents.length === 0) return null;
  return (
    <section aria-labelledby={headingId} className="grid gap-1">
      <h3 id={headingId} className="font-medium">
        {heading}
      </h3>
      <ul className="list-inside list-disc">
        {documents.map((document) => (
          <li key={document.id}>{document.name}</li>
        ))}
      </ul>
    </section>
  );
}
