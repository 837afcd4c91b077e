import { CalendarDays, FileText, Gavel, ListChecks, ListOrdered, ScrollText, type LucideIcon } from "lucide-react";
import type { SearchKind } from "@shared/search";

/** How one result says what it is: an icon and a word (the filter's labels are the plural). */
export const resultKinds: Record<SearchKind, { icon: LucideIcon; label: string }> = {
  document: { icon: FileText, label: "Paper" },
  minutes: { icon: ScrollText, label: "Minutes" },
  resolution: { icon: Gavel, label: "Resolution" },
  agendaItem: { icon: ListOrdered, label: "Agenda item" },
  actionItem: { icon: ListChecks, label: "Action item" },
  meeting: { icon: CalendarDays, label: "Meeting" },
};
