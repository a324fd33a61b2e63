/** Keeps the last lines a server printed, to explain why it failed to start. */
export class OutputTail {
  readonly #lines: string[] = [];
  readonly #limit: number;

  constructor(limit = 40) {
    this.#limit = limit;
  }

  push(chunk: string): void {
    for (const line of chunk.split('\n')) {
      if (line.trim() === '') continue;
      this.#lines.push(line);
      if (this.#lines.length > this.#limit) this.#lines.shift();
    }
  }

  includes(text: string): boolean {
    return this.#lines.some((line) => line.includes(text));
  }

  toString(): string {
    return this.#lines.join('\n');
  }
}
