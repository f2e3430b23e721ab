/**
 * Keyboard use of the data table's rows: the table is one tab stop (its current row); ↑ ↓ Home End move
 * between rows, scrolling the virtualised window so the row exists; Enter opens the row (its view action, or
 * its first link); Space ticks it where rows are selectable; Delete (or Backspace, the Mac's delete key) asks to
 * delete the ticked rows where the page can, else the current row, through the same confirmation a click
 * opens. Keys typed into a field in a row are left alone.
 */
import { type KeyboardEvent, type RefObject, useEffect, useState } from "react";

export interface TableKeyActions {
  open: (id: string) => void;
  toggle?: (id: string) => void;
  remove: (id: string) => void;
}

export function useTableKeys(
  ids: string[],
  viewport: RefObject<HTMLDivElement | null>,
  rowHeight: number,
  actions: TableKeyActions,
) {
  const [current, setCurrent] = useState<string | null>(null);
  // Moving asks for a row that may be outside the rendered window: scroll there, then focus it once rendered.
  const [moving, setMoving] = useState(false);
  const active = current !== null && ids.includes(current) ? current : ids[0] ?? null;

  useEffect(() => {
    if (!moving || active === null) return;
    const row = viewport.current?.querySelector<HTMLElement>(`tr[data-row="${CSS.escape(active)}"]`);
    if (row) {
      row.focus();
      row.scrollIntoView({ block: "nearest" });
      setMoving(false);
    } else if (viewport.current) {
      viewport.current.scrollTop = Math.max(0, ids.indexOf(active) * rowHeight - rowHeight * 2);
    }
  });

  function onKeyDown(e: KeyboardEvent<HTMLElement>) {
    const row = (e.target as HTMLElement).closest<HTMLElement>("tr[data-row]");
    const id = row?.dataset.row;
    if (!row || id === undefined || e.ctrlKey || e.metaKey || e.altKey) return;
    const onRow = e.target === row;
    const onTick = e.target instanceof HTMLInputElement &&
      (e.target.type === "checkbox" || e.target.type === "radio");
    if (!onRow && !onTick) return;
    const at = ids.indexOf(id);
    const go = (index: number) => {
      e.preventDefault();
      setCurrent(ids[Math.max(0, Math.min(ids.length - 1, index))]);
      setMoving(true);
    };
    if (e.key === "ArrowDown") go(at + 1);
    else if (e.key === "ArrowUp") go(at - 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(ids.length - 1);
    else if (e.key === "Enter" && onRow) (e.preventDefault(), actions.open(id));
    else if (e.key === " " && onRow && actions.toggle) (e.preventDefault(), actions.toggle(id));
    else if (e.key === "Delete" || e.key === "Backspace") (e.preventDefault(), actions.remove(id));
  }

  return {
    onKeyDown,
    /** Props of a row: the current one is the table's tab stop. */
    rowProps: (id: string) => ({
      tabIndex: id === active ? 0 : -1,
      onFocus: (e: React.FocusEvent<HTMLElement>) => e.target === e.currentTarget && setCurrent(id),
    }),
  };
}
