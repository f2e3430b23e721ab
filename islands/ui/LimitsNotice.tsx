/**
 * A marked notice of what the storage accepts but does not do yet (the texts come from the server's one table,
 * routes/embedded_limits.ts); renders nothing without texts. Server-rendered pages and islands both use it.
 */
export function LimitsNotice({ texts }: { texts: string[] }) {
  if (texts.length === 0) return null;
  return (
    <div role="note" className="alert alert-warning alert-soft text-sm mb-4 block" data-testid="embedded-limits">
      <strong className="block mb-1">Not done by the embedded storage yet</strong>
      <ul className="list-disc ml-5">
        {texts.map((text) => <li key={text}>{text}</li>)}
      </ul>
    </div>
  );
}
