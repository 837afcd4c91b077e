/** The attendance's card on a meeting's page, addressable as /meetings/:id#meeting-attendance. */
export const ATTENDANCE_SECTION_ID = "meeting-attendance";
/** The minutes' card on a meeting's page, addressable as /meetings/:id#meeting-minutes. */
export const MINUTES_SECTION_ID = "meeting-minutes";
