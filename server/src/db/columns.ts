// Sets of columns that many queries select together: spread them into a select (`...nameColumns`).
import { meetings, users } from "./schema";

/** The columns of a user that `displayName` reads: select them and pass the row to it. */
export const nameColumns = { firstName: users.firstName, lastName: users.lastName, username: users.username };

/** A meeting as it is scheduled: its title, when and where, and its status. */
export const meetingScheduleColumns = {
  title: meetings.title,
  startsAt: meetings.startsAt,
  endsAt: meetings.endsAt,
  location: meetings.location,
  status: meetings.status,
};
