/**
 * The draggable 8-column panel grid (spec 1 §2, §9): at most 1920 px wide and centred, rows of ROW_HEIGHT px,
 * 10 px between panels. Each panel carries its grid position as CSS variables and the stylesheet places it
 * (app.css, .deck-grid), so the server renders the final layout without measuring anything, and a grid
 * narrower than 640 px (a phone, a narrow window beside the sidebar) flows the panels into two columns in
 * layout order instead, with dragging off. A panel moves by dragging its title bar and resizes by its
 * corner; the keyboard does both too (arrow keys on the move handle, Shift+arrows to resize).
 */
import { type KeyboardEvent, type PointerEvent, type ReactNode, useRef, useState } from "react";
import {
  GRID_COLUMNS,
  GRID_MAX_WIDTH,
  type LayoutItem,
  ROW_HEIGHT,
} from "../../server/lib/contract/dashboard.ts";
import { placeItem } from "./layout.ts";

export const GRID_GAP = 10;

export interface GridProps {
  items: LayoutItem[];
  onChange(items: LayoutItem[]): void;
  /** Renders a panel's content; `handle` is its title bar's props for dragging. */
  renderPanel(id: string, handle: DragHandle): ReactNode;
  label: string;
}

export interface DragHandle {
  onPointerDown(event: PointerEvent<HTMLElement>): void;
  onKeyDown(event: KeyboardEvent<HTMLElement>): void;
}

interface Drag {
  id: string;
  mode: "move" | "resize";
  startX: number;
  startY: number;
  dx: number;
  dy: number;
  /** Pixel width of one column plus its gap at the start of the drag. */
  columnStep: number;
}

const rowStep = ROW_HEIGHT + GRID_GAP;

/** The grid position of an item as the CSS variables .deck-grid-item reads. */
function boxOf(item: Pick<LayoutItem, "x" | "y" | "w" | "h">, order = 0) {
  return {
    "--x": item.x,
    "--y": item.y,
    "--w": item.w,
    "--h": item.h,
    "--order": order,
    "--span": item.w <= 2 ? 1 : 2,
  } as Record<string, number>;
}

/** Below this grid width panels flow in two columns and cannot be dragged. */
const NARROW_GRID = 640;

/** Where the dragged item would land, in grid units. */
function targetOf(item: LayoutItem, drag: Drag) {
  const columns = drag.dx / drag.columnStep;
  const rows = drag.dy / rowStep;
  return drag.mode === "move"
    ? { x: item.x + columns, y: item.y + rows, w: item.w, h: item.h }
    : { x: item.x, y: item.y, w: item.w + columns, h: item.h + rows };
}

export function Grid({ items, onChange, renderPanel, label }: GridProps) {
  const gridRef = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<Drag | null>(null);
  const dragged = drag ? items.find((i) => i.i === drag.id) : undefined;
  const preview = drag && dragged ? placeItem(items, drag.id, targetOf(dragged, drag)) : items;
  const rows = Math.max(0, ...preview.map((i) => i.y + i.h));

  const start = (id: string, mode: Drag["mode"]) => (event: PointerEvent<HTMLElement>) => {
    const width = gridRef.current?.clientWidth ?? GRID_MAX_WIDTH;
    if (
      event.button !== 0 || width < NARROW_GRID ||
      ((event.target as HTMLElement).closest("button, a, input") && mode === "move")
    ) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    setDrag({
      id,
      mode,
      startX: event.clientX,
      startY: event.clientY,
      dx: 0,
      dy: 0,
      columnStep: (width - GRID_GAP) / GRID_COLUMNS,
    });
  };
  const move = (event: PointerEvent<HTMLElement>) => {
    if (drag) setDrag({ ...drag, dx: event.clientX - drag.startX, dy: event.clientY - drag.startY });
  };
  const end = () => {
    if (drag && dragged && (drag.dx !== 0 || drag.dy !== 0)) {
      onChange(placeItem(items, drag.id, targetOf(dragged, drag)));
    }
    setDrag(null);
  };
  const keyboard = (item: LayoutItem) => (event: KeyboardEvent<HTMLElement>) => {
    const delta = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[event.key];
    if (!delta) return;
    event.preventDefault();
    const [dx, dy] = delta;
    onChange(
      placeItem(
        items,
        item.i,
        event.shiftKey
          ? { ...item, w: item.w + dx, h: item.h + dy }
          : { ...item, x: item.x + dx, y: item.y + dy },
      ),
    );
  };

  const order = [...items].sort((a, b) => a.y - b.y || a.x - b.x).map((i) => i.i);
  return (
    <div className="deck-grid-frame mx-auto w-full" style={{ maxWidth: GRID_MAX_WIDTH }}>
      <div
        ref={gridRef}
        role="list"
        aria-label={label}
        className="deck-grid select-none"
        style={{ height: rows * rowStep + GRID_GAP }}
        onPointerMove={move}
        onPointerUp={end}
        onPointerCancel={() => setDrag(null)}
      >
        {drag && dragged
          ? (
            <div
              className="deck-grid-item rounded-box border-2 border-dashed border-primary/50 bg-primary/5"
              style={boxOf(preview.find((i) => i.i === drag.id)!)}
              aria-hidden="true"
            />
          )
          : null}
        {items.map((item) => {
          const isDragged = drag?.id === item.i;
          const shown = isDragged ? item : preview.find((i) => i.i === item.i) ?? item;
          const box = boxOf(shown, order.indexOf(item.i));
          const style = isDragged
            ? drag.mode === "move"
              ? { ...box, transform: `translate(${drag.dx}px, ${drag.dy}px)`, zIndex: 10 }
              : { ...box, "--drag-w": `${drag.dx}px`, "--drag-h": `${drag.dy}px`, zIndex: 10 }
            : box;
          return (
            <div
              key={item.i}
              role="listitem"
              data-panel={item.i}
              className={`deck-grid-item ${isDragged ? "" : "deck-grid-animated"}`}
              style={style}
            >
              {renderPanel(item.i, { onPointerDown: start(item.i, "move"), onKeyDown: keyboard(item) })}
              <span
                className="absolute right-0 bottom-0 w-4 h-4 cursor-se-resize"
                aria-hidden="true"
                data-testid="resize-handle"
                onPointerDown={start(item.i, "resize")}
              >
                <svg viewBox="0 0 16 16" className="w-4 h-4 opacity-40">
                  <path d="M14 6v8H6" fill="none" stroke="currentColor" strokeWidth="1.5" />
                </svg>
              </span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
