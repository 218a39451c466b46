// Caret colours: each person's own, and the one they show in a room so that
// no two people present share one.
export const COLORS = ['#dc2626', '#ea580c', '#ca8a04', '#16a34a', '#0d9488', '#2563eb', '#7c3aed', '#db2777'];

/** A person's own caret colour, the same in every browser. */
export function colorOf(userId: string): string {
  let hash = 0;
  for (const char of userId) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return COLORS[hash % COLORS.length];
}

/**
 * The colour a person shows in a room. Everyone present is taken in the order
 * they came (their awareness client id) and keeps their own colour unless
 * someone before them has it already; then they take the next colour nobody
 * before them has. Every browser works this out from the same people and
 * their own colours, so all agree, and two people present never share a
 * caret colour while the palette lasts, however their ids hash.
 */
export function colorAmong(clientId: number, people: { clientId: number; own: string }[]): string {
  const taken = new Set<string>();
  for (const person of [...people].sort((a, b) => a.clientId - b.clientId)) {
    let color = person.own;
    const start = COLORS.indexOf(person.own);
    for (let step = 1; taken.has(color) && step < COLORS.length; step++) color = COLORS[(start + step) % COLORS.length];
    if (person.clientId === clientId) return color;
    taken.add(color);
  }
  return people.find((p) => p.clientId === clientId)?.own ?? COLORS[0];
}
