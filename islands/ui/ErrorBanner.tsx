/**
 * The red error banner: title Error, the message, expandable Details, a close button, and auto-hide after
 * 10 s that pauses while the pointer is over it. It renders on the server too (errors while building a page),
 * where hiding and closing work with CSS alone, so no script is needed.
 */
export interface ErrorBannerProps {
  message: string;
  detail?: string;
  /** Client-side close; on the server a CSS checkbox closes it. */
  onClose?: () => void;
  /** Restarts the CSS timer when a new message replaces the old one. */
  id?: string | number;
}

export function ErrorBanner({ message, detail, onClose, id }: ErrorBannerProps) {
  const inputId = `deck-banner-${id ?? "server"}`;
  return (
    <div className="deck-banner-wrap" key={id}>
      {onClose ? null : <input type="checkbox" id={inputId} className="deck-banner-close hidden" aria-hidden="true" />}
      <div role="alert" className="deck-banner alert alert-error shadow-lg flex items-start gap-3" data-testid="error-banner">
        <div className="flex-1 min-w-0">
          <div className="font-bold">Error</div>
          <div className="break-words">{message}</div>
          {detail
            ? (
              <details className="mt-1 text-sm">
                <summary className="cursor-pointer">Details</summary>
                <div className="mt-1 whitespace-pre-wrap break-words">{detail}</div>
              </details>
            )
            : null}
        </div>
        {onClose
          ? <button type="button" className="btn btn-ghost btn-sm btn-circle" aria-label="Close" onClick={onClose}>✕</button>
          : <label htmlFor={inputId} className="btn btn-ghost btn-sm btn-circle" aria-label="Close">✕</label>}
      </div>
    </div>
  );
}
