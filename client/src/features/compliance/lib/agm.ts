/** The meeting title the AGM reminder offers: "Annual General Meeting" and the year it falls due (this year without a date). */
export function agmMeetingTitle(dueDate: string | undefined, now: Date): string {
  return `Annual General Meeting ${(dueDate ? new Date(dueDate) : now).getFullYear()}`;
}
