/** A failure in plain words, announced when it appears. */
export function ErrorMessage({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <p className="error" role="alert">
      {text}
    </p>
  );
}
