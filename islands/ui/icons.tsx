/** Row-action icons (spec 1 "Generic data table" action types), inline SVG so nothing is fetched. */
export type RowActionType =
  | "view"
  | "edit"
  | "delete"
  | "description"
  | "share"
  | "cloud"
  | "console"
  | "download"
  | "disable"
  | "format"
  | "preview"
  | "restore";

const PATHS: Record<RowActionType, string> = {
  view: "M1 12s4-7 11-7 11 7 11 7-4 7-11 7S1 12 1 12zm11 3a3 3 0 1 0 0-6 3 3 0 0 0 0 6z",
  edit: "M4 20h4L19 9l-4-4L4 16v4zM14 6l4 4",
  delete: "M4 7h16M9 7V4h6v3m-8 0 1 13h8l1-13",
  description: "M6 3h9l4 4v14H6zM9 12h7M9 16h7",
  share:
    "M18 8a3 3 0 1 0-3-3M6 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zm12 6a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM8.6 13.5l6.8 4M15.4 6.5l-6.8 4",
  cloud: "M7 18h10a4 4 0 0 0 0-8 6 6 0 0 0-11.6 1.5A3.5 3.5 0 0 0 7 18z",
  console: "M3 5h18v14H3zM7 9l3 3-3 3M12 15h5",
  download: "M12 3v12m-5-5 5 5 5-5M4 20h16",
  disable: "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM5.6 5.6l12.8 12.8",
  format: "M4 6h16M4 12h10M4 18h16",
  preview: "M4 4h16v16H4zM4 15l5-5 4 4 3-3 4 4",
  restore: "M3 12a9 9 0 1 0 2.6-6.4L3 8M3 3v5h5M12 7v5l3 3",
};

export function ActionIcon({ type }: { type: RowActionType }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="18"
      height="18"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d={PATHS[type]} />
    </svg>
  );
}
