// The map's layout, pure (no DOM): the controller in the middle, each node on the ring of its hop count, unreachable
// nodes on an outer ring; around a ring, nodes follow the mean angle of their neighbours on the ring inside, so links
// stay short and seldom cross.

/// `nodes`: [{node, hops, neighbors}] (hops null: unreachable). Returns {center, radius(ring), rings,
/// positions: Map(node → {x, y, angle, ring})}, the controller at the center (ring 0).
export function layoutMap(nodes, controller, size) {
  const center = { x: size / 2, y: size / 2 };
  const reachable = nodes.filter((entry) => Number.isInteger(entry.hops) && entry.hops > 0);
  const deepest = reachable.reduce((most, entry) => Math.max(most, entry.hops), 0);
  const outer = nodes.some((entry) => entry.node !== controller && !(entry.hops > 0)) ? deepest + 1 : deepest;
  const rings = Math.max(outer, 1);
  const step = (size / 2) * 0.8 / rings;
  const radius = (ring) => ring * step;
  const positions = new Map([[controller, { x: center.x, y: center.y, angle: 0, ring: 0 }]]);
  const byRing = new Map();
  for (const entry of nodes) {
    if (entry.node === controller) continue;
    const ring = entry.hops > 0 ? entry.hops : outer;
    if (!byRing.has(ring)) byRing.set(ring, []);
    byRing.get(ring).push(entry);
  }
  for (let ring = 1; ring <= rings; ring++) {
    const members = byRing.get(ring) || [];
    const keyed = members.map((entry) => ({ entry, key: meanAngle(entry, positions, ring - 1) }));
    keyed.sort((a, b) => (a.key ?? Infinity) - (b.key ?? Infinity) || a.entry.node - b.entry.node);
    // Evenly spaced, the ring turned so that its nodes sit as near their neighbours' mean angle as they can.
    const slot = (index) => ((index + 0.5) / keyed.length) * 2 * Math.PI;
    let turnX = 0;
    let turnY = 0;
    keyed.forEach(({ key }, index) => {
      if (key === null) return;
      turnX += Math.cos(key - slot(index));
      turnY += Math.sin(key - slot(index));
    });
    const turn = turnX === 0 && turnY === 0 ? 0 : Math.atan2(turnY, turnX);
    keyed.forEach(({ entry }, index) => {
      const angle = slot(index) + turn - Math.PI / 2;
      positions.set(entry.node, {
        x: center.x + radius(ring) * Math.cos(angle), y: center.y + radius(ring) * Math.sin(angle), angle, ring,
      });
    });
  }
  return { center, radius, rings, positions };
}

/// The mean angle (0…2π) of the neighbours of `entry` already placed on ring `inner`, or null.
function meanAngle(entry, positions, inner) {
  let x = 0;
  let y = 0;
  for (const other of entry.neighbors || []) {
    const at = positions.get(other);
    if (!at || at.ring !== inner || inner === 0) continue;
    x += Math.cos(at.angle);
    y += Math.sin(at.angle);
  }
  if (x === 0 && y === 0) return null;
  const angle = Math.atan2(y, x) + Math.PI / 2;
  return angle < 0 ? angle + 2 * Math.PI : angle;
}

/// Every link once ([a, b] with a < b), from each node's neighbour list (a link counts both ways).
export function mapLinks(nodes) {
  const seen = new Set();
  const links = [];
  for (const entry of nodes) {
    for (const other of entry.neighbors || []) {
      const [a, b] = entry.node < other ? [entry.node, other] : [other, entry.node];
      const key = `${a}-${b}`;
      if (a === b || seen.has(key)) continue;
      seen.add(key);
      links.push([a, b]);
    }
  }
  return links;
}
