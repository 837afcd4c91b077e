import type { AgendaItem } from "../../../../shared/meetings";
import type { AgendaContext } from "../../integrations/ai-agenda";

/** Fixed items around the resolutions: call to order, minutes, reports, any other business, close. */
const fixedItemCount = 5;
const maxItems = 12;

const quoted = (text: string) => `"${text}"`;

/**
 * A standard board agenda built from the company's data, used when no AI service is configured.
 * Always 5–12 items, so it satisfies the same rules as an AI answer.
 */
export function templateAgenda(context: AgendaContext): AgendaItem[] {
  const { company, pendingResolutions, recentDocuments, lastMeeting } = context;
  const items: AgendaItem[] = [
    {
      title: "Call to order and quorum",
      duration: 5,
      description: `The chair opens the meeting of the board of ${company.name}, records attendance and apologies, confirms that a quorum is present and asks for declarations of interest.`,
    },
    {
      title: "Minutes of the last meeting",
      duration: 10,
      description: lastMeeting
        ? `Review and approve the minutes of ${quoted(lastMeeting.title)}, and follow up on its action items.`
        : "Review and approve the minutes of the previous board meeting, and follow up on its action items.",
    },
    {
      title: "Reports",
      duration: 20,
      description:
        recentDocuments.length > 0
          ? `Management and financial reports. Papers for review: ${recentDocuments.map((document) => document.name).join(", ")}.`
          : "Management and financial reports: performance since the last meeting, finances and key risks.",
    },
  ];

  const roomForResolutions = maxItems - fixedItemCount;
  const namedOneByOne =
    pendingResolutions.length <= roomForResolutions ? pendingResolutions : pendingResolutions.slice(0, roomForResolutions - 1);
  for (const resolution of namedOneByOne) {
    items.push({
      title: `Resolution: ${resolution.title}`,
      duration: 10,
      description: `Discuss the pending ${resolution.type.toLowerCase()} resolution ${quoted(resolution.title)} and record the board's position before voting closes.`,
    });
  }
  const remaining = pendingResolutions.slice(namedOneByOne.length);
  if (remaining.length > 0) {
    items.push({
      title: "Further pending resolutions",
      duration: Math.min(120, 5 * remaining.length),
      description: `Discuss the other pending resolutions: ${remaining.map((resolution) => quoted(resolution.title)).join(", ")}.`,
    });
  }

  items.push(
    {
      title: "Any other business",
      duration: 10,
      description: "Matters raised by board members that are not on the agenda.",
    },
    {
      title: "Close of meeting",
      duration: 5,
      description: "Confirm the date of the next meeting, summarise the actions agreed and close the meeting.",
    },
  );
  return items;
}
