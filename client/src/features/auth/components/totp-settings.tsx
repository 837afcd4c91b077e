import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { TotpSetup } from "@shared/second-factor";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { totpStatusQuery } from "@/features/auth/api/totp";
import { RecoveryCodesStep, SetupStart, SetupStep } from "@/features/auth/components/totp-setup";
import { TurnOff } from "@/features/auth/components/totp-turn-off";

type Flow = { step: "idle" } | { step: "setup"; setup: TotpSetup } | { step: "codes"; codes: string[] };

/**
 * Two-factor sign-in with an authenticator app: set it up (a QR code and the secret, a first code to confirm,
 * then the recovery codes shown once), or turn it off with the password and a current code. `enabled` is the
 * user's word that they have a second factor (an app or a passkey): only then is the app's own status asked; what
 * this screen learns from the server later (an app already on, or none to turn off) takes over from both. `onDone` runs once the user has saved their recovery codes;
 * `onFlowChange` says whether a set-up is under way (from its start until the recovery codes are saved).
 */
export function TotpSettings({
  enabled,
  onDone,
  onFlowChange,
}: {
  enabled: boolean;
  onDone?: () => void;
  onFlowChange?: (settingUp: boolean) => void;
}) {
  const [flow, setFlowState] = useState<Flow>({ step: "idle" });
  const setFlow = (next: Flow) => {
    setFlowState(next);
    onFlowChange?.(next.step !== "idle");
  };
  const [learned, setLearned] = useState<{ on: boolean; note?: string } | null>(null);
  const status = useQuery({ ...totpStatusQuery(), enabled });
  const on = learned?.on ?? (enabled && status.data?.enabled === true);

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Two-factor sign-in</h2>
        </CardTitle>
        <CardDescription>After your password, Quorum asks for a code from an authenticator app on your phone.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {flow.step === "setup" ? (
          <SetupStep
            setup={flow.setup}
            onConfirmed={(codes) => {
              setLearned({ on: true });
              setFlow({ step: "codes", codes });
            }}
            onCancel={() => setFlow({ step: "idle" })}
          />
        ) : flow.step === "codes" ? (
          <RecoveryCodesStep
            codes={flow.codes}
            onSaved={() => {
              setFlow({ step: "idle" });
              onDone?.();
            }}
          />
        ) : enabled && learned === null && status.isPending ? (
          <p className="text-sm text-muted-foreground" role="status">
            Loading…
          </p>
        ) : on ? (
          <TurnOff onTurnedOff={(note) => setLearned({ on: false, note })} />
        ) : (
          <SetupStart
            note={learned?.note}
            onStarted={(setup) => setFlow({ step: "setup", setup })}
            onAlreadyOn={() => setLearned({ on: true })}
          />
        )}
      </CardContent>
    </Card>
  );
}
