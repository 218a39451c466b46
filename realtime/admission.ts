// Places in each room on this node (ROOM_MAX_CONNECTIONS, per node: see
// docs/decisions.md). A place is taken at the upgrade, synchronously after its
// last await, so sockets arriving in a burst cannot all pass the check at
// once; it is given back when the socket closes, or when an admitted upgrade
// never becomes a socket.
const UNOPENED_MS = 10_000;

export type Place = {
  /** The socket opened: the place is held until free(). */
  opened: () => void;
  /** Gives the place back (once). */
  free: () => void;
};

export function roomAdmission(capOf: () => number) {
  const taken = new Map<string, number>();
  return {
    /** A place in the room, or null when it is full. */
    take(roomId: string): Place | null {
      const count = taken.get(roomId) ?? 0;
      if (count >= capOf()) return null;
      taken.set(roomId, count + 1);
      let held = true;
      const free = () => {
        if (!held) return;
        held = false;
        clearTimeout(timer);
        const left = (taken.get(roomId) ?? 1) - 1;
        if (left > 0) taken.set(roomId, left);
        else taken.delete(roomId);
      };
      const timer = setTimeout(free, UNOPENED_MS);
      timer.unref();
      return { opened: () => clearTimeout(timer), free };
    },
  };
}
