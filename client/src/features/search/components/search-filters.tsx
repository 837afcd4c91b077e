import { useId } from "react";
import { searchKindLabels, searchKinds, type SearchKind } from "@shared/search";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Switch } from "@/components/ui/switch";
import type { SearchParams } from "@/features/search/api/search-keys";

/** A meeting the filter offers: the active company's meetings. */
export interface MeetingChoice {
  id: number;
  label: string;
}

const any = "all";

/** The search page's filters: kind, meeting, a date range and, for someone on several boards, all of them. */
export function SearchFilters({
  params,
  onChange,
  meetings,
  manyBoards,
}: {
  params: SearchParams;
  onChange: (change: Partial<SearchParams>) => void;
  meetings: readonly MeetingChoice[];
  manyBoards: boolean;
}) {
  const ids = useId();
  return (
    <fieldset className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      <legend className="sr-only">Filters</legend>
      <div className="col-span-2 grid gap-1.5 sm:col-span-1">
        <Label htmlFor={`${ids}-kind`}>Kind</Label>
        <Select value={params.kind ?? any} onValueChange={(kind) => onChange({ kind: kind === any ? undefined : (kind as SearchKind) })}>
          <SelectTrigger id={`${ids}-kind`} className="w-full">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={any}>All</SelectItem>
            {searchKinds.map((kind) => (
              <SelectItem key={kind} value={kind}>
                {searchKindLabels[kind]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      {meetings.length > 0 && (
        <div className="col-span-2 grid min-w-0 gap-1.5 sm:col-span-1">
          <Label htmlFor={`${ids}-meeting`}>Meeting</Label>
          <Select
            value={params.meetingId === undefined ? any : String(params.meetingId)}
            onValueChange={(meeting) => onChange({ meetingId: meeting === any ? undefined : Number(meeting) })}
          >
            <SelectTrigger id={`${ids}-meeting`} className="w-full">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={any}>All meetings</SelectItem>
              {meetings.map((meeting) => (
                <SelectItem key={meeting.id} value={String(meeting.id)}>
                  {meeting.label}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      )}
      <div className="grid min-w-0 gap-1.5">
        <Label htmlFor={`${ids}-from`}>From</Label>
        <Input
          id={`${ids}-from`}
          type="date"
          value={params.from ?? ""}
          max={params.to}
          onChange={(event) => onChange({ from: event.target.value || undefined })}
        />
      </div>
      <div className="grid min-w-0 gap-1.5">
        <Label htmlFor={`${ids}-to`}>To</Label>
        <Input
          id={`${ids}-to`}
          type="date"
          value={params.to ?? ""}
          min={params.from}
          onChange={(event) => onChange({ to: event.target.value || undefined })}
        />
      </div>
      {manyBoards && (
        <div className="col-span-2 flex items-center gap-3 lg:col-span-4">
          <Switch
            id={`${ids}-all`}
            checked={params.scope === "all"}
            onCheckedChange={(all) => onChange({ scope: all ? "all" : undefined })}
          />
          <Label htmlFor={`${ids}-all`}>All my boards</Label>
        </div>
      )}
    </fieldset>
  );
}
