// `@plumbline-kit/mock/msw`: the stateful mock as MSW request handlers (msw 2.x is an optional peer dependency:
// install it beside this package; createMockHandlers() names it when it is missing).

export { type HarDocument, ReplayFileError } from "../replay/har-file.ts";
export type { ReplayMatch, ReplayReport, ReplaySource } from "../replay/replay.ts";
export {
  createMockHandlers,
  DEFAULT_MSW_BASE_URL,
  type MockHandlers,
  type MockHandlersOptions,
} from "./create-mock-handlers.ts";
