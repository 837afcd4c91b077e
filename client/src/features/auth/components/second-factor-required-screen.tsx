import { useQueryClient } from "@tanstack/react-query";
import { ShieldAlert } from "lucide-react";
import { useEffect, useState } from "react";
import { PageHeader } from "@/components/page-header";
import { useCurrentUser } from "@/lib/auth/get-current-user";
import { clearSecondFactorRequired } from "@/lib/auth/second-factor-required";
import { PasskeySettings } from "@/features/auth/components/passkey-settings";
import { TotpSettings } from "@/features/auth/components/totp-settings";

/**
 * Shown in place of a page of a company that requires two-factor sign-in, to a member who has no second factor:
 * set one up here (an authenticator app or a passkey), and the page comes back with its data read again.
 */
export function SecondFactorRequiredScreen() {
  const queryClient = useQueryClient();
  const { user } = useCurrentUser();
  const [settingUpApp, setSettingUpApp] = useState(false);
  const onDone = () => void clearSecondFactorRequired(queryClient);

  // A passkey added here makes the user's flag true: the page comes back. An authenticator app waits until its
  // recovery codes are saved (onDone).
  const hasFactor = user?.secondFactor === true;
  useEffect(() => {
    if (hasFactor && !settingUpApp) void clearSecondFactorRequired(queryClient);
  }, [hasFactor, settingUpApp, queryClient]);

  return (
    <div className="grid gap-6">
      <PageHeader
        title="Two-factor sign-in required"
        description="This company requires every member to use two-factor sign-in. Set it up to open the company's meetings, papers and resolutions."
      />
      <p className="flex items-start gap-3 rounded-md border border-amber-500/40 bg-amber-500/10 p-4 text-sm">
        <ShieldAlert className="mt-0.5 size-5 shrink-0 text-amber-600 dark:text-amber-400" aria-hidden />
        <span>
          After your password, you will be asked for a code from an authenticator app on your phone, or for a passkey on this device. Set up
          either one below.
        </span>
      </p>
      <TotpSettings enabled={false} onDone={onDone} onFlowChange={setSettingUpApp} />
      <PasskeySettings />
    </div>
  );
}
