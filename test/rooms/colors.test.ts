// Caret colours in a room: two people present never share one.
import { describe, expect, it } from 'vitest';
import { colorAmong, COLORS } from '@/components/rooms/colors.ts';

describe('caret colours', () => {
  it('keep a person’s own colour unless someone who came first has it', () => {
    expect(colorAmong(5, [{ clientId: 5, own: COLORS[0] }])).toBe(COLORS[0]);
    expect(colorAmong(5, [{ clientId: 5, own: COLORS[0] }, { clientId: 9, own: COLORS[0] }])).toBe(COLORS[0]);
    expect(colorAmong(5, [{ clientId: 5, own: COLORS[0] }, { clientId: 2, own: COLORS[1] }])).toBe(COLORS[0]);
  });

  it('give the later of two people with the same colour the next one nobody before them has', () => {
    expect(colorAmong(9, [{ clientId: 5, own: COLORS[0] }, { clientId: 9, own: COLORS[0] }])).toBe(COLORS[1]);
    const people = [
      { clientId: 1, own: COLORS[3] },
      { clientId: 2, own: COLORS[4] },
      { clientId: 3, own: COLORS[3] },
      { clientId: 7, own: COLORS[3] },
    ];
    expect(colorAmong(3, people)).toBe(COLORS[5]);
    expect(colorAmong(7, people)).toBe(COLORS[6]);
  });

  it('agree in every browser: five people with the same own colour show five colours', () => {
    const people = [4, 8, 15, 16, 23].map((clientId) => ({ clientId, own: COLORS[2] }));
    const shown = people.map((p) => colorAmong(p.clientId, people));
    expect(new Set(shown).size).toBe(5);
    expect(shown[0]).toBe(COLORS[2]);
  });
});
