import { formatDistanceToNow } from "date-fns";
import { CheckCheck } from "lucide-react";
import type { ReactElement } from "react";
import { Link } from "wouter";
import type { AppNotification } from "@shared/notifications";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
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
 * The bell's menu (loaded when the bell is first pressed, see NotificationsMenu): `bell` is its trigger; the list
 * shows unread and recently read notifications, newest first, each opening its thing (and marking it read), and
 * "Mark all read".
 */
export function NotificationsList({
  bell,
  notifications,
  unread,
  isError,
}: {
  bell: ReactElement;
  notifications: AppNotification[];
  unread: number;
  isError: boolean;
}) {
  const markRead = useMarkNotificationRead();
  const markAllRead = useMarkAllNotificationsRead();
  const open = (notification: AppNotification) => {
    if (notification.readAt === null) markRead.mutate(notification.id);
  };

  return (
    // Not modal: the page stays reachable (and is not hidden from assistive technology) while the list is open.
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>{bell}</DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-80 max-w-[calc(100vw-2rem)]">
        <div className="flex items-center justify-between gap-2">
          <DropdownMenuLabel>Notifications</DropdownMenuLabel>
          {unread > 0 && (
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
        {unread === 0 && (
          <p className="px-2 py-3 text-center text-sm text-muted-foreground">
            {isError ? "Notifications could not be loaded." : "No new notifications"}
          </p>
        )}
        {notifications.map((notification) =>
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
