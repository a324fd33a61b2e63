/** Resolves with the promise's value, or with `onTimeout` after `ms`; never holds the process open. */
export async function within<T, F>(promise: Promise<T>, ms: number, onTimeout: F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<F>((resolve) => {
    timer = setTimeout(() => resolve(onTimeout), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
