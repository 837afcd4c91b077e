// What a show of hands at a meeting needs to decide a resolution under the same rules as an online vote (the meeting
// record records the hands; the rules of who may vote and of the decision stay here).
export { decideIfReady, type MeetingDecision, type ResolutionRow } from "./resolution-decision";
export { membersAsVoters } from "./eligible-voters";
