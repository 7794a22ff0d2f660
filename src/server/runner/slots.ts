// The runner's slots: how many jobs' network calls (webhooks, HTTP steps, calls to the team's app) run
// at once. A job that finds none free stays due; the next call to end frees one and looks again.
// Code-first workflows' jobs may have slots of their own beside the shared ones (throughput.ts).

export interface Slot {
  release(): void;
}

export class Slots {
  /** Jobs in their slot, each with the promise that settles when it is released. */
  private readonly held = new Map<string, Promise<void>>();
  private appHeld = 0;
  /** Jobs that found no free slot in the current look, and in the look before. */
  private waiting = new Set<string>();
  private waitedBefore = new Set<string>();

  constructor(
    private readonly shared: number,
    private readonly app: number,
  ) {}

  /** Some job is in a slot. */
  get busy(): boolean {
    return this.held.size > 0;
  }

  /** Every slot is taken. */
  get full(): boolean {
    return this.held.size - this.appHeld >= this.shared && this.appHeld >= this.app;
  }

  holds(jobId: string): boolean {
    return this.held.has(jobId);
  }

  /** A look begins: jobs it finds without a slot are remembered for the next one. */
  startLook(): void {
    this.waitedBefore = this.waiting;
    this.waiting = new Set();
  }

  /**
   * The job found no free slot in the look before and none has freed since: it waits again without
   * its attempt being built again (every call that ends looks, and a backlog of such jobs is long).
   */
  mustWait(jobId: string): boolean {
    if (!this.waitedBefore.has(jobId) || !this.full) return false;
    this.waiting.add(jobId);
    return true;
  }

  /** A slot for the job (one of the app's own first for a code-first workflow's), or undefined if none is free. */
  take(jobId: string, appJob: boolean): Slot | undefined {
    const own = appJob && this.appHeld < this.app;
    if (!own && this.held.size - this.appHeld >= this.shared) {
      this.waiting.add(jobId);
      return undefined;
    }
    if (own) this.appHeld++;
    let done!: () => void;
    this.held.set(jobId, new Promise<void>((r) => (done = r)));
    return {
      release: () => {
        if (!this.held.delete(jobId)) return;
        if (own) this.appHeld--;
        done();
      },
    };
  }

  /** Resolves once every job in a slot now has released it. */
  async allReleased(): Promise<void> {
    await Promise.allSettled([...this.held.values()]);
  }
}
