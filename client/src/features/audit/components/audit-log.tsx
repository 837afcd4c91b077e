import { Copy, Download, ShieldCheck } from "lucide-react";
import { useId, useMemo, useState } from "react";
import * as api from "@shared/api/audit";
import type { AuditEventView } from "@shared/audit";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Skeleton } from "@/components/ui/skeleton";
import { toast } from "@/components/ui/use-toast";
import { apiUrl, serverMessageOf } from "@/lib/api-client";
import { formatLongDate, formatTime } from "@/lib/format";
import type { AuditFilters } from "@/features/audit/api/audit-keys";
import { useAuditEvents } from "@/features/audit/api/get-audit-events";
import { useVerifyAuditChain } from "@/features/audit/api/verify-audit-chain";
import { auditActionLabel, auditActionOptions, summariseDetails } from "@/features/audit/lib/audit-labels";

/** A person the actor filter offers: the company's members. */
export interface AuditActor {
  id: number;
  name: string;
}

const anyone = "all";

/** A date input's day as the start (or end) of that day in the browser's time zone, as an ISO timestamp. */
function dayBound(day: string, end: boolean): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const date = new Date(`${day}T${end ? "23:59:59.999" : "00:00:00.000"}`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/**
 * Company Settings → Audit log (founders and admins): every change of the company's record, newest first, with
 * filters, the chain's head hash, an export of the whole chain (JSON Lines) and a check that the chain holds.
 */
export function AuditLog({ companyId, members }: { companyId: number; members: readonly AuditActor[] }) {
  const ids = useId();
  const [action, setAction] = useState(anyone);
  const [actor, setActor] = useState(anyone);
  const [fromDay, setFromDay] = useState("");
  const [toDay, setToDay] = useState("");
  const filters = useMemo<AuditFilters>(
    () => ({
      action: action === anyone ? undefined : action,
      actorId: actor === anyone ? undefined : Number(actor),
      from: dayBound(fromDay, false),
      to: dayBound(toDay, true),
    }),
    [action, actor, fromDay, toDay],
  );
  const filtered = action !== anyone || actor !== anyone || fromDay !== "" || toDay !== "";
  const events = useAuditEvents(companyId, filters);
  const verify = useVerifyAuditChain(companyId);
  const headHash = events.data?.pages[0]?.headHash;
  const list = events.data?.pages.flatMap((page) => page.events) ?? [];
  const people = [...members].sort((a, b) => a.name.localeCompare(b.name));

  const clear = () => {
    setAction(anyone);
    setActor(anyone);
    setFromDay("");
    setToDay("");
  };

  const copyHead = async () => {
    if (!headHash) return;
    try {
      if (!navigator.clipboard) throw new Error("no clipboard");
      await navigator.clipboard.writeText(headHash);
      toast({ title: "Copied", description: "The head hash is on your clipboard." });
    } catch {
      toast({ title: "Could not copy", description: "Select the hash and copy it by hand.", variant: "destructive" });
    }
  };

  return (
    <section className="grid gap-6" aria-labelledby={`${ids}-title`}>
      <div className="grid gap-1">
        <h2 id={`${ids}-title`} className="text-lg font-semibold">
          Audit log
        </h2>
        <p className="text-sm text-muted-foreground">
          Every change to the company's record, each event linked to the one before by its hash. Export the log to keep a copy, or verify
          that no event was changed since it was written.
        </p>
      </div>

      <div className="grid gap-3 rounded-lg border bg-card p-4">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="grid min-w-0 flex-1 gap-1">
            <span id={`${ids}-head`} className="text-sm font-medium">
              Chain head
            </span>
            {headHash ? (
              <code aria-labelledby={`${ids}-head`} className="font-mono text-xs break-all select-all" data-testid="audit-head-hash">
                {headHash}
              </code>
            ) : (
              <Skeleton className="h-4 w-full max-w-md" />
            )}
          </div>
          <Button type="button" variant="outline" size="sm" onClick={copyHead} disabled={!headHash}>
            <Copy aria-hidden />
            Copy hash
          </Button>
        </div>
        <p className="text-xs text-muted-foreground">
          Keep this hash somewhere else (the board's minutes, an e-mail to the auditors): a log rewritten afterwards cannot end at it.
        </p>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="button" onClick={() => verify.mutate()} disabled={verify.isPending}>
            <ShieldCheck aria-hidden />
            {verify.isPending ? "Verifying…" : "Verify"}
          </Button>
          <Button asChild variant="outline">
            <a href={apiUrl(api.exportAuditEvents, { params: { companyId } })} download>
              <Download aria-hidden />
              Export
            </a>
          </Button>
          <p role="status" className="text-sm">
            {verify.data ? (
              verify.data.ok ? (
                <span className="font-medium text-emerald-700 dark:text-emerald-400">Chain verified: {verify.data.count} events</span>
              ) : (
                <span className="font-medium text-destructive">Chain broken at event #{verify.data.brokenAt.seq}</span>
              )
            ) : verify.isError ? (
              <span className="text-destructive">
                {serverMessageOf(verify.error) ?? "The chain could not be verified. Please try again."}
              </span>
            ) : null}
          </p>
        </div>
      </div>

      <fieldset className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <legend className="sr-only">Filters</legend>
        <div className="grid gap-1.5">
          <Label htmlFor={`${ids}-action`}>Action</Label>
          <Select value={action} onValueChange={setAction}>
            <SelectTrigger id={`${ids}-action`} className="w-full">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={anyone}>All actions</SelectItem>
              {auditActionOptions.map((option) => (
                <SelectItem key={option.value} value={option.value}>
                  {option.label}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${ids}-actor`}>Actor</Label>
          <Select value={actor} onValueChange={setActor}>
            <SelectTrigger id={`${ids}-actor`} className="w-full">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={anyone}>Everyone</SelectItem>
              {people.map((person) => (
                <SelectItem key={person.id} value={String(person.id)}>
                  {person.name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${ids}-from`}>From</Label>
          <Input
            id={`${ids}-from`}
            type="date"
            value={fromDay}
            max={toDay || undefined}
            onChange={(event) => setFromDay(event.target.value)}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${ids}-to`}>To</Label>
          <Input id={`${ids}-to`} type="date" value={toDay} min={fromDay || undefined} onChange={(event) => setToDay(event.target.value)} />
        </div>
      </fieldset>
      {filtered && (
        <div>
          <Button type="button" variant="ghost" size="sm" onClick={clear}>
            Clear filters
          </Button>
        </div>
      )}

      {events.isPending ? (
        <div className="grid gap-2" aria-busy="true" aria-label="Loading the audit log">
          {[0, 1, 2].map((row) => (
            <Skeleton key={row} className="h-16 rounded-lg" />
          ))}
        </div>
      ) : events.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {serverMessageOf(events.error) ?? "Could not load the audit log. Please try again."}
        </p>
      ) : list.length === 0 ? (
        <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
          {filtered ? "No events match these filters." : "Nothing has been recorded yet."}
        </p>
      ) : (
        <div className="grid gap-3">
          <ol className="grid gap-2" aria-label="Audit events">
            {list.map((event) => (
              <AuditEventRow key={event.seq} event={event} />
            ))}
          </ol>
          {events.hasNextPage && (
            <div>
              <Button type="button" variant="outline" onClick={() => void events.fetchNextPage()} disabled={events.isFetchingNextPage}>
                {events.isFetchingNextPage ? "Loading…" : "Load more"}
              </Button>
            </div>
          )}
          {events.isFetchNextPageError && (
            <p role="alert" className="text-sm text-destructive">
              Could not load more events. Please try again.
            </p>
          )}
        </div>
      )}
    </section>
  );
}

function AuditEventRow({ event }: { event: AuditEventView }) {
  const details = summariseDetails(event.details);
  return (
    <li className="grid gap-1 rounded-lg border bg-card p-3 text-sm sm:grid-cols-[11rem_minmax(0,1fr)] sm:gap-x-4">
      <div className="flex items-baseline gap-2 text-muted-foreground sm:grid sm:gap-0.5">
        <span className="font-mono text-xs">#{event.seq}</span>
        <time dateTime={event.at}>
          {formatLongDate(event.at)}, {formatTime(event.at)}
        </time>
      </div>
      <div className="grid min-w-0 gap-1">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <Badge variant="secondary">{auditActionLabel(event.action)}</Badge>
          <span className="font-medium">{event.actorName ?? (event.actorId == null ? "Quorum" : `User #${event.actorId}`)}</span>
          <span className="text-muted-foreground">
            {event.targetType}
            {event.targetId ? ` #${event.targetId}` : ""}
          </span>
        </div>
        {details && <p className="break-words text-muted-foreground">{details}</p>}
      </div>
    </li>
  );
}
