import type { QueryClient } from "@tanstack/react-query";
import type { User } from "@shared/auth";
import { firstReadsAt } from "@/app/first-reads";
import { dropAnswers, withEarlyAnswers } from "@/lib/api-client";
import { getAuthToken } from "@/lib/auth-token";
import { EARLY_READS } from "@/lib/auth-token-key";

type Answers = Record<string, Promise<Response>>;

/**
 * The preload script's requests for the page's first reads, if it sent them with the token stored now; taken once,
 * so that a preload script that runs late (after the app) sends none.
 */
function takeEarlyReads(): Promise<Answers> | undefined {
  const holder = window as unknown as Record<string, { token: string; responses: Promise<Answers> } | false | undefined>;
  const early = holder[EARLY_READS];
  holder[EARLY_READS] = false;
  if (!early) return undefined;
  if (early.token === getAuthToken()) return early.responses;
  // Sent with another token: not this user's answers.
  void early.responses.then(dropAnswers);
  return undefined;
}

/**
 * On a first load with a token stored: starts the first reads of the page at `path` (app/first-reads.ts) as soon as
 * `user` (so the active company) is known, rather than once the page's code has arrived and rendered; the page's
 * components ask for exactly these (same keys and fetchers). The page's code is started by the build's preload script
 * and the route table. This ships with the entry: waiting for a chunk of its own would hold the reads back until that
 * chunk arrived. Reads the preload script has asked for already are not asked for again: their answers are taken
 * instead.
 */
export function startPage(queryClient: QueryClient, path: string, user: Promise<User | null>): void {
  // The preload script may have asked for these reads already, once it knew the company (app/preloaded-pages.ts).
  const early = takeEarlyReads();
  const firstReads = firstReadsAt(path);
  if (!firstReads) return void early?.then(dropAnswers);
  // Only a head start: whatever fails here, the page asks again as it renders.
  user.then(
    (signedIn) => {
      if (signedIn?.companyId == null) return void early?.then(dropAnswers);
      const reads = firstReads({ companyId: signedIn.companyId, role: signedIn.role });
      const ask = () => {
        for (const read of reads) void read(queryClient);
      };
      // The preload script's requests follow from the same answer of the current user: waiting for them costs nothing.
      if (early) void early.then((answers) => withEarlyAnswers(answers, ask));
      else ask();
    },
    () => void early?.then(dropAnswers),
  );
}
