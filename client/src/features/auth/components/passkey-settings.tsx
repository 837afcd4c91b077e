import { formatDistanceToNow } from "date-fns";
import { KeyRound, Plus, Trash2 } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { passkeyLimits, type Passkey } from "@shared/second-factor";
import { LoadError } from "@/components/load-error";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { toast } from "@/components/ui/use-toast";
import { serverMessageOf } from "@/lib/api-client";
import { PasskeyCancelledError, useAddPasskey, usePasskeys, useRemovePasskey } from "@/features/auth/api/passkeys";

export const PASSKEYS_LOAD_FAILED_TEXT = "Your passkeys could not be loaded.";
export const PASSKEY_ADD_FAILED_TEXT = "The passkey could not be added. Please try again.";
export const PASSKEY_REMOVE_FAILED_TEXT = "The passkey could not be removed. Please try again.";
export const PASSKEY_NAME_REQUIRED_TEXT = "Name the passkey, e.g. the device it is on";

const ago = (iso: string) => formatDistanceToNow(new Date(iso), { addSuffix: true });

/**
 * Settings → Security: the user's passkeys (name, when added and last used), adding one on this device under a
 * name, and removing one after a confirmation.
 */
export function PasskeySettings() {
  const passkeys = usePasskeys();
  const [removing, setRemoving] = useState<Passkey | null>(null);

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Passkeys</h2>
        </CardTitle>
        <CardDescription>
          Sign in with your device&apos;s fingerprint, face or PIN instead of a password, or use a passkey as the second step of a sign-in.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {passkeys.isPending ? (
          <p role="status" className="text-sm text-muted-foreground">
            Loading passkeys...
          </p>
        ) : passkeys.isError ? (
          <LoadError message={PASSKEYS_LOAD_FAILED_TEXT} onRetry={() => void passkeys.refetch()} />
        ) : passkeys.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">You have no passkeys yet.</p>
        ) : (
          <ul className="grid divide-y rounded-md border" aria-label="Your passkeys">
            {passkeys.data.map((passkey) => (
              <li key={passkey.id} className="flex min-w-0 items-center gap-3 px-4 py-3">
                <KeyRound className="size-5 shrink-0 text-muted-foreground" aria-hidden />
                <div className="grid min-w-0 flex-1 gap-0.5">
                  <p className="truncate text-sm font-medium">{passkey.name}</p>
                  <p className="text-xs text-muted-foreground">
                    Added {ago(passkey.createdAt)}
                    {" · "}
                    {passkey.lastUsedAt ? `last used ${ago(passkey.lastUsedAt)}` : "never used"}
                  </p>
                </div>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  aria-label={`Remove passkey ${passkey.name}`}
                  onClick={() => setRemoving(passkey)}
                >
                  <Trash2 aria-hidden />
                </Button>
              </li>
            ))}
          </ul>
        )}
        <AddPasskeyForm full={(passkeys.data?.length ?? 0) >= passkeyLimits.perUser} />
        <RemovePasskeyDialog passkey={removing} onClose={() => setRemoving(null)} />
      </CardContent>
    </Card>
  );
}

function AddPasskeyForm({ full }: { full: boolean }) {
  const add = useAddPasskey();
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const errorId = useId();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setError(PASSKEY_NAME_REQUIRED_TEXT);
      return;
    }
    setError(null);
    try {
      const passkey = await add.mutateAsync(trimmed);
      setName("");
      toast({ title: "Passkey added", description: `You can now sign in with "${passkey.name}".` });
    } catch (failure) {
      // A ceremony the browser did not complete is said in place; nothing was sent or kept.
      setError(failure instanceof PasskeyCancelledError ? failure.message : (serverMessageOf(failure) ?? PASSKEY_ADD_FAILED_TEXT));
    }
  }

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Add a passkey" className="grid max-w-md gap-2">
      <Label htmlFor={inputId}>Name of the new passkey</Label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          id={inputId}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            if (error) setError(null);
          }}
          maxLength={passkeyLimits.name}
          placeholder="e.g. Work laptop"
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          disabled={full}
        />
        <Button type="submit" disabled={add.isPending || full} className="shrink-0">
          <Plus aria-hidden />
          {add.isPending ? "Adding..." : "Add a passkey"}
        </Button>
      </div>
      {full && (
        <p className="text-sm text-muted-foreground">You have as many passkeys as an account may have: remove one to add another.</p>
      )}
      {error && (
        <p id={errorId} role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
    </form>
  );
}

function RemovePasskeyDialog({ passkey, onClose }: { passkey: Passkey | null; onClose: () => void }) {
  const remove = useRemovePasskey();

  async function onRemove() {
    if (!passkey) return;
    try {
      await remove.mutateAsync(passkey.id);
      toast({ title: "Passkey removed", description: `"${passkey.name}" can no longer sign you in.` });
    } catch (error) {
      toast({ title: "Error", description: serverMessageOf(error) ?? PASSKEY_REMOVE_FAILED_TEXT, variant: "destructive" });
    }
    onClose();
  }

  return (
    <ConfirmDialog
      open={passkey !== null}
      title="Remove the passkey?"
      description={<>&quot;{passkey?.name}&quot; will no longer sign you in. The device may still list it; you can delete it there too.</>}
      confirmLabel="Remove passkey"
      pendingLabel="Removing..."
      pending={remove.isPending}
      onConfirm={() => void onRemove()}
      onClose={onClose}
    />
  );
}
