import { useWords } from '../language/ConsoleLanguage';

/** The next keyset page, when there is one. */
export function LoadMore({ hasMore, busy, onClick }: { hasMore: boolean; busy: boolean; onClick: () => void }) {
  const words = useWords();
  if (!hasMore) return null;
  return (
    <div className="more">
      <button type="button" onClick={onClick} disabled={busy}>
        {words.t('common.loadMore')}
      </button>
    </div>
  );
}
