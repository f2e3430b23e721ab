/**
 * The one data table (spec 1 "Generic data table", §9 constants) on TanStack Table v9: optional checkbox or
 * radio selection, a 'Shown Columns' picker, sortable columns, an 'Options' column of row actions, and
 * virtualised rows (40 px, overscan 10) so 10,000 rows scroll smoothly. The server renders the first rows,
 * so the page shows its data before any script runs. Rows are used from the keyboard too (table_keys.ts).
 */
import {
  columnVisibilityFeature,
  type ColumnVisibilityState as VisibilityState,
  createSortedRowModel,
  rowSelectionFeature,
  type RowSelectionState,
  rowSortingFeature,
  sortFn_alphanumeric,
  type SortingState,
  tableFeatures,
  useTable,
} from "@tanstack/react-table";
import { type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import { ActionIcon, type RowActionType } from "./icons.tsx";
import { useTableKeys } from "./table_keys.ts";
import { type MessageKey, t } from "../lib/i18n/t.ts";

export const ROW_HEIGHT = 40;
export const HEADER_HEIGHT = 40;
export const OVERSCAN = 10;
/**
 * Rows rendered before the browser measures the viewport (server render and first paint): the default
 * viewport's 14 and the overscan below them. Nothing scrolls before the page has measured the window, so
 * more would be rendered (on every page view, by the server) for nobody; a taller window gets its rows as soon
 * as the table has measured it.
 */
const FIRST_PAINT_ROWS = 25;

export interface DataColumn<Row> {
  id: string;
  label: string;
  /** The value shown (and sorted on, unless sortValue is given). */
  value: (row: Row) => string | number;
  render?: (row: Row) => ReactNode;
  sortable?: boolean;
  /** Pixels, or a CSS width such as "45%". */
  width?: number | string;
  align?: "left" | "right" | "center";
  /** An opaque identifier (rule ID, ARN) that may break anywhere to fit; words in other columns never do. */
  breakAnywhere?: boolean;
}

export interface RowAction<Row> {
  type: RowActionType;
  /** Accessible label; defaults to the type. */
  label?: string;
  /** An ordinary link (view actions); preferred over onSelect when navigation is all it does. */
  href?: (row: Row) => string;
  onSelect?: (row: Row) => void;
  disabled?: (row: Row) => boolean;
}

export interface DataTableProps<Row> {
  /** Names the table for assistive technology and the empty message ('There are no {entity} yet.'). */
  entity: string;
  /** A name that stays the same in every language (`data-testid="table-<id>"`); the entity when not given. */
  id?: string;
  rows: Row[];
  columns: DataColumn<Row>[];
  rowId: (row: Row) => string;
  actions?: RowAction<Row>[];
  selection?: "checkbox" | "radio";
  selected?: string[];
  onSelectionChange?: (ids: string[]) => void;
  emptyMessage?: string;
  /** Why the rows could not be loaded ("Access denied"); shown in place of the empty message. */
  unavailable?: string;
  /** The rows are narrowed by a filter the user typed: none left reads 'No {entity} match your filter.'. */
  filtered?: boolean;
  columnPicker?: boolean;
  initialSort?: { id: string; desc?: boolean };
  /** Columns the 'Shown Columns' picker starts with unticked. */
  hiddenColumns?: string[];
  /** The caller orders the rows (the server sorts them): the table then only reports the sort (onSortChange). */
  manualSorting?: boolean;
  /** Scroll viewport height in pixels. */
  height?: number;
  /** Infinite scroll: called when the rows shown come within the overscan of the last loaded row. */
  onEndReached?: () => void;
  /** Keeps rows grouped whatever the sort (lower first; e.g. folders before files). */
  rank?: (row: Row) => number;
  /** Told when the user sorts (null when sorting is cleared). */
  onSortChange?: (sort: { id: string; desc: boolean } | null) => void;
  /** A line above the rows (what the sort applies to, say). */
  caption?: ReactNode;
  /** The page's own "delete the ticked rows": the Delete key asks it when rows are ticked. */
  onDeleteSelected?: () => void;
}

const features = tableFeatures({
  rowSortingFeature,
  rowSelectionFeature,
  columnVisibilityFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: { alphanumeric: sortFn_alphanumeric },
});

export function DataTable<Row>(props: DataTableProps<Row>) {
  const { rows, columns, rowId, actions = [], selection, selected = [], onSelectionChange } = props;
  const [sorting, setSorting] = useState<SortingState>(
    props.initialSort ? [{ id: props.initialSort.id, desc: !!props.initialSort.desc }] : [],
  );
  const [visibility, setVisibility] = useState<VisibilityState>(() =>
    Object.fromEntries((props.hiddenColumns ?? []).map((id) => [id, false]))
  );
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(props.height ?? 560);

  const rowSelection: RowSelectionState = useMemo(
    () => Object.fromEntries(selected.map((id) => [id, true])),
    [selected],
  );
  // deno-lint-ignore no-explicit-any
  const columnDefs = useMemo<any[]>(() =>
    columns.map((c) => ({
      id: c.id,
      header: c.label,
      accessorFn: (row: Row) => c.value(row),
      enableSorting: !!c.sortable,
      sortFn: "alphanumeric",
    })), [columns]);

  const table = useTable({
    features,
    data: rows,
    columns: columnDefs,
    getRowId: (row: Row) => rowId(row),
    enableRowSelection: !!selection,
    enableMultiRowSelection: selection === "checkbox",
    state: { sorting, columnVisibility: visibility, rowSelection },
    manualSorting: !!props.manualSorting,
    // Each click on a sorted column flips its order; TanStack's default third state (no sort) made a column
    // sorted newest first ask again for newest first on the first click.
    enableSortingRemoval: false,
    onSortingChange: (updater: SortingState | ((old: SortingState) => SortingState)) => {
      const next = typeof updater === "function" ? updater(sorting) : updater;
      setSorting(next);
      props.onSortChange?.(next[0] ? { id: next[0].id, desc: !!next[0].desc } : null);
    },
    onColumnVisibilityChange: (updater: VisibilityState | ((old: VisibilityState) => VisibilityState)) =>
      setVisibility((old) => (typeof updater === "function" ? updater(old) : updater)),
    onRowSelectionChange: (updater: RowSelectionState | ((old: RowSelectionState) => RowSelectionState)) => {
      const next = typeof updater === "function" ? updater(rowSelection) : updater;
      onSelectionChange?.(Object.keys(next).filter((id) => next[id]));
    },
    // deno-lint-ignore no-explicit-any
  } as any);

  const modelRows = table.getRowModel().rows;
  const rank = props.rank;
  // A stable partition by rank after sorting keeps groups (folders) first in any sort order.
  const sortedRows = useMemo(
    () => (rank
      ? [...modelRows].sort((a, b) => rank(a.original as Row) - rank(b.original as Row))
      : modelRows),
    [modelRows, rank],
  );
  const visibleColumns = columns.filter((c) => table.getColumn(c.id)?.getIsVisible() !== false);
  const count = scrollTop === 0 && viewport === (props.height ?? 560)
    ? FIRST_PAINT_ROWS
    : Math.ceil(viewport / ROW_HEIGHT) + 2 * OVERSCAN;
  // A scroll position kept from a longer list (a filter typed after scrolling down) must not window past the
  // rows: the spacer above them would keep the old height and show an empty table. Kept within the rows, the
  // content shrinks, the browser clamps the scroll position and reports it.
  const first = Math.min(
    Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN),
    Math.max(0, sortedRows.length - count),
  );
  const last = Math.min(sortedRows.length, first + count);
  const windowRows = sortedRows.slice(first, last);
  const onEndReached = props.onEndReached;
  useEffect(() => {
    if (onEndReached && sortedRows.length > 0 && last >= sortedRows.length - OVERSCAN) onEndReached();
  }, [last, sortedRows.length, onEndReached]);
  const bodyHeight = sortedRows.length * ROW_HEIGHT;
  const scroller = useRef<HTMLDivElement>(null);
  const byId = (id: string) => sortedRows.find((r) => r.id === id);
  const keys = useTableKeys(sortedRows.map((r) => r.id), scroller, ROW_HEIGHT, {
    open: (id) => {
      const item = byId(id)?.original as Row;
      const view = actions.find((a) => a.type === "view" && !a.disabled?.(item));
      if (view?.href) location.assign(view.href(item));
      else if (view?.onSelect) view.onSelect(item);
      else scroller.current?.querySelector<HTMLElement>(`tr[data-row="${CSS.escape(id)}"] a[href]`)?.click();
    },
    toggle: selection
      ? (id) => byId(id)?.toggleSelected(selection === "radio" ? true : undefined)
      : undefined,
    remove: (id) => {
      if (props.onDeleteSelected && selected.length > 0) return props.onDeleteSelected();
      const item = byId(id)?.original as Row;
      const remove = actions.find((a) => a.type === "delete");
      if (remove && !remove.disabled?.(item)) remove.onSelect?.(item);
    },
  });
  const colSpan = visibleColumns.length + (selection ? 1 : 0) + (actions.length ? 1 : 0);
  const optionsWidth = Math.max(80, actions.length * 45);

  return (
    <div className="card bg-base-100 shadow-sm" data-testid={`table-${props.id ?? props.entity}`}>
      {props.caption
        ? <div className="px-3 pt-2 text-xs text-base-content/70" role="status">{props.caption}</div>
        : null}
      {props.columnPicker
        ? (
          <details className="dropdown dropdown-end self-end m-2">
            <summary className="btn btn-sm btn-ghost">{t("common.table.shownColumns")}</summary>
            <div className="dropdown-content z-10 bg-base-100 rounded-box shadow p-3 w-56">
              <div className="font-bold text-sm mb-2">{t("common.table.shownColumns")}</div>
              {columns.map((c) => (
                <label key={c.id} className="flex items-center gap-2 text-sm py-0.5">
                  <input
                    type="checkbox"
                    className="checkbox checkbox-sm"
                    checked={table.getColumn(c.id)?.getIsVisible() !== false}
                    onChange={(e) => setVisibility((v) => ({ ...v, [c.id]: e.target.checked }))}
                  />
                  {c.label}
                </label>
              ))}
            </div>
          </details>
        )
        : null}
      <div
        className="overflow-auto"
        style={{ maxHeight: viewport + HEADER_HEIGHT }}
        onScroll={(e) => {
          const el = e.currentTarget;
          setScrollTop(el.scrollTop);
        }}
        ref={(el) => {
          scroller.current = el;
          if (el && !props.height) {
            const fit = Math.max(240, globalThis.innerHeight - el.getBoundingClientRect().top - 48);
            if (Math.abs(fit - viewport) > ROW_HEIGHT) setViewport(fit);
          }
        }}
      >
        <table
          className="deck-table table table-sm table-pin-rows"
          aria-label={props.entity}
          aria-rowcount={sortedRows.length + 1}
        >
          <thead>
            <tr style={{ height: HEADER_HEIGHT }}>
              {selection
                ? (
                  <th className="w-10">
                    <span className="sr-only">{t("common.table.select")}</span>
                  </th>
                )
                : null}
              {visibleColumns.map((c) => {
                const column = table.getColumn(c.id);
                const sorted = column?.getIsSorted();
                return (
                  <th
                    key={c.id}
                    className="whitespace-normal"
                    style={{ width: c.width, textAlign: c.align }}
                    aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined}
                  >
                    {c.sortable
                      ? (
                        <button
                          type="button"
                          className="font-bold inline-flex items-center gap-1"
                          onClick={column?.getToggleSortingHandler()}
                        >
                          {c.label}
                          <span aria-hidden="true">
                            {sorted === "asc" ? "▲" : sorted === "desc" ? "▼" : "↕"}
                          </span>
                        </button>
                      )
                      : c.label}
                  </th>
                );
              })}
              {actions.length
                ? <th style={{ width: optionsWidth, textAlign: "center" }}>{t("common.table.options")}</th>
                : null}
            </tr>
          </thead>
          <tbody onKeyDown={keys.onKeyDown}>
            {sortedRows.length === 0
              ? (
                <tr>
                  <td
                    colSpan={colSpan}
                    className="text-center py-8 text-base-content/70"
                    data-testid="empty-message"
                  >
                    {props.unavailable ?? (props.filtered
                      ? t("common.table.noMatch", { entity: props.entity })
                      : props.emptyMessage ?? t("common.table.empty", { entity: props.entity }))}
                  </td>
                </tr>
              )
              : null}
            {first > 0 ? <tr aria-hidden="true" style={{ height: first * ROW_HEIGHT }} /> : null}
            {windowRows.map((row, i) => {
              const item = row.original as Row;
              const isSelected = row.getIsSelected();
              return (
                <tr
                  key={row.id}
                  style={{ height: ROW_HEIGHT }}
                  className={`outline-primary focus-visible:outline-2 focus-visible:-outline-offset-2 ${
                    isSelected ? "bg-base-200" : ""
                  }`}
                  {...keys.rowProps(row.id)}
                  aria-rowindex={first + i + 2}
                  data-row={row.id}
                >
                  {selection
                    ? (
                      <td>
                        <input
                          type={selection}
                          className={selection === "checkbox" ? "checkbox checkbox-sm" : "radio radio-sm"}
                          checked={isSelected}
                          aria-label={t("common.table.selectRow", { row: row.id })}
                          onChange={() => row.toggleSelected(selection === "radio" ? true : undefined)}
                        />
                      </td>
                    )
                    : null}
                  {visibleColumns.map((c) => (
                    // Lines break between words (and after hyphens and slashes); a word breaks only if it cannot fit at all.
                    <td
                      key={c.id}
                      className={c.breakAnywhere ? "break-all" : "break-words"}
                      style={{ textAlign: c.align }}
                    >
                      {c.render ? c.render(item) : c.value(item)}
                    </td>
                  ))}
                  {actions.length
                    ? (
                      <td className="text-center whitespace-nowrap">
                        {actions.map((action) => {
                          const name = action.label ?? t(`common.rowAction.${action.type}` as MessageKey);
                          const label = t("common.table.rowActionLabel", { action: name, row: row.id });
                          const disabled = action.disabled?.(item) ?? false;
                          if (action.href && !disabled) {
                            return (
                              <a
                                key={action.type}
                                className="btn btn-ghost btn-xs btn-square"
                                href={action.href(item)}
                                aria-label={label}
                                title={name}
                              >
                                <ActionIcon type={action.type} />
                              </a>
                            );
                          }
                          return (
                            <button
                              key={action.type}
                              type="button"
                              className="btn btn-ghost btn-xs btn-square"
                              aria-label={label}
                              title={name}
                              disabled={disabled}
                              onClick={() => action.onSelect?.(item)}
                            >
                              <ActionIcon type={action.type} />
                            </button>
                          );
                        })}
                      </td>
                    )
                    : null}
                </tr>
              );
            })}
            {last < sortedRows.length
              ? <tr aria-hidden="true" style={{ height: bodyHeight - last * ROW_HEIGHT }} />
              : null}
          </tbody>
        </table>
      </div>
    </div>
  );
}
