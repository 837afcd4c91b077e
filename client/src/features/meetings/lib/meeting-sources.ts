import type { CompanyMember } from "@shared/companies";
import type { DocumentObject, LibraryDocument } from "@shared/documents";
import { displayName } from "@shared/people";
import type { Resolution } from "@shared/resolutions";

/** A list another feature loads, as the meeting page needs it. */
export interface Loaded<T> {
  data: T[] | undefined;
  isPending: boolean;
  isError: boolean;
  /** Asks for the list again (after it failed). */
  refetch: () => unknown;
}

/** What a paper on the agenda is called when the library does not list it. */
export const PAPER_NOT_LOADED = "Paper details could not be loaded";
export const PAPER_HIDDEN = "A paper you cannot open";

/** A paper's name; when the library failed to load, that it could not be loaded, else that it is not the viewer's to see. */
export function paperName(papers: Map<number, LibraryDocument>, id: number, library: Pick<Loaded<unknown>, "isError">): string {
  return papers.get(id)?.name ?? (library.isError ? PAPER_NOT_LOADED : PAPER_HIDDEN);
}

/** A resolution as an agenda item names it (its deadline: a show of hands is offered only before it). */
export type AgendaResolution = Pick<Resolution, "id" | "title" | "status" | "deadline">;

/**
 * What the meeting page reads of other features (the company's members, its library and its resolutions),
 * and what it does with them: the page composes these and hands them in.
 */
export interface MeetingSources {
  members: Loaded<CompanyMember>;
  library: Loaded<LibraryDocument>;
  resolutions: Loaded<AgendaResolution>;
  /** Opens a paper in the documents' preview. */
  onOpenPaper: (paper: LibraryDocument) => void;
  /** After the meeting changed (confirmed, rescheduled, cancelled, its agenda saved); with its document when known. */
  onMeetingChanged: (meeting?: DocumentObject) => Promise<unknown> | void;
}

/** Looks up by id what the lists hold. */
export function byId<T extends { id: number }>(list: readonly T[] | undefined): Map<number, T> {
  return new Map((list ?? []).map((entry) => [entry.id, entry]));
}

/** A member's name, or a stand-in for someone no longer on the board. */
export function memberName(members: Map<number, CompanyMember>, id: number): string {
  const member = members.get(id);
  return member ? displayName(member) || member.email : "Former member";
}

/** "1 h 20 min", "45 min", "2 h". */
export function formatMinutes(total: number): string {
  const hours = Math.floor(total / 60);
  const minutes = total % 60;
  if (hours === 0) return `${minutes} min`;
  return minutes === 0 ? `${hours} h` : `${hours} h ${minutes} min`;
}
