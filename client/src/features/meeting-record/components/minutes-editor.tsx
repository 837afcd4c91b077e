import { Loader2, Save } from "lucide-react";
import { useCallback, useEffect, useId, useRef, useState, type RefObject } from "react";
import { maxMinutesLength } from "@shared/meeting-record";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { cn } from "@/lib/utils";
import { useEditMinutes } from "@/features/meeting-record/api/minutes";
import { refusalOf } from "@/features/meeting-record/lib/refusal";

/** How long typing must pause before the text is saved on its own. */
export const AUTOSAVE_DELAY_MS = 1500;

/** Saves what is typed and not yet saved; resolves false when there was something and it could not be saved. */
export type SaveMinutesNow = () => Promise<boolean>;

/** A failed save remembers the text it failed with: auto-save tries again only once that text changes. */
type SaveState = { phase: "idle" } | { phase: "saving" } | { phase: "saved" } | { phase: "failed"; message: string; text: string };

export interface MinutesEditorProps {
  meetingId: number;
  /** The text as the server holds it when the editor opens. */
  initialText: string;
  /** Saves on its own a moment after typing stops (the user's Auto-save Drafts switch). */
  autosave: boolean;
  /** Set by the editor: what the page's other actions (circulating) call first, so nothing typed is lost. */
  saveNowRef?: RefObject<SaveMinutesNow | null>;
  saveLabel: string;
}

/** The minutes' text, saved with 'Save draft' or on its own; a failed save keeps the text and says why. */
export function MinutesEditor({ meetingId, initialText, autosave, saveNowRef, saveLabel }: MinutesEditorProps) {
  const { mutateAsync: saveText, isPending: saving } = useEditMinutes(meetingId);
  const [text, setText] = useState(initialText);
  const [savedText, setSavedText] = useState(initialText);
  const [state, setState] = useState<SaveState>({ phase: "idle" });
  const textareaId = useId();
  const countId = useId();
  const statusId = useId();
  const dirty = text !== savedText;
  const tooLong = text.length > maxMinutesLength;
  const empty = text.trim().length === 0;
  // The latest text, for a save started by a timer or another action.
  const latest = useRef(text);
  latest.current = text;
  const saved = useRef(savedText);
  saved.current = savedText;

  const saveNow = useCallback<SaveMinutesNow>(async () => {
    const sending = latest.current;
    if (sending === saved.current) return true;
    if (sending.trim().length === 0) {
      setState({ phase: "failed", message: "Minutes text is required", text: sending });
      return false;
    }
    if (sending.length > maxMinutesLength) {
      setState({
        phase: "failed",
        message: `Minutes must be at most ${maxMinutesLength.toLocaleString("en-US")} characters`,
        text: sending,
      });
      return false;
    }
    setState({ phase: "saving" });
    try {
      await saveText(sending);
      // What was sent is saved; anything typed meanwhile stays unsaved (and is the next save's).
      setSavedText(sending);
      setState({ phase: "saved" });
      return true;
    } catch (error) {
      const refusal = refusalOf(error, "The minutes could not be saved. Your text is kept here; please try again.");
      setState({ phase: "failed", message: [refusal.message, ...refusal.fields].join(" "), text: sending });
      return false;
    }
  }, [saveText]);

  useEffect(() => {
    if (saveNowRef) saveNowRef.current = saveNow;
  }, [saveNowRef, saveNow]);

  // Auto-save: a moment after the last keystroke, unless a save is already on its way.
  const failedWithThis = state.phase === "failed" && state.text === text;
  useEffect(() => {
    if (!autosave || !dirty || empty || tooLong || saving || failedWithThis) return;
    const timer = setTimeout(() => void saveNow(), AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [autosave, dirty, empty, tooLong, saving, failedWithThis, text, saveNow]);

  // Leaving the page with unsaved text asks first.
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  return (
    <div className="grid gap-2">
      <Label htmlFor={textareaId}>Minutes text</Label>
      <Textarea
        id={textareaId}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          if (state.phase === "saved") setState({ phase: "idle" });
        }}
        aria-describedby={`${countId} ${statusId}`}
        aria-invalid={tooLong || undefined}
        spellCheck
        className="min-h-[28rem] font-mono text-sm leading-relaxed break-words"
      />
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <p id={countId} className={cn("text-xs text-muted-foreground tabular-nums", tooLong && "font-medium text-destructive")}>
          {text.length.toLocaleString("en-US")} / {maxMinutesLength.toLocaleString("en-US")} characters
        </p>
        <p id={statusId} aria-live="polite" className={cn("text-xs text-muted-foreground", state.phase === "failed" && "text-destructive")}>
          {statusText(state, dirty)}
        </p>
      </div>
      <div>
        <Button
          type="button"
          variant="outline"
          onClick={() => void saveNow()}
          disabled={!dirty || empty || tooLong || saving}
          aria-busy={saving}
        >
          {saving ? <Loader2 className="animate-spin" aria-hidden /> : <Save aria-hidden />}
          {saveLabel}
        </Button>
      </div>
    </div>
  );
}

function statusText(state: SaveState, dirty: boolean): string {
  switch (state.phase) {
    case "saving":
      return "Saving…";
    case "failed":
      return `Not saved: ${state.message}`;
    case "saved":
      return dirty ? "Unsaved changes" : "Saved";
    default:
      return dirty ? "Unsaved changes" : "";
  }
}
