import { atom, computed, map } from 'nanostores';
import { WORKSPACE_MESSAGES, WORKSPACE_PARAM, type WorkspaceView } from '../../model/workspaces.ts';
import type { WorkspaceService } from '../request/api.ts';
import { toRequestError } from '../request/errors.ts';
import { toast } from '../toast.ts';
import { resetDashboardData } from './store.ts';

/** The last workspace used in this browser, so the dashboard opens on it next time. */
export const WORKSPACE_STORAGE_KEY = 'danglewatch.workspace';

interface WorkspacesState {
  workspaces: WorkspaceView[];
  /** The list has been read at least once: until then the dashboard waits rather than guess. */
  loaded: boolean;
  error: string | null;
}

export const $workspaces = map<WorkspacesState>({ workspaces: [], loaded: false, error: null });

/**
 * The workspace the dashboard acts on: every workspace-scoped call sends it as X-Workspace-ID.
 * Null until the list is read: calls then act on the personal workspace, as the server does
 * without the header.
 */
export const $workspaceId = atom<string | null>(null);

export const $currentWorkspace = computed(
  [$workspaces, $workspaceId],
  (state, id) => state.workspaces.find((w) => w.id === id) ?? null,
);

function remembered(): string | null {
  try {
    return globalThis.localStorage?.getItem(WORKSPACE_STORAGE_KEY) ?? null;
  } catch {
    // Storage refused (private mode, a sandboxed frame): nothing is remembered.
    return null;
  }
}

/**
 * The workspace a link names (an alert about a team's scan), taken off the address once read: it
 * decides where the dashboard opens, and after that the reader's own choices do.
 */
function linked(): string | null {
  const location = globalThis.location;
  if (!location) return null;
  const url = new URL(location.href);
  const id = url.searchParams.get(WORKSPACE_PARAM);
  if (id === null) return null;
  url.searchParams.delete(WORKSPACE_PARAM);
  globalThis.history?.replaceState(globalThis.history.state, '', url);
  return id;
}

/** Remembers `id` as the workspace to open next, also from other pages (the invitation page). */
export function rememberWorkspace(id: string): void {
  try {
    globalThis.localStorage?.setItem(WORKSPACE_STORAGE_KEY, id);
  } catch {
    // Storage refused: the choice lasts as long as the page.
  }
}

/**
 * The workspace to act on: the one wanted when the caller still belongs to it, else the personal one
 * (a member removed from a team workspace lands back home).
 */
export function pickWorkspace(workspaces: WorkspaceView[], wanted: string | null): WorkspaceView | null {
  return (
    workspaces.find((w) => w.id === wanted) ?? workspaces.find((w) => w.personal) ?? workspaces[0] ?? null
  );
}

function setCurrent(id: string | null): void {
  if (id === $workspaceId.get()) return;
  $workspaceId.set(id);
  // What the stores hold belongs to the previous workspace.
  resetDashboardData();
}

/**
 * Reads GET /api/workspaces and settles the current workspace: the one a link names, else the last
 * used, else the personal one.
 */
export async function loadWorkspaces(api: WorkspaceService): Promise<void> {
  try {
    const { workspaces } = await api.list();
    $workspaces.set({ workspaces, loaded: true, error: null });
    const current = pickWorkspace(workspaces, $workspaceId.get() ?? linked() ?? remembered());
    setCurrent(current?.id ?? null);
    if (current) rememberWorkspace(current.id);
  } catch (error) {
    const { message } = toRequestError(error);
    // Without the list the dashboard still works on the personal workspace (no header).
    $workspaces.set({ ...$workspaces.get(), loaded: true, error: message });
  }
}

/** Makes `id` the current workspace: every dashboard screen reads its data again. */
export function switchWorkspace(id: string): void {
  rememberWorkspace(id);
  setCurrent(id);
}

/** Puts a workspace the caller just created or joined in the list and makes it current. */
export function addWorkspace(workspace: WorkspaceView): void {
  const state = $workspaces.get();
  const others = state.workspaces.filter((w) => w.id !== workspace.id);
  $workspaces.set({ ...state, workspaces: [...others, workspace] });
  switchWorkspace(workspace.id);
}

/**
 * Takes a workspace the caller left or deleted out of the list; when it was the current one, the
 * dashboard goes to the personal workspace at once, before the list is read again.
 */
export function forgetWorkspace(id: string): void {
  const state = $workspaces.get();
  const rest = state.workspaces.filter((w) => w.id !== id);
  $workspaces.set({ ...state, workspaces: rest });
  if ($workspaceId.get() !== id) return;
  const home = pickWorkspace(rest, null);
  if (home) switchWorkspace(home.id);
  else setCurrent(null);
}

/**
 * A workspace-scoped call found the current workspace gone (the caller was removed from it, or it
 * was deleted, in another tab or by someone else): the dashboard goes home and says why, instead
 * of showing 'not found' on every screen until the list is read again. Answers from the calls of a
 * workspace already left change nothing. Whether it went home.
 */
export function workspaceGone(id: string): boolean {
  const gone = $workspaces.get().workspaces.find((w) => w.id === id);
  if ($workspaceId.get() !== id || !gone || gone.personal) return false;
  forgetWorkspace(id);
  toast({ title: WORKSPACE_MESSAGES.noLongerMember(gone.name), variant: 'destructive' });
  return true;
}
