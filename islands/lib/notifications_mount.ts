/**
 * How the notifications (islands/lib/notify.ts) get on screen: the island client hands over a function that
 * loads their UI (islands/ui/Notifications.tsx), so the state needs none of it and pages that never show a
 * message never load it. Kept apart from the state so the client's own chunk stays small.
 */
let mount: (() => void) | null = null;

/** Called by the island client before any island runs. */
export function mountNotificationsWith(mountOnFirstUse: () => void): void {
  mount = mountOnFirstUse;
}

/** Mounts the notifications once, the first time something is shown. */
export function mountNotifications(): void {
  const once = mount;
  mount = null;
  once?.();
}
