import { formatDistanceToNow } from "date-fns";
import { Bell } from "lucide-react";
import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { useNotifications, type AppNotification } from "@/features/account/api/get-notifications";
import { useMarkNotificationRead } from "@/features/account/api/mark-notification-read";

function NotificationText({ notification }: { notification: AppNotification }) {
  return (
    <span className="grid min-w-0 gap-0.5">
      <span className="truncate font-medium">{notification.title}</span>
      {notification.body && <span className="line-clamp-2 text-xs text-muted-foreground">{notification.body}</span>}
      <span className="text-xs text-muted-foreground">
        {formatDistanceToNow(new Date(notification.createdAt), { addSuffix: true })}
      </span>
    </span>
  );
}

/** The header's bell: the unread count as a badge, and the unread notifications in a menu. */
export function NotificationsMenu() {
  const { data, isError } = useNotifications();
  const markRead = useMarkNotificationRead();
  const unread = (data ?? []).filter((n) => n.readAt === null);
  const count = unread.length;

  return (
    <DropdownMenu>
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
        <DropdownMenuLabel>Notifications</DropdownMenuLabel>
        <DropdownMenuSeparator />
        {count === 0 ? (
          <p className="px-2 py-6 text-center text-sm text-muted-foreground">
            {isError ? "Notifications could not be loaded." : "No new notifications"}
          </p>
        ) : (
          unread.map((notification) =>
            notification.link ? (
              <DropdownMenuItem key={notification.id} asChild onSelect={() => markRead.mutate(notification.id)}>
                <Link href={notification.link} className="items-start">
                  <NotificationText notification={notification} />
                </Link>
              </DropdownMenuItem>
            ) : (
              <DropdownMenuItem key={notification.id} className="items-start" onSelect={() => markRead.mutate(notification.id)}>
                <NotificationText notification={notification} />
              </DropdownMenuItem>
            ),
          )
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
