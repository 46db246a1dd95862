// A module resolution hook (node:module register): plumbline's own packages (@plumbline-kit/…) resolve to their
// TypeScript sources (the "plumbline-source" condition of their exports) instead of their built dist/, so the
// repository runs without a build. Used by bin/plumbline.js and by the worker threads' source-mode entries.
/** @type {import("node:module").ResolveHook} */
export async function resolve(specifier, context, next) {
  if (specifier.startsWith("@plumbline-kit/"))
    return next(specifier, { ...context, conditions: [...context.conditions, "plumbline-source"] });
  return next(specifier, context);
}
