import { ShieldAlert } from "lucide-react";
import { Card, CardContent, CardHeader } from "@/components/ui/card";

/** A refusal shown in place of a page: an "Access Denied" card with the page's sentence. It is the page's heading. */
export function AccessDeniedCard({ message }: { message: string }) {
  return (
    <Card className="mx-auto mt-6 max-w-md text-center">
      <CardHeader className="items-center">
        <ShieldAlert className="mx-auto size-10 text-destructive" aria-hidden />
        <h1 className="text-xl leading-tight font-semibold">Access Denied</h1>
      </CardHeader>
      <CardContent>
        <p className="text-muted-foreground">{message}</p>
      </CardContent>
    </Card>
  );
}
