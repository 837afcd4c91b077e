// A meeting's title, place and agenda text: one rule each for the schedule form, the content, the draft, the
// reschedule form and PATCH /api/meetings/:id. Its own module so that meetings.ts and agenda.ts both build on
// it while meetings.ts keeps importing agenda.ts (and never the other way round).
import { limits, text } from "./input";

export const maxLocationLength = 500;
/** The agenda text a meeting carries (its document content, its calendar description): typed or written from its items. */
export const maxAgendaLength = 20_000;
export const maxAgendaLengthText = maxAgendaLength.toLocaleString("en-US");

/** A meeting's title: one line. */
export const titleField = (requiredMessage = "Meeting title is required") =>
  text({ max: limits.title, min: 1, requiredMessage, maxMessage: `Title must be at most ${limits.title} characters`, singleLine: true });

/** The draft may leave the location empty; a meeting may not. */
export const locationText = text({
  max: maxLocationLength,
  maxMessage: `Location must be at most ${maxLocationLength} characters`,
  singleLine: true,
});
export const locationField = text({
  max: maxLocationLength,
  min: 1,
  requiredMessage: "Location is required",
  maxMessage: `Location must be at most ${maxLocationLength} characters`,
  singleLine: true,
});

/** The agenda text as typed (its line breaks and spacing kept). */
export const agendaField = text({
  max: maxAgendaLength,
  maxMessage: `Agenda must be at most ${maxAgendaLengthText} characters`,
  trim: false,
});
