import { formatDistanceToNow } from "date-fns";
import { Bell, CheckCheck } from "lucide-react";
import { Link } from "wouter";
import type { AppNotification } from "@shared/notifications";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { useNotifications } from "@/features/notifications/api/get-notifications";
import { useMarkAllNotificationsRead } from "@/features/notifications/api/mark-all-notifications-read";
import { useMarkNotificationRead } from "@/features/notifications/api/mark-notification-read";
import { cn } from "@/lib/utils";

function NotificationText({ notification }: { notification: AppNotification }) {
  const unread = notification.readAt === null;
  return (
    <span className="flex min-w-0 items-start gap-2">
      <span aria-hidden className={cn("mt-1.5 size-2 shrink-0 rounded-full", unread ? "bg-primary" : "bg-transparent")} />
      <span className="grid min-w-0 gap-0.5">
        <span className={cn("line-clamp-2 break-words", unread ? "font-medium" : "text-muted-foreground")}>
          {notification.title}
          {unread && <span className="sr-only">, unread</span>}
        </span>
        {notification.body && <span className="line-clamp-2 text-xs text-muted-foreground">{notification.body}</span>}
        <span className="text-xs text-muted-foreground">{formatDistanceToNow(new Date(notification.createdAt), { addSuffix: true })}</span>
      </span>
    </span>
  );
}

/**
 * The header's bell: the unread count as a badge; the menu lists unread and recently read notifications,
 * newest first, each opening its thing (and marking it read), and "Mark all read".
 */
export function NotificationsMenu() {
  const { data, isError } = useNotifications();
  const markRead = useMarkNotificationRead();
  const markAllRead = useMarkAllNotificationsRead();
  const list = data ?? [];
  const count = list.filter((n) => n.readAt === null).length;
  const open = (notification: AppNotification) => {
    if (notification.readAt === null) markRead.mutate(notification.id);
  };

  return (
    // Not modal: the page stays reachable (and is not hidden from assistive technology) while the list is open.
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        {/* The label names the button in full, so the unread count is announced with it (the badge is only seen). */}
        <Button variant="ghost" size="icon" aria-label={count ? `Notifications, ${count} unread` : "Notifications"} className="relative">
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
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-80 max-w-[calc(100vw-2rem)]">
        <div className="flex items-center justify-between gap-2">
          <DropdownMenuLabel>Notifications</DropdownMenuLabel>
          {count > 0 && (
            <DropdownMenuItem
              className="shrink-0 text-xs text-primary"
              disabled={markAllRead.isPending}
              onSelect={(event) => {
                event.preventDefault();
                markAllRead.mutate();
              }}
            >
              <CheckCheck className="size-4" aria-hidden />
              Mark all read
            </DropdownMenuItem>
          )}
        </div>
        <DropdownMenuSeparator />
        {count === 0 && (
          <p className="px-2 py-3 text-center text-sm text-muted-foreground">
            {isError ? "Notifications could not be loaded." : "No new notifications"}
          </p>
        )}
        {list.map((notification) =>
          notification.link ? (
            <DropdownMenuItem key={notification.id} asChild onSelect={() => open(notification)}>
              <Link href={notification.link} className="items-start">
                <NotificationText notification={notification} />
              </Link>
            </DropdownMenuItem>
          ) : (
            <DropdownMenuItem key={notification.id} className="items-start" onSelect={() => open(notification)}>
              <NotificationText notification={notification} />
            </DropdownMenuItem>
          ),
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
