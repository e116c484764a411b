/** Drops a notification identical to one shown a moment ago (the server and the client may both
 * report the same outcome, e.g. a refused submission). */
export class RecentMessages {
  private readonly shown = new Map<string, number>();
  constructor(
    private readonly windowMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** true when `text` should be shown now (and remembers it). */
  admit(text: string): boolean {
    const t = this.now();
    for (const [k, at] of this.shown) {
      if (t - at > this.windowMs) {
        this.shown.delete(k);
      }
    }
    const key = normalize(text);
    if (this.shown.has(key)) {
      return false;
    }
    this.shown.set(key, t);
    return true;
  }
}

const PREFIX = /^(evalsubmit:|(evaluation )?not submitted:)\s*/i;

function normalize(text: string): string {
  let t = text.trim();
  while (PREFIX.test(t)) {
    t = t.replace(PREFIX, '');
  }
  return t.toLowerCase();
}
