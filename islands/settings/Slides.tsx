/**
 * Settings sub-flows are slide panels (spec 2 §4): the list at slide 0, each step one slide further, Back one
 * slide back. Only the current slide is rendered; it slides in from the side it comes from.
 */
import type { ReactNode } from "react";

export function Slide({ index, from, children }: { index: number; from: number; children: ReactNode }) {
  const direction = index >= from ? "deck-slide-forward" : "deck-slide-back";
  return <div key={index} className={`deck-slide ${direction}`} data-slide={index}>{children}</div>;
}

/** A "Back To …" button. */
export function BackButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button type="button" className="btn btn-sm btn-ghost mb-4 gap-1" onClick={onClick}>
      <span aria-hidden="true">←</span> {label}
    </button>
  );
}
