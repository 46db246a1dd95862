// The defaults of `plumbline load export` and `plumbline load account`, apart from the code that uses them so that
// the command's definition (load/cli.ts) names them without loading the export.
export const EXPORT_FORMATS = ["artillery", "k6"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const DEFAULT_EXPORT_DIR = "reports/load-export";
export const DEFAULT_EXPORT_RATE = 10;
/** the variable an exported script reads its API key from when it runs (never written into a file) */
export const API_KEY_ENV = "PLUMBLINE_API_KEY";
/** where `load account --before` records the balance */
export const DEFAULT_ACCOUNT_STATE = "plumbline-account.json";
