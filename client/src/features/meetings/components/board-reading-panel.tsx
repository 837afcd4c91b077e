import { Check, Minus } from "lucide-react";
import { LoadError } from "@/components/load-error";
import { Card, CardContent, CardHeader } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { ApiError } from "@/lib/api-client";
import { useBoardReading } from "@/features/meetings/api/reading";

function Opened({ opened, what }: { opened: boolean; what: string }) {
  return (
    <span className="inline-flex items-center gap-1 whitespace-nowrap [&_svg]:size-4 [&_svg]:shrink-0">
      {opened ? <Check aria-hidden className="text-success" /> : <Minus aria-hidden className="text-muted-foreground" />}
      {opened ? "Opened" : "Not opened"}
      <span className="sr-only"> {what}</span>
    </span>
  );
}

/**
 * "Who has opened the papers" (founders, admins and the meeting's creator): each director, whether they opened the
 * pack and each paper, never pages or time. The board may turn read receipts off: the server then refuses (403).
 */
export function BoardReadingPanel({ meetingId, papers }: { meetingId: number; papers: readonly { id: number; name: string }[] }) {
  const board = useBoardReading(meetingId, true);

  let body;
  if (board.isPending) {
    body = <Skeleton className="h-24 w-full" role="status" aria-label="Loading who has opened the papers" />;
  } else if (board.isError) {
    body =
      board.error instanceof ApiError && board.error.status === 403 ? (
        <p className="text-sm text-muted-foreground">Read receipts are off for this board</p>
      ) : (
        <LoadError message="Who has opened the papers could not be loaded." onRetry={() => void board.refetch()} />
      );
  } else if (board.data.length === 0) {
    body = <p className="text-sm text-muted-foreground">No directors to show.</p>;
  } else {
    body = (
      <div className="relative overflow-x-auto" tabIndex={0} role="group" aria-label="Who has opened the papers, scrollable">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Which directors have opened the pack and each paper</caption>
          <thead>
            <tr className="border-b">
              <th scope="col" className="py-2 pr-4 font-medium">
                Director
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                Pack
              </th>
              {papers.map((paper) => (
                <th key={paper.id} scope="col" className="max-w-48 py-2 pr-4 font-medium break-words">
                  {paper.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {board.data.map((director) => (
              <tr key={director.userId} className="border-b last:border-0">
                <th scope="row" className="py-2 pr-4 font-normal break-words">
                  {director.name}
                </th>
                <td className="py-2 pr-4">
                  <Opened opened={director.packOpened} what="the pack" />
                </td>
                {papers.map((paper) => (
                  <td key={paper.id} className="py-2 pr-4">
                    <Opened opened={director.opened.includes(paper.id)} what={paper.name} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  }

  return (
    <Card role="region" aria-labelledby="board-reading-title" className="min-w-0">
      <CardHeader>
        <h2 id="board-reading-title" className="text-lg leading-tight font-semibold">
          Who has opened the papers
        </h2>
        <p className="text-sm text-muted-foreground">Opened or not: never pages or time.</p>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}
