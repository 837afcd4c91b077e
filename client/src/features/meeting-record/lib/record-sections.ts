/** The minutes' card on a meeting's page, addressable as /meetings/:id#meeting-minutes. */
export const MINUTES_SECTION_ID = "meeting-minutes";
