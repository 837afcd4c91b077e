import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { toast } from "@/components/ui/use-toast";
import { serverMessageOf } from "@/lib/api-client";
import { useQuorum } from "@/features/resolutions/api/get-quorum";
import { useUpdateQuorum } from "@/features/resolutions/api/update-quorum";

/** Company Settings' quorum: the share of eligible voters whose votes a resolution needs by its deadline. */
export function QuorumSetting() {
  const quorum = useQuorum();
  return (
    <section aria-labelledby="quorum-heading" className="grid gap-3">
      <div className="grid gap-1">
        <h2 id="quorum-heading" className="text-lg font-semibold">
          Voting quorum
        </h2>
        <p className="text-sm text-muted-foreground">
          At its deadline, an Ordinary or Special resolution with fewer votes than this (abstentions count) is rejected for want of quorum.
          Leave empty for more than half of the eligible voters.
        </p>
      </div>
      {quorum.isPending ? (
        <p className="text-sm text-muted-foreground">Loading…</p>
      ) : quorum.isError ? (
        <p className="text-sm text-destructive">The quorum could not be loaded.</p>
      ) : (
        <QuorumForm key={String(quorum.data.quorumPercent)} initial={quorum.data.quorumPercent} rule={quorum.data.rule} />
      )}
    </section>
  );
}

function QuorumForm({ initial, rule }: { initial: number | null; rule: string }) {
  const update = useUpdateQuorum();
  const [value, setValue] = useState(initial == null ? "" : String(initial));
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const errorId = useId();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const trimmed = value.trim();
    const percent = trimmed === "" ? null : Number(trimmed);
    if (percent !== null && (!Number.isInteger(percent) || percent < 1 || percent > 100)) {
      setError("Quorum must be a whole percentage from 1 to 100");
      return;
    }
    setError(null);
    try {
      const saved = await update.mutateAsync(percent);
      toast({ title: "Quorum updated", description: `Resolutions now need ${saved.rule}.` });
    } catch (failure) {
      toast({
        title: "Update failed",
        description: serverMessageOf(failure) ?? "There was an error updating the quorum.",
        variant: "destructive",
      });
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-wrap items-end gap-3" aria-label="Voting quorum">
      <div className="grid gap-2">
        <Label htmlFor={inputId}>Quorum (% of eligible voters)</Label>
        <Input
          id={inputId}
          inputMode="numeric"
          className="w-40"
          placeholder="More than half"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
      </div>
      <Button type="submit" variant="outline" disabled={update.isPending}>
        Save quorum
      </Button>
      <p className="basis-full text-sm text-muted-foreground">Now: {rule}.</p>
      {error && (
        <p id={errorId} className="basis-full text-sm text-destructive">
          {error}
        </p>
      )}
    </form>
  );
}
