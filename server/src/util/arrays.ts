// Appending one array to another without `push(...items)`: a spread passes every item as an argument, and
// past about a hundred thousand of them (a file of that many comment lines) it throws a RangeError.

export function pushAll<T>(into: T[], items: readonly T[]): void {
  for (const item of items) into.push(item);
}
