// The runs of a property still going. fast-check's interruptAfterTimeLimit races an async predicate against the
// budget and, when the budget wins, returns while that run goes on: its request and balance read still land on
// the target. On a target whose one key every property spends, that run would move the balance under the next
// property (or the shrinking phase) and look like a wrong charge, so each phase waits for its runs to settle.
export class InFlight {
  private readonly runs = new Set<Promise<unknown>>();

  track<T>(run: Promise<T>): Promise<T> {
    this.runs.add(run);
    const forget = () => this.runs.delete(run);
    run.then(forget, forget);
    return run;
  }

  async settle(): Promise<void> {
    while (this.runs.size > 0) await Promise.allSettled([...this.runs]);
  }
}
