// linkedom gives every node it makes, each text node included, a Map of event listeners at construction, kept in a
// module-private WeakMap (its interface/event-target.js: `wm.set(this, new Map)`). A parsed page makes a few hundred
// thousand nodes and none is ever listened to, yet each Map lives as long as its node and the collector works
// through the WeakMap's entries (ephemerons) at every scavenge. Measured on the 90 benchmark pages (issue 12): a
// parse spent 5 ms a page in collection pauses and 6-7 ms more on the collector's helper threads (the second core's
// share of the pool); with the map kept only once a node gets a listener, about 1.5 and 1.5-2 ms, and a page parses
// 25-35% faster.
//
// linkedom 0.18 has no option for it. That WeakMap is found once (the one a new EventTarget registers itself in)
// and given two methods of its own: `set`, which only the constructor calls, keeps nothing, and `get` makes the map
// on first use, so addEventListener, removeEventListener and dispatchEvent work as before. The classes are left
// alone (changing a constructor's prototype chain sent V8 into an endless re-optimisation of every node
// constructor). Should another linkedom version be shaped differently, nothing is changed: installLazyListeners
// answers false and parsing only goes slower (lazy-listeners.test.ts says so for the pinned version).
import { EventTarget as LinkedomEventTarget } from "linkedom";

let installed: boolean | undefined;

/** Finds the WeakMap a new linkedom EventTarget registers itself in (the one `set` call its constructor makes). */
function listenerRegistry(): WeakMap<object, unknown> | null {
  const realSet = WeakMap.prototype.set;
  const seen: WeakMap<object, unknown>[] = [];
  WeakMap.prototype.set = function (this: WeakMap<object, unknown>, key: object, value: unknown) {
    if (value instanceof Map && value.size === 0) seen.push(this);
    return realSet.call(this, key, value);
  };
  try {
    new LinkedomEventTarget();
  } finally {
    WeakMap.prototype.set = realSet;
  }
  return seen.length === 1 ? seen[0] : null;
}

/** Installs the lazy listener maps in linkedom (once); false when linkedom is not shaped as this expects. */
export function installLazyListeners(): boolean {
  if (installed !== undefined) return installed;
  const registry = listenerRegistry();
  installed = registry !== null;
  if (!registry) return false;
  const get = WeakMap.prototype.get;
  const set = WeakMap.prototype.set;
  Object.defineProperties(registry, {
    // the constructor's empty map is dropped: a node with no listener has no entry
    set: { value: (_node: object, _listeners: unknown) => registry },
    get: {
      value: (node: object) => {
        let listeners = get.call(registry, node);
        if (listeners === undefined) {
          listeners = new Map();
          set.call(registry, node, listeners);
        }
        return listeners;
      },
    },
  });
  return true;
}
