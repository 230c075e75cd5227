/**
 * A read-only array whose elements are made when read (`at(i)`), for metric inputs and per-sample
 * scores of a large task: metrics take and return arrays, and holding a million objects at once is
 * what made scoring need a gigabyte. Indexing, `length`, iteration and the array methods all work;
 * elements are new objects on each read, so nothing may rely on their identity.
 */
export function lazyArray<T>(length: number, at: (i: number) => T): T[] {
  const target = new Array<T>(length);
  const indexOf = (p: string | symbol): number => {
    if (typeof p !== "string" || p.length === 0 || p.length > 10) return -1;
    const c = p.charCodeAt(0);
    if (c < 48 || c > 57 || (c === 48 && p.length > 1)) return -1;
    const i = Number(p);
    return Number.isInteger(i) && i < length ? i : -1;
  };
  return new Proxy(target, {
    get(t, p, receiver) {
      const i = indexOf(p);
      return i >= 0 ? at(i) : Reflect.get(t, p, receiver);
    },
    has(t, p) {
      return indexOf(p) >= 0 || Reflect.has(t, p);
    },
    getOwnPropertyDescriptor(t, p) {
      const i = indexOf(p);
      return i >= 0 ? { value: at(i), writable: false, enumerable: true, configurable: true } : Reflect.getOwnPropertyDescriptor(t, p);
    },
    set() {
      return false;
    },
    deleteProperty() {
      return false;
    },
  });
}
