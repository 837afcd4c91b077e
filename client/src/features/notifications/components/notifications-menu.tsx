import { Bell } from "lucide-react";
import type { ComponentProps } from "react";
import { Button } from "@/components/ui/button";
import { usePopupOnDemand } from "@/components/ui/popup-on-demand";
import { useNotifications } from "@/features/notifications/api/get-notifications";

// The menu (Radix's and its positioning library) loads when the bell is first pressed: every signed-in page shows
// the bell, few visits open it.
const loadList = () => import("@/features/notifications/components/notifications-list");

/**
 * The header's bell: the unread count as a badge; pressed, the menu of notifications (NotificationsList). Until
 * the menu's code is there, the same button stands in for its trigger.
 */
export function NotificationsMenu() {
  const { data, isError } = useNotifications();
  const { popup: menu, standIn, triggerRef } = usePopupOnDemand("menu", loadList);
  const list = data ?? [];
  const count = list.filter((n) => n.readAt === null).length;

  const bell = (props: ComponentProps<"button">) => (
    // The label names the button in full, so the unread count is announced with it (the badge is only seen).
    <Button
      variant="ghost"
      size="icon"
      aria-label={count ? `Notifications, ${count} unread` : "Notifications"}
      className="relative"
      {...props}
    >
      <Bell className="size-5" aria-hidden />
      {count > 0 && (
        <span
          data-testid="notifications-count"
          aria-hidden
          className="absolute top-1 right-1 flex h-4 min-w-4 items-center justify-center rounded-full bg-destructive px-1 text-[10px] leading-none font-semibold text-destructive-foreground"
        >
          {count > 99 ? "99+" : count}
        </span>
      )}
    </Button>
  );

  if (!menu) return bell(standIn);
  return <menu.NotificationsList bell={bell({ ref: triggerRef })} notifications={list} unread={count} isError={isError} />;
}
