import { CheckCircle2 } from "lucide-react";
import { Link } from "wouter";
import type { Company } from "@shared/companies";
import { industryLabel, stageLabel } from "@shared/options";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { CompanyLogo } from "@/features/companies/components/company-logo";

/** The wizard's completed state: logo or icon, name, industry and stage, and the way to the dashboard. */
export function SetupComplete({ company, onLeave }: { company: Company; onLeave?: () => void }) {
  const details = [industryLabel(company.industry), stageLabel(company.stage)].filter(Boolean).join(" • ");
  return (
    <Card className="mx-auto w-full max-w-xl items-center text-center">
      <CardContent className="grid justify-items-center gap-4">
        <CheckCircle2 className="size-10 text-success" aria-hidden />
        <h2 className="text-2xl font-semibold tracking-tight">Setup Complete!</h2>
        <CompanyLogo logoUrl={company.logoUrl} className="size-20 rounded-xl border-border [&>svg]:size-9" />
        <div className="grid gap-1">
          <p className="text-lg font-medium break-words">{company.name}</p>
          {details && <p className="text-sm text-muted-foreground">{details}</p>}
        </div>
        <Button asChild size="lg">
          <Link href="/" onClick={onLeave}>
            Go to Dashboard
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}
