import { ListPlus } from "lucide-react";
import { useEffect, useId, useRef, useState, type DragEvent } from "react";
import { agendaInputSchema, agendaLimits, type AgendaItem } from "@shared/agenda";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/use-toast";
import { ApiError, serverMessageOf } from "@/lib/api-client";
import { useReplaceAgenda } from "@/features/meetings/api/replace-agenda";
import { AgendaItemFields } from "@/features/meetings/components/agenda-item-fields";
import { AttachDialog, type Attachments } from "@/features/meetings/components/attach-dialog";
import {
  agendaErrorsFrom,
  blankDraftItem,
  moveItem,
  noAgendaErrors,
  toAgendaInput,
  toDraftItems,
  withoutFieldError,
  type AgendaErrors,
  type DraftItem,
  type ItemField,
} from "@/features/meetings/lib/agenda-draft";
import { byId, paperName, type MeetingSources } from "@/features/meetings/lib/meeting-sources";

export const AGENDA_NOT_SAVED = "The agenda was not saved";

type Focus = { key: string; target: "title" | "up" | "down" } | { key: null; target: "add" } | { key: null; target: "error" };

/** 'Edit agenda': the items as fields, reordered by drag or by the Move buttons, saved as one list. */
export function AgendaEditor({
  meetingId,
  items: savedItems,
  startWithNewItem,
  sources,
  onDone,
}: {
  meetingId: number;
  items: readonly AgendaItem[];
  startWithNewItem: boolean;
  sources: MeetingSources;
  onDone: () => void;
}) {
  const idPrefix = useId();
  const limitId = useId();
  const [items, setItems] = useState<DraftItem[]>(() => {
    const drafts = toDraftItems(savedItems);
    return startWithNewItem ? [...drafts, blankDraftItem()] : drafts;
  });
  const [errors, setErrors] = useState<AgendaErrors>(noAgendaErrors);
  const [announcement, setAnnouncement] = useState("");
  const [attaching, setAttaching] = useState<string | null>(null);
  const [dragging, setDragging] = useState<{ key: string; over: number | null } | null>(null);
  const [focus, setFocus] = useState<Focus | null>(() => {
    const last = items[items.length - 1];
    return startWithNewItem && last ? { key: last.key, target: "title" } : items[0] ? { key: items[0].key, target: "title" } : null;
  });
  const save = useReplaceAgenda(meetingId, () => sources.onMeetingChanged());
  const container = useRef<HTMLDivElement>(null);
  const elements = useRef(new Map<string, HTMLElement>());
  const papers = byId(sources.library.data);
  const resolutions = byId(sources.resolutions.data);

  const register = (id: string) => (element: HTMLElement | null) => {
    if (element) elements.current.set(id, element);
    else elements.current.delete(id);
  };

  // Focus follows what was just done: a new item's title, a moved item's button, the first field in error.
  useEffect(() => {
    if (!focus) return;
    let target: HTMLElement | null | undefined;
    if (focus.target === "error") target = container.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-agenda-error]');
    else if (focus.target === "add") target = elements.current.get("add");
    else {
      const other = focus.target === "up" ? "down" : "up";
      const button = elements.current.get(`${focus.key}:${focus.target}`) as HTMLButtonElement | undefined;
      target =
        focus.target === "title"
          ? elements.current.get(`${focus.key}:title`)
          : button && !button.disabled
            ? button
            : elements.current.get(`${focus.key}:${other}`);
    }
    target?.focus();
    setFocus(null);
  }, [focus]);

  function update(key: string, patch: Partial<DraftItem>, field: ItemField) {
    setItems((current) => current.map((item) => (item.key === key ? { ...item, ...patch } : item)));
    setErrors((current) => withoutFieldError(current, key, field));
  }

  function move(from: number, to: number, focusTarget?: "up" | "down") {
    const moved = items[from];
    if (!moved || to < 0 || to >= items.length || from === to) return;
    setItems(moveItem(items, from, to));
    setAnnouncement(`Moved “${moved.title.trim() || `Item ${from + 1}`}” to position ${to + 1} of ${items.length}.`);
    if (focusTarget) setFocus({ key: moved.key, target: focusTarget });
  }

  function add() {
    if (items.length >= agendaLimits.items) return;
    const item = blankDraftItem();
    setItems([...items, item]);
    setFocus({ key: item.key, target: "title" });
  }

  function remove(index: number) {
    const removed = items[index]!;
    const rest = items.filter((item) => item.key !== removed.key);
    setItems(rest);
    setAnnouncement(`Removed “${removed.title.trim() || `Item ${index + 1}`}”.`);
    const next = rest[index] ?? rest[index - 1];
    setFocus(next ? { key: next.key, target: "title" } : { key: null, target: "add" });
  }

  function attach(key: string, attachments: Attachments) {
    setItems((current) => current.map((item) => (item.key === key ? { ...item, ...attachments } : item)));
    setErrors((current) => withoutFieldError(withoutFieldError(current, key, "documentIds"), key, "resolutionIds"));
    setAttaching(null);
  }

  async function onSave() {
    const body = toAgendaInput(items);
    const sentKeys = items.map((item) => item.key);
    const checked = agendaInputSchema.safeParse(body);
    if (!checked.success) {
      setErrors(
        agendaErrorsFrom(
          checked.error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message })),
          sentKeys,
        ),
      );
      setFocus({ key: null, target: "error" });
      return;
    }
    try {
      await save.mutateAsync(body);
      toast({ title: "Agenda saved", description: `${items.length} ${items.length === 1 ? "item" : "items"} on the agenda.` });
      onDone();
    } catch (error) {
      if (error instanceof ApiError && error.fieldErrors.length > 0) {
        setErrors(agendaErrorsFrom(error.fieldErrors, sentKeys));
        setFocus({ key: null, target: "error" });
      }
      toast({ title: AGENDA_NOT_SAVED, description: serverMessageOf(error) ?? "Please try again.", variant: "destructive" });
    }
  }

  const dragHandlers = (index: number, key: string) => ({
    isTarget: dragging !== null && dragging.over === index && dragging.key !== key,
    onDragStart: (event: DragEvent<HTMLElement>) => {
      event.dataTransfer.effectAllowed = "move";
      event.dataTransfer.setData("text/plain", key);
      const row = event.currentTarget.closest("li");
      if (row) event.dataTransfer.setDragImage(row, 16, 16);
      setDragging({ key, over: null });
    },
    onDragOver: (event: DragEvent<HTMLElement>) => {
      if (!dragging) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = "move";
      if (dragging.over !== index) setDragging({ ...dragging, over: index });
    },
    onDrop: (event: DragEvent<HTMLElement>) => {
      if (!dragging) return;
      event.preventDefault();
      move(
        items.findIndex((item) => item.key === dragging.key),
        index,
      );
      setDragging(null);
    },
    onDragEnd: () => setDragging(null),
  });

  const attachingItem = items.find((item) => item.key === attaching);
  const atLimit = items.length >= agendaLimits.items;

  return (
    <div ref={container} className="grid gap-4">
      {errors.general.length > 0 && (
        <div
          role="alert"
          data-agenda-error
          tabIndex={-1}
          className="rounded-md border border-destructive/50 p-3 text-sm text-destructive outline-none"
        >
          {errors.general.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </div>
      )}
      {items.length === 0 ? (
        <p className="text-sm text-muted-foreground">No agenda items yet</p>
      ) : (
        <ol className="grid gap-3" aria-label="Agenda items">
          {items.map((item, index) => (
            <AgendaItemFields
              key={item.key}
              item={item}
              index={index}
              count={items.length}
              idPrefix={idPrefix}
              members={sources.members.data ?? []}
              attachmentNames={{
                papers: item.documentIds.map((id) => paperName(papers, id, sources.library)),
                resolutions: item.resolutionIds.map((id) => resolutions.get(id)?.title ?? `Resolution #${id}`),
              }}
              errors={errors.items[item.key]}
              actions={{
                onChange: (patch, field) => update(item.key, patch, field),
                onMove: (direction) => move(index, direction === "up" ? index - 1 : index + 1, direction),
                onRemove: () => remove(index),
                onAttach: () => setAttaching(item.key),
              }}
              drag={dragHandlers(index, item.key)}
              titleRef={register(`${item.key}:title`)}
              moveButtonRef={(direction) => register(`${item.key}:${direction}`)}
            />
          ))}
        </ol>
      )}
      <p role="status" aria-live="polite" className="sr-only">
        {announcement}
      </p>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <Button
            ref={register("add")}
            type="button"
            variant="outline"
            onClick={add}
            disabled={atLimit}
            aria-describedby={atLimit ? limitId : undefined}
          >
            <ListPlus aria-hidden />
            Add item
          </Button>
          {atLimit && (
            <p id={limitId} className="text-sm text-muted-foreground">
              An agenda has at most {agendaLimits.items} items
            </p>
          )}
        </div>
        <div className="flex flex-col-reverse gap-3 sm:flex-row">
          <Button type="button" variant="outline" onClick={onDone} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="button" onClick={() => void onSave()} disabled={save.isPending}>
            {save.isPending ? "Saving…" : "Save agenda"}
          </Button>
        </div>
      </div>
      {attachingItem && (
        <AttachDialog
          itemName={attachingItem.title.trim() || "this item"}
          initial={{ documentIds: attachingItem.documentIds, resolutionIds: attachingItem.resolutionIds }}
          library={sources.library}
          resolutions={sources.resolutions}
          onApply={(attachments) => attach(attachingItem.key, attachments)}
          onClose={() => setAttaching(null)}
        />
      )}
    </div>
  );
}
