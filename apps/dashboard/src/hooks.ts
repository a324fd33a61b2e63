import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { RefObject } from 'preact';
import { ApiError, type FieldError } from './api.ts';

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

export interface Submission {
  busy: boolean;
  error: ApiError | undefined;
  /** A 422's per-field messages, shown on their fields; other errors show as one notice. */
  fields: FieldError[];
  /**
   * Runs one request a form or button makes: busy while it runs, its error kept when it fails
   * (anything thrown that is not an ApiError is shown as one).
   */
  run: (work: () => Promise<void>) => Promise<void>;
  /** The same as a form's onSubmit: the browser's own submission is stopped first. */
  onSubmit: (work: () => Promise<void>) => (e: Event) => void;
}

/** What every dashboard form did by hand: busy, error and field errors around one request. */
export function useSubmit(): Submission {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, String(err)));
    } finally {
      setBusy(false);
    }
  };
  return {
    busy,
    error,
    fields: error?.fields ?? [],
    run,
    onSubmit: (work) => (e) => {
      e.preventDefault();
      void run(work);
    },
  };
}

/**
 * The width an element is drawn at, in CSS pixels, kept current as the window changes: for
 * drawings that must be made at their real size (text in an SVG scaled down becomes unreadable).
 */
export function useWidth<T extends Element>(): [RefObject<T>, number | undefined] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState<number>();
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.round(entry.contentRect.width));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

/**
 * Calls `onKey` for keys pressed outside a text field (and without Ctrl, Meta or Alt). The
 * listener is added in a layout effect, before the browser paints what mounted it, and always
 * calls the latest `onKey`: with a plain effect a key pressed just after a view appeared could
 * find no listener yet, or one holding an earlier render's values (a correction typed a moment
 * before "accept" was then lost).
 */
export function useKeys(onKey: (e: KeyboardEvent) => void): void {
  const latest = useRef(onKey);
  latest.current = onKey;
  useLayoutEffect(() => {
    const listener = (e: KeyboardEvent) => {
      const t = e.target;
      if (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement) return;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      latest.current(e);
    };
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);
}
