// The benchmarks' memory figure: this process's RSS before, and its peak while a run goes on (sampled), so a
// streaming writer shows it holds parts, not the whole package.
export function watchRss(everyMs: number) {
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, everyMs);
  return {
    before,
    /** the peak so far */
    peak: () => Math.max(peak, process.memoryUsage().rss),
    stop: () => clearInterval(sampler),
  };
}

export const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
