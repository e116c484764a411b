/** Runs `fn` once, `ms` after the last of a burst of calls (several settings written at once
 * restart the server once). */
export function debounce(fn: () => void, ms: number): { (): void; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const call = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      fn();
    }, ms);
  };
  call.cancel = () => clearTimeout(timer);
  return call;
}
