// @plumbline-kit/mock: the stateful mock of the Web Search, Crawl and Extraction Service API: startMock() for a
// server (the `plumbline mock` command's programmatic API), and @plumbline-kit/mock/msw for MSW handlers.
export type { MockAccountInput } from "./memory-accounts.ts";
export type { MockAdmin } from "./mock-state.ts";
export { type HarDocument, type HarEntry, ReplayFileError } from "./replay/har-file.ts";
export type {
  ReplayAnswerView,
  ReplayMatch,
  ReplayReport,
  ReplaySkip,
  ReplaySource,
  ReplayView,
  ReplayViolation,
} from "./replay/replay.ts";
export { DEMO_KEY, type MockOptions, type RunningMock, startMock } from "./start-mock.ts";
