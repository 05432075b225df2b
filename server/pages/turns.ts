/**
 * At most `atOnce` pieces of work under way; the others wait their turn, first come first served.
 * A finished piece hands its turn straight to the next in line.
 */
export class Turns {
  private readonly atOnce: number;
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(atOnce: number) {
    this.atOnce = atOnce;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active < this.atOnce) this.active++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }

  /** Under way and waiting now (tests and metrics). */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }
}
