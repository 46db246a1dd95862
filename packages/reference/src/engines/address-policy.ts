// Moved to reference/platform/address-policy.ts (issue 13: the URL-safety guard is contract behaviour shared with the
// mock); this re-export keeps engine modules written against the old path working.
export * from "@plumbline-kit/platform/address-policy";
