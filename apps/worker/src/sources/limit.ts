/**
 * At most `size` tasks at once; the rest wait in arrival order. A finishing task hands its slot
 * straight to the next waiter, so a newcomer arriving in between cannot take it as well.
 */
export function createLimiter(size: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (active >= size) await new Promise<void>((resolve) => waiting.push(resolve));
    else active++;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}
