import { CircleAlert } from "lucide-react";
import { Card, CardContent } from "@/components/ui/card";

/** Any path that is no route at all, signed in or out. */
export function NotFoundPage() {
  return (
    <div className="flex min-h-[60dvh] w-full items-center justify-center px-4">
      <Card className="w-full max-w-md">
        <CardContent className="pt-0">
          <div className="mb-4 flex items-center gap-2">
            <CircleAlert className="size-8 shrink-0 text-destructive" aria-hidden />
            <h1 className="text-2xl font-bold tracking-tight">404 Page Not Found</h1>
          </div>
          <p className="text-sm text-muted-foreground">Did you forget to add the page to the router?</p>
        </CardContent>
      </Card>
    </div>
  );
}
