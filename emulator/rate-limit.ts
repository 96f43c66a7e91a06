/** Counts uses per key in a rolling window of emulator time. */
export class RollingWindowLimit {
  private readonly uses = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Records a use and returns 0, or returns the ms until a use is allowed again. */
  take(key: string, now: number): number {
    const recent = (this.uses.get(key) ?? []).filter((at) => at > now - this.windowMs);
    this.uses.set(key, recent);
    if (recent.length >= this.limit) {
      const oldest = recent[0] ?? now;
      return Math.max(1, oldest + this.windowMs - now);
    }
    recent.push(now);
    return 0;
  }
}
