/** A number of bytes to hand out once: each `take` that fits is granted and counted. */
export class ByteBudget {
  #left: number;

  constructor(bytes: number) {
    this.#left = bytes;
  }

  /** Whether `size` more bytes fit; when they do, they are counted as taken. */
  take(size: number): boolean {
    if (size > this.#left) return false;
    this.#left -= size;
    return true;
  }
}
