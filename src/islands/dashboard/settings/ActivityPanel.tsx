import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useState } from 'react';
import { formatDateTime } from '../../../lib/dashboard/format.ts';
import { dashboardApi } from '../../../lib/dashboard/services.ts';
import { $currentWorkspace } from '../../../lib/dashboard/workspaces.ts';
import { serverMessage } from '../../../lib/request/errors.ts';
import { type ActivityEntry, describeActivity } from '../../../model/activity.ts';
import { WORKSPACE_MESSAGES } from '../../../model/workspaces.ts';
import { BUTTON } from '../shared/buttons.ts';
import { LoadError } from '../shared/LoadError.tsx';
import { Spinner } from '../shared/Spinner.tsx';

interface Page {
  entries: ActivityEntry[];
  nextBefore: string | null;
}

/** Settings → Activity: who did what in the current workspace, newest first. */
export function ActivityPanel() {
  const workspace = useStore($currentWorkspace);
  const [page, setPage] = useState<Page | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const id = workspace?.id;

  const load = useCallback(async () => {
    if (!id) return;
    try {
      setPage(await dashboardApi().workspaces.activity(id));
      setError(null);
    } catch (cause) {
      setError(serverMessage(cause));
    }
  }, [id]);
  useEffect(() => {
    setPage(null);
    void load();
  }, [load]);

  if (!workspace) return <p className="text-sm text-slate-700">{WORKSPACE_MESSAGES.notFound}</p>;
  if (error && !page) return <LoadError message={error} onRetry={() => void load()} />;
  if (!page) return <Spinner label="Loading activity" />;

  const older = async () => {
    if (!page.nextBefore) return;
    setLoadingMore(true);
    try {
      const next = await dashboardApi().workspaces.activity(workspace.id, page.nextBefore);
      setPage({ entries: [...page.entries, ...next.entries], nextBefore: next.nextBefore });
    } catch (cause) {
      setError(serverMessage(cause));
    } finally {
      setLoadingMore(false);
    }
  };

  return (
    <section className="max-w-3xl space-y-4" aria-labelledby="activity-title" data-testid="activity-panel">
      <div>
        <h2 id="activity-title" className="text-lg font-semibold text-ink">
          Activity in {workspace.name}
        </h2>
        <p className="text-sm text-slate-700">
          Who added or removed domains, started scans, accepted risks, connected DNS, and changed members or
          the plan.
        </p>
      </div>
      <ActivityList entries={page.entries} />
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      {page.nextBefore && (
        <button
          type="button"
          className={BUTTON.secondary}
          disabled={loadingMore}
          onClick={() => void older()}
        >
          {loadingMore ? 'Loading...' : 'Show older activity'}
        </button>
      )}
    </section>
  );
}

/** The entries, each in one sentence with its time. */
export function ActivityList({ entries }: { entries: ActivityEntry[] }) {
  if (entries.length === 0) return <p className="text-sm text-slate-700">Nothing has happened here yet.</p>;
  return (
    <ol className="divide-y divide-slate-200 rounded-lg border border-slate-200">
      {entries.map((entry) => {
        const sentence = describeActivity(entry);
        return (
          <li
            key={entry.id}
            className="flex flex-wrap justify-between gap-2 px-4 py-3 text-sm"
            data-testid="activity"
          >
            {/* A risk's note is free text of up to RISK_NOTE_MAX characters, perhaps without a space:
                it wraps anywhere and shows three lines at most, all of it in the title. */}
            <span className="line-clamp-3 min-w-0 flex-1 text-ink wrap-anywhere" title={sentence}>
              {sentence}
            </span>
            <time className="text-slate-600" dateTime={entry.createdAt}>
              {formatDateTime(entry.createdAt)}
            </time>
          </li>
        );
      })}
    </ol>
  );
}
