import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api.ts';

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload: () => void;
}

/** Loads `fetcher()` whenever `deps` change; a late answer to an older request is dropped. */
export function useLoad<T>(fetcher: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: ApiError; loading: boolean }>({
    loading: true,
  });
  const [tick, setTick] = useState(0);
  const latest = useRef(0);
  useEffect(() => {
    const id = ++latest.current;
    setState((s) => ({ ...s, loading: true }));
    fetcher().then(
      (data) => id === latest.current && setState({ data, loading: false }),
      (error: unknown) =>
        id === latest.current &&
        setState((s) => ({
          data: s.data,
          loading: false,
          error: error instanceof ApiError ? error : new ApiError(0, String(error)),
        })),
    );
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

/** Sets the document title, so tabs and history say where one is. */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Extraction dashboard`;
  }, [title]);
}
