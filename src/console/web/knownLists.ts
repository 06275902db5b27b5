import { call } from './consoleApi.js';
import type { ListSchema, Page } from './consoleTypes.js';

/**
 * The account's lists, page by page (getListSchemas pages hold 50), shared by the views
 * that offer a list or a bot to choose: the API has no method listing bots or projects,
 * so the ones the lists name are the ones the console can suggest.
 */
let cache: { lists: ListSchema[]; lastPage: number; loadedPages: number } | undefined;

export async function loadLists(
  morePages = false,
): Promise<{ lists: ListSchema[]; hasMore: boolean }> {
  if (!cache || morePages) {
    const page = cache && morePages ? cache.loadedPages + 1 : 1;
    const answer = await call<Page<ListSchema>>('getListSchemas', { page });
    const previous = cache && morePages ? cache.lists : [];
    cache = {
      lists: [...previous, ...answer.data],
      lastPage: answer.meta.last_page,
      loadedPages: page,
    };
  }
  return { lists: cache.lists, hasMore: cache.loadedPages < cache.lastPage };
}

export function forgetLists(): void {
  cache = undefined;
}

/** The bots the loaded lists were created in, ascending. */
export function botsOf(lists: ListSchema[]): number[] {
  return [...new Set(lists.flatMap((l) => (l.bot_id == null ? [] : [l.bot_id])))].sort(
    (a, b) => a - b,
  );
}

export function projectsOf(lists: ListSchema[]): string[] {
  return [...new Set(lists.map((l) => l.project))].sort();
}
