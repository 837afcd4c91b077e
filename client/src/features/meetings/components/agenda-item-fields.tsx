import { ArrowDown, ArrowUp, FileText, Gavel, GripVertical, Paperclip, Trash2 } from "lucide-react";
import type { DragEvent, ReactNode, Ref } from "react";
import { agendaLimits } from "@shared/agenda";
import type { CompanyMember } from "@shared/companies";
import { agendaPurposeLabels, agendaPurposes, type AgendaPurpose } from "@shared/meeting-model";
import { displayName } from "@shared/people";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import { cn } from "@/lib/utils";
import type { DraftItem, ItemField } from "@/features/meetings/lib/agenda-draft";

const noPresenter = "none";

/** What one item's row can do to the list. */
export interface ItemRowActions {
  onChange: (patch: Partial<DraftItem>, field: ItemField) => void;
  onMove: (direction: "up" | "down") => void;
  onRemove: () => void;
  onAttach: () => void;
}

/** Drag and drop of rows by their handle (the Move buttons do the same from the keyboard). */
export interface ItemRowDrag {
  isTarget: boolean;
  onDragStart: (event: DragEvent<HTMLElement>) => void;
  onDragOver: (event: DragEvent<HTMLElement>) => void;
  onDrop: (event: DragEvent<HTMLElement>) => void;
  onDragEnd: () => void;
}

/** One item in the agenda editor: its fields, its errors, and the buttons that move and remove it. */
export function AgendaItemFields({
  item,
  index,
  count,
  idPrefix,
  members,
  attachmentNames,
  errors,
  actions,
  drag,
  titleRef,
  moveButtonRef,
}: {
  item: DraftItem;
  index: number;
  count: number;
  idPrefix: string;
  members: readonly CompanyMember[];
  attachmentNames: { papers: string[]; resolutions: string[] };
  errors: Partial<Record<ItemField, string>> | undefined;
  actions: ItemRowActions;
  drag: ItemRowDrag;
  titleRef: Ref<HTMLInputElement>;
  moveButtonRef: (direction: "up" | "down") => Ref<HTMLButtonElement>;
}) {
  const fieldId = (field: string) => `${idPrefix}-${item.key}-${field}`;
  const name = item.title.trim() || `Item ${index + 1}`;
  const headingId = fieldId("heading");
  // Every item has the same visible labels: the item's heading comes first in each control's name ("Item 2 Title").
  const labelledBy = (field: ItemField) => ({ "aria-labelledby": `${headingId} ${fieldId(field)}-label` });
  const described = (field: ItemField) => {
    const ids = [errors?.[field] && fieldId(`${field}-error`), field === "title" && errors?.id && fieldId("id-error")].filter(Boolean);
    return {
      ...(errors?.[field] ? { "aria-invalid": true as const } : {}),
      ...(ids.length > 0 ? { "aria-describedby": ids.join(" ") } : {}),
    };
  };
  const presenterChoices = members.some((member) => member.id === item.presenterId) || item.presenterId === null;

  return (
    <li
      className={cn(
        "grid gap-4 rounded-lg border bg-card p-3 sm:p-4",
        drag.isTarget && "border-primary ring-2 ring-primary/30",
        errors && "border-destructive/60",
      )}
      onDragOver={drag.onDragOver}
      onDrop={drag.onDrop}
      data-testid="agenda-item-editor"
    >
      <div className="flex flex-wrap items-center gap-2">
        <span
          draggable
          onDragStart={drag.onDragStart}
          onDragEnd={drag.onDragEnd}
          title="Drag to reorder"
          className="flex size-8 cursor-grab items-center justify-center rounded-md text-muted-foreground hover:bg-accent active:cursor-grabbing"
          aria-hidden
        >
          <GripVertical className="size-4" />
        </span>
        <h3 id={headingId} className="min-w-0 flex-1 text-sm font-medium">
          Item {index + 1}
        </h3>
        <div className="flex items-center gap-1">
          <Button
            ref={moveButtonRef("up")}
            type="button"
            variant="ghost"
            size="icon"
            aria-label={`Move "${name}" up`}
            disabled={index === 0}
            onClick={() => actions.onMove("up")}
          >
            <ArrowUp aria-hidden />
          </Button>
          <Button
            ref={moveButtonRef("down")}
            type="button"
            variant="ghost"
            size="icon"
            aria-label={`Move "${name}" down`}
            disabled={index === count - 1}
            onClick={() => actions.onMove("down")}
          >
            <ArrowDown aria-hidden />
          </Button>
          <Button type="button" variant="ghost" size="icon" aria-label={`Remove "${name}"`} onClick={actions.onRemove}>
            <Trash2 aria-hidden />
          </Button>
        </div>
      </div>

      {errors?.id && (
        // Not a field's error: the item itself was refused. Focus lands here when it is the first error.
        <p id={fieldId("id-error")} data-agenda-error tabIndex={-1} className="text-sm text-destructive outline-none">
          {errors.id}
        </p>
      )}
      <div className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_minmax(0,14rem)_7rem]">
        <Field id={fieldId("title")} label="Title" error={errors?.title}>
          <Input
            ref={titleRef}
            id={fieldId("title")}
            value={item.title}
            maxLength={agendaLimits.title}
            autoComplete="off"
            onChange={(event) => actions.onChange({ title: event.target.value }, "title")}
            {...labelledBy("title")}
            {...described("title")}
          />
        </Field>
        <Field id={fieldId("presenterId")} label="Presenter" error={errors?.presenterId}>
          <Select
            value={item.presenterId === null ? noPresenter : String(item.presenterId)}
            onValueChange={(value) => actions.onChange({ presenterId: value === noPresenter ? null : Number(value) }, "presenterId")}
          >
            <SelectTrigger id={fieldId("presenterId")} {...labelledBy("presenterId")} {...described("presenterId")}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={noPresenter}>No presenter</SelectItem>
              {!presenterChoices && item.presenterId !== null && <SelectItem value={String(item.presenterId)}>Former member</SelectItem>}
              {members.map((member) => (
                <SelectItem key={member.id} value={String(member.id)}>
                  {displayName(member) || member.email}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </Field>
        <Field id={fieldId("durationMinutes")} label="Duration (min)" error={errors?.durationMinutes}>
          <Input
            id={fieldId("durationMinutes")}
            type="number"
            inputMode="numeric"
            min={agendaLimits.minMinutes}
            max={agendaLimits.maxMinutes}
            step={1}
            value={item.durationMinutes}
            onChange={(event) => actions.onChange({ durationMinutes: event.target.value }, "durationMinutes")}
            {...labelledBy("durationMinutes")}
            {...described("durationMinutes")}
          />
        </Field>
      </div>

      <Field id={fieldId("purpose")} label="Purpose" error={errors?.purpose}>
        <Select value={item.purpose} onValueChange={(value) => actions.onChange({ purpose: value as AgendaPurpose }, "purpose")}>
          <SelectTrigger id={fieldId("purpose")} className="sm:w-56" {...labelledBy("purpose")} {...described("purpose")}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {agendaPurposes.map((purpose) => (
              <SelectItem key={purpose} value={purpose}>
                {agendaPurposeLabels[purpose]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </Field>

      <Field id={fieldId("description")} label="Description" optional error={errors?.description}>
        <Textarea
          id={fieldId("description")}
          rows={2}
          value={item.description}
          maxLength={agendaLimits.description}
          onChange={(event) => actions.onChange({ description: event.target.value }, "description")}
          {...labelledBy("description")}
          {...described("description")}
        />
      </Field>

      <div className="grid gap-2">
        <AttachedList icon={<FileText aria-hidden />} label="Papers" names={attachmentNames.papers} />
        <AttachedList icon={<Gavel aria-hidden />} label="Resolutions" names={attachmentNames.resolutions} />
        {(errors?.documentIds || errors?.resolutionIds) && (
          <p id={fieldId("attachments-error")} className="text-sm text-destructive">
            {errors.documentIds ?? errors.resolutionIds}
          </p>
        )}
        <Button
          type="button"
          variant="outline"
          size="sm"
          className="w-fit"
          onClick={actions.onAttach}
          aria-label={`Attach papers and resolutions to "${name}"`}
          aria-describedby={errors?.documentIds || errors?.resolutionIds ? fieldId("attachments-error") : undefined}
        >
          <Paperclip aria-hidden />
          Attach papers and resolutions
        </Button>
      </div>
    </li>
  );
}

function Field({
  id,
  label,
  optional,
  error,
  children,
}: {
  id: string;
  label: string;
  optional?: boolean;
  error?: string;
  children: ReactNode;
}) {
  return (
    <div className="grid min-w-0 content-start gap-2">
      {/* Inline, not flex: the space before "(optional)" stays in the label's text and its accessible name. */}
      <Label id={`${id}-label`} htmlFor={id} className="block">
        {label}
        {optional && (
          <>
            {" "}
            <span className="font-normal text-muted-foreground">(optional)</span>
          </>
        )}
      </Label>
      {children}
      {error && (
        <p id={`${id}-error`} className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

function AttachedList({ icon, label, names }: { icon: ReactNode; label: string; names: string[] }) {
  if (names.length === 0) return null;
  return (
    <div className="grid gap-1 text-sm">
      <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{label}</p>
      <ul className="grid gap-1">
        {names.map((name, index) => (
          <li
            key={`${index}-${name}`}
            className="flex min-w-0 items-center gap-1.5 [&_svg]:size-4 [&_svg]:shrink-0 [&_svg]:text-muted-foreground"
          >
            {icon}
            <span className="min-w-0 break-words">{name}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
